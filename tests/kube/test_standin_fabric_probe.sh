#!/usr/bin/env bash
# What `strata fabric` on Kubernetes needs of the stand-in, through the real kubectl: Services
# (a headless one, its table, a refused name), and an Indexed Job whose container carries the
# fabric probe's marker runs for REAL: one process per pod with the pod's hostname
# (NAME-INDEX), JOB_COMPLETION_INDEX, and index 0's name resolvable through the headless
# Service (127.0.0.1 in the lab); its output is the pod log, its exit status the container's.
# The scheduler places the pods by required node affinity and pod anti-affinity, and a
# cordoned node takes only pods that tolerate node.kubernetes.io/unschedulable.
. "$(dirname "$0")/lib.sh"
start_standin --quiet

# A pod script that shows what the fabric probe would see; the marker in its env makes it real.
script='echo "host=$(hostname) index=$JOB_COMPLETION_INDEX"; getent hosts "$MASTER_ADDR" >/dev/null && echo "resolved=$MASTER_ADDR"; exit $((JOB_COMPLETION_INDEX * 3))'
job() { # NAME NODES TOLERATE(yes|no)
    local name=$1 nodes=$2 tolerate=$3
    python3 - "$name" "$nodes" "$tolerate" "$script" <<'PY'
import json, sys
name, nodes, tolerate, script = sys.argv[1], sys.argv[2].split(","), sys.argv[3] == "yes", sys.argv[4]
labels = {"strata.io/fabric-group": name}
tolerations = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
if tolerate:
    tolerations.append({"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"})
svc = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name},
       "spec": {"clusterIP": "None", "publishNotReadyAddresses": True, "selector": labels}}
job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name},
       "spec": {"completionMode": "Indexed", "completions": len(nodes), "parallelism": len(nodes), "backoffLimit": 0,
                "template": {"metadata": {"labels": labels}, "spec": {
                    "restartPolicy": "Never", "subdomain": name, "tolerations": tolerations,
                    "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                                     {"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In", "values": nodes}]}]}},
                                 "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                                     {"labelSelector": {"matchLabels": labels}, "topologyKey": "kubernetes.io/hostname"}]}},
                    "containers": [{"name": "probe", "image": "python:3.11", "command": ["sh", "-c", script],
                                    "env": [{"name": "MASTER_ADDR", "value": f"{name}-0.{name}"},
                                            {"name": "STRATA_FABRIC_PROBE", "value": "# @@strata-fabric"}]}]}}}}
print(json.dumps({"apiVersion": "v1", "kind": "List", "items": [svc, job]}))
PY
}

out="$(k create service clusterip Bad_Name --clusterip=None 2>&1 || true)"
expect_contains "$out" "Bad_Name" "a Service name that is not a DNS-1035 label is refused"

k cordon kube-gpu-01 kube-gpu-02 >/dev/null
job fab kube-gpu-01,kube-gpu-02 yes | k create -f - >/dev/null
expect_contains "$(k get svc fab)" "None" "the headless Service is listed with cluster IP None"
k wait --for=condition=failed job/fab --timeout=30s >/dev/null || fail "the Job should fail (index 1 exits 3): $(k get pods -o wide)"
placed="$(k get pods -l strata.io/fabric-group=fab -o jsonpath='{range .items[*]}{.metadata.annotations.batch\.kubernetes\.io/job-completion-index}={.spec.nodeName} {end}')"
case "$placed" in *"0=kube-gpu-0"[12]*"1=kube-gpu-0"[12]*) ;; *) fail "pods not on the cordoned group nodes: $placed" ;; esac
[ "$(k get pods -l strata.io/fabric-group=fab -o jsonpath='{.items[*].spec.nodeName}' | tr ' ' '\n' | sort -u | wc -l)" = 2 ] ||
    fail "two pods on one node: $placed"
pass "tolerating the cordon, one pod per node of the group: $placed"
log0="$(k logs "$(k get pods -l strata.io/fabric-group=fab,batch.kubernetes.io/job-completion-index=0 -o name)")"
expect_contains "$log0" "host=fab-0 index=0" "index 0 ran for real with its hostname and index"
expect_contains "$log0" "resolved=fab-0.fab" "index 0's name resolves through the headless Service"
log1="$(k logs "$(k get pods -l strata.io/fabric-group=fab,batch.kubernetes.io/job-completion-index=1 -o name)")"
expect_contains "$log1" "host=fab-1 index=1" "index 1 ran for real"
expect_contains "$(k get pods -l strata.io/fabric-group=fab,batch.kubernetes.io/job-completion-index=1 -o jsonpath='{.items[0].status.containerStatuses[0].state.terminated.exitCode}')" \
    "3" "the process's exit status is the container's"

# Without the toleration the cordoned nodes take nothing: the pods wait, saying why.
job strict kube-gpu-01,kube-gpu-02 no | k create -f - >/dev/null
wait_for 10 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get pods -l strata.io/fabric-group=strict -o jsonpath='{.items[*].status.conditions[*].message}' | grep -q unschedulable" ||
    fail "untolerating pods should stay Pending on cordoned nodes: $(k get pods -l strata.io/fabric-group=strict -o yaml | grep -i message)"
pass "a pod that does not tolerate the cordon is not placed on a cordoned node"

k delete jobs,services --all --cascade=background >/dev/null
wait_for 10 sh -c "[ -z \"\$(kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get jobs,pods,services -o name)\" ]" ||
    fail "left after delete: $(k get jobs,pods,services -o name)"
pass "Jobs deleted with background propagation take their pods; Services go"
echo "all fabric probe checks passed"
