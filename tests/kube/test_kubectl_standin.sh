#!/usr/bin/env bash
# The REAL kubectl against the kube stand-in: table output, JSON lists, create of a GPU Job
# with a node selector, its pod on the right node with GPUs counted, logs, field and label
# selectors, cordon/uncordon with annotations, delete of a Job (its pods go too), and the API's
# error messages (NotFound, AlreadyExists, Invalid, BadRequest).
. "$(dirname "$0")/lib.sh"
start_standin

version="$(k version -o json 2>&1)"
expect_contains "$version" '"gitVersion": "v1.31.4"' "the server says it is v1.31.4"
# The gcloud SDK's dispatcher picks the kubectl matching the server; any other kubectl (Debian
# 12's 1.20) is the one there is (test_kubectl_versions.sh tests each against old and new).
if [ -x "$(dirname "$(readlink -f "$(command -v kubectl)")")/kubectl.1.33" ]; then
    expect_contains "$version" '"minor": "31"' "the dispatcher runs kubectl 1.31 for a 1.31 server"
fi

nodes="$(k get nodes)"
[ "$(echo "$nodes" | tail -n +2 | wc -l)" -eq 4 ] || fail "4 nodes expected: $nodes"
expect_contains "$(echo "$nodes" | head -1)" "NAME          STATUS   ROLES    AGE   VERSION" "node table columns"
expect_contains "$nodes" "kube-gpu-04   Ready    <none>" "nodes are Ready"
expect_contains "$(k get nodes -o wide | head -1)" "INTERNAL-IP   EXTERNAL-IP   OS-IMAGE" "wide columns"
[ "$(k get nodes -l node.kubernetes.io/instance-type=p5en.48xlarge -o name | wc -l)" -eq 2 ] || fail "label selector on nodes"
pass "label selector on nodes"
gpus="$(k get node kube-gpu-01 -o jsonpath='{.status.capacity.nvidia\.com/gpu} {.metadata.labels.nvidia\.com/gpu\.product}')"
[ "$gpus" = "8 NVIDIA-H100-80GB-HBM3" ] || fail "GPU capacity and product label: $gpus"
pass "GPU capacity and product label"

cat >"$work/job.yaml" <<'YAML'
apiVersion: batch/v1
kind: Job
metadata:
  name: gpu-job
  namespace: ml-research
spec:
  template:
    spec:
      restartPolicy: Never
      nodeSelector:
        node.kubernetes.io/instance-type: p5en.48xlarge
      containers:
      - name: main
        image: busybox:1.36
        command: ["sh", "-c", "echo started on $NODE_NAME; sleep 30"]
        env:
        - name: NODE_NAME
          valueFrom: {fieldRef: {fieldPath: spec.nodeName}}
        resources:
          limits: {nvidia.com/gpu: 6}
YAML
expect_contains "$(k create -f "$work/job.yaml")" "job.batch/gpu-job created" "create -f job.yaml (server-side field validation)"
wait_for 20 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get pods -n ml-research -l job-name=gpu-job --field-selector status.phase=Running -o name | grep -q pod/"
pod="$(k get pods -n ml-research -l job-name=gpu-job -o jsonpath='{.items[0].metadata.name}')"
node="$(k get pod -n ml-research "$pod" -o jsonpath='{.spec.nodeName}')"
case "$node" in kube-gpu-03|kube-gpu-04) pass "pod on a p5en node ($node)" ;; *) fail "pod on $node" ;; esac
indices="$(k get pod -n ml-research "$pod" -o jsonpath='{.metadata.annotations.strata\.lab/gpu-indices}')"
[ "$indices" = "0,1,2,3,4,5" ] || fail "GPU indices annotation: $indices"
pass "6 GPUs allocated (indices $indices)"
alloc="$(api /strata-lab/v1/gpu-allocations -f)"
expect_contains "$alloc" "\"pod\": \"$pod\"" "GPU allocation export names the pod"

# A second job asking 6 GPUs of the same pool fits only on the other p5en node; a third stays Pending.
sed 's/name: gpu-job/name: gpu-job-2/' "$work/job.yaml" | k create -f - >/dev/null
sed 's/name: gpu-job/name: gpu-job-3/' "$work/job.yaml" | k create -f - >/dev/null
wait_for 20 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get pods -n ml-research -l job-name=gpu-job-3 -o jsonpath='{.items[0].status.conditions[0].message}' | grep -q 'Insufficient nvidia.com/gpu'"
node2="$(k get pods -n ml-research -l job-name=gpu-job-2 -o jsonpath='{.items[0].spec.nodeName}')"
[ -n "$node2" ] && [ "$node2" != "$node" ] || fail "second job on the other p5en node: '$node2' vs '$node'"
pass "second job on $node2, third Pending: Insufficient nvidia.com/gpu"
pending="$(k get pods -n ml-research -l job-name=gpu-job-3)"
expect_contains "$pending" "Pending" "table shows Pending"

on_node="$(k get pods -A --field-selector "spec.nodeName=$node" -o name)"
[ "$on_node" = "pod/$pod" ] || fail "field selector spec.nodeName=$node: $on_node"
pass "field selector spec.nodeName"
[ "$(k get pods -A --field-selector status.phase=Pending -o name | wc -l)" -eq 1 ] || fail "field selector status.phase"
pass "field selector status.phase=Pending"
[ "$(k get pods -A --field-selector "metadata.name=$pod" -o name)" = "pod/$pod" ] || fail "field selector metadata.name"
pass "field selector metadata.name"

json="$(k get pods -A -o json)"
echo "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["kind"] == "List", d["kind"]
assert len(d["items"]) == 3, len(d["items"])
assert all(i["kind"] == "Pod" and i["apiVersion"] == "v1" for i in d["items"])
gpus = sorted(i["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/gpu"] for i in d["items"])
assert gpus == ["6", "6", "6"], gpus
' || fail "get pods -A -o json"
pass "get pods -A -o json (kind List, quantities as strings)"

expect_contains "$(k logs -n ml-research "$pod")" "started on $node" "logs of the pod (downward API env)"
expect_contains "$(k logs -n ml-research job/gpu-job)" "started on $node" "logs of job/gpu-job"

expect_contains "$(k cordon "$node")" "node/$node cordoned" "cordon"
expect_contains "$(k get node "$node")" "Ready,SchedulingDisabled" "cordoned node shows SchedulingDisabled"
expect_contains "$(k annotate node "$node" --overwrite 'strata.io/drain-reason=burn-in failed')" "annotated" "annotate"
[ "$(k get node "$node" -o jsonpath='{.metadata.annotations.strata\.io/drain-reason}')" = "burn-in failed" ] || fail "annotation"
expect_contains "$(k uncordon "$node")" "node/$node uncordoned" "uncordon"
k annotate node "$node" strata.io/drain-reason- >/dev/null
[ -z "$(k get node "$node" -o jsonpath='{.metadata.annotations.strata\.io/drain-reason}')" ] || fail "annotation removed"
pass "annotation removed"

expect_contains "$(k delete job gpu-job -n ml-research)" 'job.batch "gpu-job" deleted' "delete job"
wait_for 10 sh -c "[ -z \"\$(kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get pods -n ml-research -l job-name=gpu-job -o name)\" ]" \
    || fail "the job's pods go with it"
pass "the job's pods are deleted too"
wait_for 20 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get pods -n ml-research -l job-name=gpu-job-3 --field-selector status.phase=Running -o name | grep -q pod/" \
    || fail "the pending job starts once GPUs are free"
pass "the Pending job starts once the GPUs are free"

err="$(k get node no-such-node 2>&1 || true)"
[ "$err" = 'Error from server (NotFound): nodes "no-such-node" not found' ] || fail "NotFound: $err"
pass "NotFound message"
err="$(k get job gpu-job -n ml-research 2>&1 || true)"
expect_contains "$err" 'Error from server (NotFound): jobs.batch "gpu-job" not found' "NotFound for a deleted job"
err="$(sed 's/name: gpu-job/name: gpu-job-2/' "$work/job.yaml" | k create -f - 2>&1 || true)"
expect_contains "$err" 'Error from server (AlreadyExists): error when creating "STDIN": jobs.batch "gpu-job-2" already exists' "AlreadyExists"
err="$(sed 's/restartPolicy: Never/restartPolicy: Always/' "$work/job.yaml" | k create -f - 2>&1 || true)"
expect_contains "$err" 'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"' "Invalid (422) with causes"
err="$(k get pods --field-selector spec.gpus=1 2>&1 || true)"
expect_contains "$err" "field label not supported: spec.gpus" "BadRequest for an unknown field selector"
err="$(sed 's/restartPolicy: Never/restartPolicy: Never\n      gpus: 8/' "$work/job.yaml" | k create -f - 2>&1 || true)"
# kubectl >= 1.25 asks for server-side validation (fieldValidation=Strict); older ones (Debian
# 12's 1.20) send none, and the server's default for that, as the real one's, is a warning.
client_minor="$(kubectl version --client -o json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["clientVersion"]["minor"].rstrip("+"))')"
if [ "${client_minor:-99}" -ge 25 ]; then
    expect_contains "$err" 'strict decoding error: unknown field "spec.template.spec.gpus"' "strict field validation"
else
    expect_contains "$err" 'Warning: unknown field "spec.template.spec.gpus"' "unknown field warned about (kubectl 1.$client_minor sends no fieldValidation)"
fi

# A paginated list and a watch from its resourceVersion through `kubectl get --raw`, as Strata
# reads pods, nodes and Jobs (KubeInformer): a pod created after the list comes as ADDED, one deleted after
# it as DELETED, even when the watch starts after both (the real watch cache replays them so).
k run before-list --image=busybox --restart=Never -- sleep 300 >/dev/null
page="$(k get --raw '/api/v1/pods?limit=1')"
token="$(echo "$page" | python3 -c 'import json,sys,urllib.parse; print(urllib.parse.quote(json.load(sys.stdin)["metadata"]["continue"], safe=""))')"
rv="$(echo "$page" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["resourceVersion"])')"
[ -n "$token" ] && [ -n "$rv" ] || fail "a page of 1 carries continue and resourceVersion: $page"
rest="$(k get --raw "/api/v1/pods?limit=500&continue=$token" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["metadata"]["resourceVersion"], "continue" in d["metadata"], len(d["items"]))')"
[ "${rest%% *}" = "$rv" ] || fail "the next page is of the same resourceVersion: $rest (first page $rv)"
expect_contains "$rest" " False " "the last page has no continue token"
k run after-list --image=busybox --restart=Never -- sleep 300 >/dev/null
k delete pod before-list --wait=false >/dev/null
events="$(timeout 10 kubectl --kubeconfig "$work/kubeconfig" --cache-dir "$work/cache" get --raw \
    "/api/v1/pods?watch=1&allowWatchBookmarks=true&resourceVersion=$rv&timeoutSeconds=2" \
    | python3 -c 'import json,sys
for line in sys.stdin:
    e = json.loads(line); print(e["type"], e["object"]["metadata"]["name"])')"
expect_contains "$events" "ADDED after-list" "a pod created after the list comes as ADDED"
expect_contains "$events" "DELETED before-list" "a pod deleted after the list comes as DELETED"
echo "$events" | grep -q "ADDED before-list" && fail "before-list was in the list: not ADDED again: $events"
pass "the watch from a list's resourceVersion replays what changed since"
echo "all kubectl checks passed"
