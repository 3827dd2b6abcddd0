#!/usr/bin/env bash
# Captures the answers in this directory from a REAL lab: the 22.05 lab's Kubernetes Prometheus
# (prometheus-kube, a real Prometheus) scraping the kube stand-in's kube-state-metrics stand-in
# (two HA replicas) and the DCGM stand-in, after real workloads ran in the kube stand-in.
#   capture.sh LAB_DIR    (the lab up: lab/lab up --dir LAB_DIR; takes ~5 min)
# Workloads (namespace ml-team unless said), in this order:
#   flaky-train   Job, 1 pod x 1 GPU (util 55), backoffLimit 2: its first pod is failed by a
#                 restart of the kube stand-in (a kubelet lost under it: exit 137), the retry
#                 pod succeeds (sleep 60);
#   infer         Deployment, 1 replica x 1 GPU (util 70), runs until the end: its first pod is
#                 failed by the same restart, the ReplicaSet's replacement is deleted by a
#                 rollout restart (no completion time: KSM never saw it end), a third runs;
#   train-pair    Job, 2 pods x 1 GPU (util 40), sleep 60, succeeds;
#   solo-probe    bare pod (namespace research), 2 GPUs (util 20), sleep 45, succeeds;
#   long-run      Job, 1 pod x 1 GPU (util 90), still running at the period's end;
#   cpu-only      Job, no GPU (left out by Strata), sleep 5.
set -euo pipefail
D="$(cd "${1:?usage: capture.sh LAB_DIR}" && pwd)"
out="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$out/../../../.." && pwd)"
# shellcheck disable=SC1091
. "$D/lab.env"
prom="$STRATA_LAB_KUBE_PROMETHEUS_URL"
k() { kubectl --kubeconfig "$STRATA_LAB_KUBECONFIG" "$@"; }
gpu_job() { # NAME NAMESPACE PODS SECONDS UTIL [BACKOFF]
    cat <<YAML
apiVersion: batch/v1
kind: Job
metadata: {name: $1, namespace: $2}
spec:
  completions: $3
  parallelism: $3
  backoffLimit: ${6:-0}
  template:
    metadata: {annotations: {strata.io/lab-gpu-util: "$5"}}
    spec:
      restartPolicy: Never
      containers:
      - name: trainer
        image: nvcr.io/nvidia/pytorch:24.08-py3
        command: ["sleep", "$4"]
        resources: {limits: {nvidia.com/gpu: 1, cpu: "4", memory: 32Gi}}
YAML
}
wait_phase() { # NAMESPACE SELECTOR... until no pod of it is Pending/Running
    local _
    for _ in $(seq 300); do
        if ! k get pods -n "$1" "${@:2}" -o jsonpath='{range .items[*]}{.status.phase}{"\n"}{end}' |
            grep -qE 'Pending|Running'; then return 0; fi
        sleep 1
    done
    echo "capture.sh: pods $* still running after 300 s" >&2; return 1
}

k create namespace ml-team >/dev/null 2>&1 || true
k create namespace research >/dev/null 2>&1 || true
start=$(( $(date +%s) - 1 ))
sleep 3
gpu_job flaky-train ml-team 1 60 55 2 | k apply -f -
cat <<YAML | k apply -f -
apiVersion: apps/v1
kind: Deployment
metadata: {name: infer, namespace: ml-team}
spec:
  replicas: 1
  selector: {matchLabels: {app: infer}}
  template:
    metadata: {labels: {app: infer}, annotations: {strata.io/lab-gpu-util: "70"}}
    spec:
      containers:
      - name: server
        image: vllm/vllm-openai:v0.6.3
        command: ["sleep", "infinity"]
        resources: {limits: {nvidia.com/gpu: 1}}
YAML
sleep 25
# A kubelet lost under running pods: the stand-in restarted fails them (exit 137).
"$repo/lab/lab" stop kube --dir "$D" >/dev/null
"$repo/lab/lab" start kube --dir "$D" >/dev/null
sleep 3
gpu_job train-pair ml-team 2 60 40 | k apply -f -
gpu_job long-run ml-team 1 infinity 90 | k apply -f -
cat <<YAML | k apply -f -
apiVersion: v1
kind: Pod
metadata: {name: solo-probe, namespace: research, annotations: {strata.io/lab-gpu-util: "20"}}
spec:
  restartPolicy: Never
  containers:
  - name: probe
    image: nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04
    command: ["sleep", "45"]
    resources: {limits: {nvidia.com/gpu: 2}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: cpu-only, namespace: ml-team}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - {name: main, image: busybox, command: ["sleep", "5"], resources: {requests: {cpu: 500m}}}
YAML
sleep 2
k rollout restart deployment/infer -n ml-team
wait_phase ml-team -l job-name=train-pair
wait_phase ml-team -l job-name=flaky-train
wait_phase research
# The period ends well after the rollout's deleted pod (its `seen` more than 2 steps before the end).
sleep 130
end=$(date +%s)
R=$((end - start)) S=60
q() { # FILE QUERY: an instant query at the period's end
    curl -sS --fail --get "$prom/api/v1/query" --data-urlencode "query=$2" --data "time=$end" >"$out/$1"
}
q gpus.json "max by (namespace, pod, container, node) (max_over_time(kube_pod_container_resource_requests{resource=\"nvidia_com_gpu\"}[${R}s]))"
q start.json "max by (namespace, pod) (max_over_time(kube_pod_start_time[${R}s]))"
q end.json "max by (namespace, pod) (max_over_time(kube_pod_completion_time[${R}s]))"
q seen.json "max by (namespace, pod) (max_over_time(timestamp(kube_pod_container_resource_requests{resource=\"nvidia_com_gpu\"})[${R}s:${S}s]))"
q phase.json "max by (namespace, pod, phase) (last_over_time(kube_pod_status_phase[${R}s])) == 1"
q owner.json "max by (namespace, pod, owner_kind, owner_name) (max_over_time(kube_pod_owner{owner_is_controller=\"true\"}[${R}s]))"
q rsowner.json "max by (namespace, replicaset, owner_kind, owner_name) (max_over_time(kube_replicaset_owner[${R}s]))"
q jobowner.json "max by (namespace, job_name, owner_kind, owner_name) (max_over_time(kube_job_owner[${R}s]))"
# Without max by: every series twice (the two KSM replicas), as a reader that forgot it would see.
q gpus_raw.json "kube_pod_container_resource_requests{resource=\"nvidia_com_gpu\"}"
r() { # FILE QUERY: a range query over the period, at the step
    curl -sS --fail --get "$prom/api/v1/query_range" --data-urlencode "query=$2" \
        --data "start=$((start + S))" --data "end=$end" --data "step=$S" >"$out/$1"
}
r dcgm_util_range.json 'DCGM_FI_DEV_GPU_UTIL'
# As HistoryQueryPlan::promql asks it (host labels unset, 60-s step).
r dcgm_util_history.json "max by (Hostname, hostname, node, kubernetes_node, instance, gpu, hpc_job, pod, namespace, exported_pod, exported_namespace) (avg_over_time(DCGM_FI_DEV_GPU_UTIL{GPU_I_ID=\"\"}[${S}s]))"
# What the stand-in says happened (for expected values): pod, node, phase, start, end.
k get pods -A -o jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name} {.spec.nodeName} {.status.phase} {.status.startTime} {.status.containerStatuses[0].state.terminated.finishedAt}{"\n"}{end}' \
    >"$out/pods.txt"
printf '{"start": %d, "end": %d, "rangeSeconds": %d, "stepSeconds": %d}\n' "$start" "$end" "$R" "$S" >"$out/period.json"
# What still runs is removed, so the lab's other tests find the kube nodes free (finished pods stay).
k delete deployment infer -n ml-team --wait=false >/dev/null
k delete job long-run cpu-only -n ml-team --wait=false >/dev/null
echo "captured: period $start..$end (R=${R}s, S=${S}s) into $out"
