#!/usr/bin/env bash
# The REAL kubectl against the kube stand-in started with --gpu-sharing: it lists the time-sliced
# T4 node and the MIG "mixed" A100 node with the labels and capacity GPU feature discovery gives
# them, selects them by those labels, schedules shares and MIG devices onto them (no GPU index
# recorded for a share), and refuses a share too many with the scheduler's own message.
# Over plain HTTP without authentication (the stand-in without --tls-dir/--token), which the
# other scripts here do not cover.
. "$(dirname "$0")/lib.sh"
KUBE_TEST_PLAIN=1
start_standin --gpu-sharing
case "$server_url" in http://*) pass "plain http without --tls-dir" ;; *) fail "plain http expected: $server_url" ;; esac

nodes="$(k get nodes)"
[ "$(echo "$nodes" | tail -n +2 | wc -l)" -eq 6 ] || fail "6 nodes expected: $nodes"
expect_contains "$nodes" "kube-t4-ts-01      Ready" "the time-sliced T4 node is listed"
expect_contains "$nodes" "kube-a100-mig-01   Ready" "the MIG node is listed"
t4="$(k get node kube-t4-ts-01 -o jsonpath='{.status.capacity.nvidia\.com/gpu} {.metadata.labels.nvidia\.com/gpu\.count} {.metadata.labels.nvidia\.com/gpu\.replicas} {.metadata.labels.nvidia\.com/gpu\.product}')"
[ "$t4" = "4 1 4 Tesla-T4-SHARED" ] || fail "T4 capacity/count/replicas/product: $t4"
pass "T4: 4 shares of 1 GPU, product Tesla-T4-SHARED"
mig="$(k get node kube-a100-mig-01 -o jsonpath='{.status.capacity.nvidia\.com/mig-1g\.5gb} {.metadata.labels.nvidia\.com/gpu\.count} {.metadata.labels.nvidia\.com/mig\.strategy}')"
[ "$mig" = "56 8 mixed" ] || fail "MIG node capacity/count/strategy: $mig"
pass "A100: 56 x 1g.5gb of 8 GPUs, strategy mixed"
[ "$(k get nodes -l nvidia.com/gpu.sharing-strategy=time-slicing -o name)" = "node/kube-t4-ts-01" ] || fail "select by sharing strategy"
pass "label selector on the sharing strategy"
[ "$(k get nodes -l 'nvidia.com/mig.strategy in (mixed,single)' -o name)" = "node/kube-a100-mig-01" ] || fail "select by MIG strategy"
pass "set-based label selector on the MIG strategy"

pod() { # name nodegroup resource amount
    cat <<YAML
apiVersion: v1
kind: Pod
metadata: {name: $1, namespace: default}
spec:
  restartPolicy: Never
  nodeSelector: {eks.amazonaws.com/nodegroup: $2}
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
  containers:
  - name: main
    image: busybox:1.36
    command: [sleep, "60"]
    resources: {limits: {$3: $4}}
YAML
}
for i in 1 2 3 4; do pod "share-$i" t4-shared nvidia.com/gpu 1 | k create -f - >/dev/null; done
pod mig-a a100-mig nvidia.com/mig-1g.5gb 3 | k create -f - >/dev/null
pod share-5 t4-shared nvidia.com/gpu 1 | k create -f - >/dev/null
wait_for 20 sh -c "[ \"\$(kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get pods --field-selector status.phase=Running -o name | wc -l)\" -eq 5 ]" \
    || fail "4 shares and the MIG pod running: $(k get pods -o wide)"
pass "four shares of one T4 and three MIG devices run"
[ "$(k get pod share-1 -o jsonpath='{.spec.nodeName} [{.metadata.annotations.strata\.lab/gpu-indices}]')" = "kube-t4-ts-01 []" ] \
    || fail "a share is bound to the T4 node without a GPU index"
pass "a share carries no GPU index"
[ "$(k get pod mig-a -o jsonpath='{.spec.nodeName}')" = "kube-a100-mig-01" ] || fail "MIG pod on the MIG node"
expect_contains "$(k get pod mig-a -o jsonpath='{.spec.tolerations}')" '"key":"nvidia.com/mig-1g.5gb"' \
    "ExtendedResourceToleration adds the MIG resource's toleration"
wait_for 20 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get pod share-5 -o jsonpath='{.status.conditions[0].message}' | grep -q 'Insufficient nvidia.com/gpu'" \
    || fail "the fifth share stays Pending: $(k get pod share-5 -o jsonpath='{.status.conditions}')"
pass "a fifth share of a 4-share T4 is Unschedulable (Insufficient nvidia.com/gpu)"
echo "all kubectl GPU sharing checks passed"
