#!/usr/bin/env bash
# The kube-state-metrics stand-in and the kube GPUs' holders (issue 32, Kubernetes history), on the
# lab's Kubernetes cluster (22.05 lab only):
#  1. the stand-in's /metrics passes `promtool check metrics` and says KSM's stable families so;
#  2. a 1-pod x 1-GPU Job annotated strata.io/lab-gpu-util "40" runs ~10 s and succeeds: its GPU
#     showed 40 +- 3 % in the DCGM stand-in under the pod's own labels (exported_pod behind the
#     ServiceMonitor) while it ran, and no longer once it ended;
#  3. prometheus-kube (both KSM replicas) has its kube_pod_completion_time = the container's
#     finishedAt, its start time = status.startTime, phase Succeeded.
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
KSM="${STRATA_LAB_KUBE_STATE_METRICS_URL:-http://127.0.0.1:18080}"
PROM="${STRATA_LAB_KUBE_PROMETHEUS_URL:?the lab has no Kubernetes Prometheus (22.05 lab only)}"
work="$(mktemp -d)"
NS=lab-test-ksm
JOB="ksm-probe-$$"
k() { kubectl --kubeconfig "$STRATA_LAB_DIR/kube/kubeconfig" --cache-dir "$work/kube-cache" "$@"; }
undo() {
    k delete job "$JOB" -n "$NS" --ignore-not-found --wait=false >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap undo EXIT

# instant QUERY [TIME] -> "value" of each series, one a line
instant() {
    curl -sS --fail --get "$PROM/api/v1/query" --data-urlencode "query=$1" ${2:+--data "time=$2"} |
        "$PYTHON" -c 'import json, sys; [print(r["value"][1]) for r in json.load(sys.stdin)["data"]["result"]]'
}

# 1. promtool-clean, KSM's headers.
curl -sS --fail "$KSM/metrics" >"$work/metrics.txt"
promtool check metrics <"$work/metrics.txt" || fail "promtool check metrics: $(promtool check metrics <"$work/metrics.txt" 2>&1)"
pass "the kube-state-metrics stand-in's /metrics is promtool-clean"
grep -qx '# HELP kube_pod_completion_time \[STABLE\] Completion time in unix timestamp for a pod.' "$work/metrics.txt" ||
    fail "no KSM header for kube_pod_completion_time"
grep -qx '# TYPE kube_pod_container_resource_requests gauge' "$work/metrics.txt" || fail "no TYPE line for requests"
pass "KSM's HELP/TYPE lines"

# 2. A GPU Job asking 40 %.
k create namespace "$NS" >/dev/null 2>&1 || true
cat <<YAML | k apply -f - >/dev/null
apiVersion: batch/v1
kind: Job
metadata: {name: $JOB, namespace: $NS}
spec:
  backoffLimit: 0
  template:
    metadata: {annotations: {strata.io/lab-gpu-util: "40"}}
    spec:
      restartPolicy: Never
      containers:
      - {name: trainer, image: busybox, command: ["sleep", "10"], resources: {limits: {nvidia.com/gpu: 1}}}
YAML
pod_field() { k get pods -n "$NS" -l "job-name=$JOB" -o jsonpath="{.items[0].$1}" 2>/dev/null; }
# Predicates for wait_until: they ask again on every call.
phase_is() { [ "$(pod_field status.phase)" = "$1" ]; }
query_has() { [ -n "$(instant "$1")" ]; }
query_empty() { [ -z "$(instant "$1")" ]; }
query_is() { [ "$(instant "$1")" = "$2" ]; }
wait_until 20 "the Job's pod runs" phase_is Running
POD="$(pod_field metadata.name)"
DCGM_UTIL="max(DCGM_FI_DEV_GPU_UTIL{exported_namespace=\"$NS\",exported_pod=\"$POD\",exported_container=\"trainer\"})"
wait_until 10 "the pod's GPU in prometheus-kube" query_has "$DCGM_UTIL"
util="$(instant "$DCGM_UTIL")"
if [ "$util" -lt 37 ] || [ "$util" -gt 43 ]; then fail "the pod's GPU shows $util %, asked 40 +- 3"; fi
pass "the pod's GPU at $util % under its own labels (asked 40)"
wait_until 30 "the Job's pod succeeds" phase_is Succeeded
finished="$(date -d "$(pod_field 'status.containerStatuses[0].state.terminated.finishedAt')" +%s)"
started="$(date -d "$(pod_field status.startTime)" +%s)"

# 3. What prometheus-kube holds of it (both replicas scraped: max by, as Strata's reader asks).
sel="namespace=\"$NS\",pod=\"$POD\""
# Both replicas' scrapes (each its own offset in the 2-s interval): one series per replica.
wait_until 10 "kube_pod_completion_time scraped from both KSM replicas" \
    query_is "count(kube_pod_completion_time{$sel})" 2
got="$(instant "max(kube_pod_completion_time{$sel})")"
[ "$got" = "$finished" ] || fail "kube_pod_completion_time $got, the container finished at $finished"
[ "$(instant "max(kube_pod_start_time{$sel})")" = "$started" ] || fail "kube_pod_start_time is not status.startTime $started"
[ "$(instant "max(kube_pod_status_phase{$sel,phase=\"Succeeded\"})")" = 1 ] || fail "phase Succeeded is not 1"
[ "$(instant "max(kube_pod_container_resource_requests{$sel,resource=\"nvidia_com_gpu\",unit=\"integer\"})")" = 1 ] ||
    fail "no 1-GPU request"
pass "prometheus-kube: completion $got (= finishedAt), start $started, Succeeded, 1 GPU ($((got - started)) s)"
wait_until 10 "the GPU released" query_empty "$DCGM_UTIL"
pass "the GPU no longer carries the pod once it ended"
echo "1..$CHECKS"
