#!/usr/bin/env bash
# The kube stand-in's kube-state-metrics stand-in (lab/kube_standin/state_metrics.py) renders a
# fixed set of objects exactly as KSM v2 renders them (internal/store/{pod,job,replicaset}.go):
# label names and order, HELP/TYPE lines with [STABLE], Go's number format, one phase series per
# phase, KSM's completion time of a pod whose sidecar ended, the Job's failure-reason series,
# owner-less `<none>` (pods) and empty (Jobs) values; and `promtool check metrics` passes it.
# No server, no lab (~1 s).
set -euo pipefail
repo="${STRATA_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
work="$(mktemp -d "${TMPDIR:-/tmp}/strata-ksm-render.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$work/objects.py" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import state_metrics
import store as sm
s = sm.Store(None)
def put(res, obj): s.objects[res][(obj["metadata"].get("namespace",""), obj["metadata"]["name"])] = obj
# A Job's pod (requests: cpu, memory, GPUs, an extended resource; a native "pods" KSM writes no
# series for), a second, non-controller owner.
put("pods", {"metadata": {"name": "p1", "namespace": "ml", "uid": "u1", "creationTimestamp": "2026-12-07T12:00:00Z",
    "ownerReferences": [{"kind": "Job", "name": "j", "controller": True}, {"kind": "Thing", "name": "t"}]},
    "spec": {"nodeName": "kube-gpu-01", "containers": [{"name": "main", "resources": {
        "requests": {"cpu": "500m", "memory": "1Gi"},
        "limits": {"nvidia.com/gpu": "2", "example.com/foo": "3", "pods": "1"}}}]},
    "status": {"phase": "Succeeded", "hostIP": "127.0.10.1", "podIP": "127.244.1.1", "startTime": "2026-12-07T12:00:01Z",
               "containerStatuses": [{"name": "main", "state": {"terminated": {"finishedAt": "2026-12-07T12:01:01Z"}}}]}})
# A bare pod still running whose sidecar has ended: KSM already gives it a completion time.
put("pods", {"metadata": {"name": "p2", "namespace": "ml", "uid": "u2", "creationTimestamp": "2026-12-07T12:00:00Z"},
    "spec": {"nodeName": "kube-gpu-02", "priorityClassName": "high", "hostNetwork": True,
             "containers": [{"name": "main", "resources": {"limits": {"nvidia.com/gpu": 1}}}, {"name": "sidecar"}]},
    "status": {"phase": "Running", "startTime": "2026-12-07T12:00:02Z",
               "containerStatuses": [{"name": "main", "state": {"running": {}}},
                                     {"name": "sidecar", "state": {"terminated": {"finishedAt": "2026-12-07T12:00:30Z"}}}]}})
# A pod with no phase, node or times yet: info and owner only.
put("pods", {"metadata": {"name": "p3", "namespace": "ml", "uid": "u3"}, "spec": {"containers": [{"name": "c"}]}, "status": {}})
put("jobs", {"metadata": {"name": "j", "namespace": "ml", "creationTimestamp": "2026-12-07T11:59:59Z"},
    "status": {"failed": 1, "succeeded": 1, "startTime": "2026-12-07T12:00:00Z",
               "conditions": [{"type": "Failed", "reason": "BackoffLimitExceeded"}]}})
put("replicasets", {"metadata": {"name": "d-5f7c", "namespace": "ml",
                                 "ownerReferences": [{"kind": "Deployment", "name": "d", "controller": True}]}})
sys.stdout.write(state_metrics.render(s).decode())
PY
python3 "$work/objects.py" "$repo/lab/kube_standin" >"$work/got.prom"

cat >"$work/expected.prom" <<'PROM'
# HELP kube_pod_completion_time [STABLE] Completion time in unix timestamp for a pod.
# TYPE kube_pod_completion_time gauge
kube_pod_completion_time{namespace="ml",pod="p1",uid="u1"} 1.796644861e+09
kube_pod_completion_time{namespace="ml",pod="p2",uid="u2"} 1.79664483e+09
# HELP kube_pod_container_resource_requests [STABLE] The number of requested request resource by a container. It is recommended to use the `kube_pod_resource_request` metric exposed by kube-scheduler instead, as it is more precise.
# TYPE kube_pod_container_resource_requests gauge
kube_pod_container_resource_requests{namespace="ml",pod="p1",uid="u1",container="main",node="kube-gpu-01",resource="cpu",unit="core"} 0.5
kube_pod_container_resource_requests{namespace="ml",pod="p1",uid="u1",container="main",node="kube-gpu-01",resource="example_com_foo",unit="integer"} 3
kube_pod_container_resource_requests{namespace="ml",pod="p1",uid="u1",container="main",node="kube-gpu-01",resource="memory",unit="byte"} 1.073741824e+09
kube_pod_container_resource_requests{namespace="ml",pod="p1",uid="u1",container="main",node="kube-gpu-01",resource="nvidia_com_gpu",unit="integer"} 2
kube_pod_container_resource_requests{namespace="ml",pod="p2",uid="u2",container="main",node="kube-gpu-02",resource="nvidia_com_gpu",unit="integer"} 1
# HELP kube_pod_created [STABLE] Unix creation timestamp
# TYPE kube_pod_created gauge
kube_pod_created{namespace="ml",pod="p1",uid="u1"} 1.7966448e+09
kube_pod_created{namespace="ml",pod="p2",uid="u2"} 1.7966448e+09
# HELP kube_pod_info [STABLE] Information about pod.
# TYPE kube_pod_info gauge
kube_pod_info{namespace="ml",pod="p1",uid="u1",host_ip="127.0.10.1",pod_ip="127.244.1.1",node="kube-gpu-01",created_by_kind="Job",created_by_name="j",priority_class="",host_network="false"} 1
kube_pod_info{namespace="ml",pod="p2",uid="u2",host_ip="",pod_ip="",node="kube-gpu-02",created_by_kind="<none>",created_by_name="<none>",priority_class="high",host_network="true"} 1
kube_pod_info{namespace="ml",pod="p3",uid="u3",host_ip="",pod_ip="",node="",created_by_kind="<none>",created_by_name="<none>",priority_class="",host_network="false"} 1
# HELP kube_pod_owner [STABLE] Information about the Pod's owner.
# TYPE kube_pod_owner gauge
kube_pod_owner{namespace="ml",pod="p1",uid="u1",owner_kind="Job",owner_name="j",owner_is_controller="true"} 1
kube_pod_owner{namespace="ml",pod="p1",uid="u1",owner_kind="Thing",owner_name="t",owner_is_controller="false"} 1
kube_pod_owner{namespace="ml",pod="p2",uid="u2",owner_kind="<none>",owner_name="<none>",owner_is_controller="<none>"} 1
kube_pod_owner{namespace="ml",pod="p3",uid="u3",owner_kind="<none>",owner_name="<none>",owner_is_controller="<none>"} 1
# HELP kube_pod_start_time [STABLE] Start time in unix timestamp for a pod.
# TYPE kube_pod_start_time gauge
kube_pod_start_time{namespace="ml",pod="p1",uid="u1"} 1.796644801e+09
kube_pod_start_time{namespace="ml",pod="p2",uid="u2"} 1.796644802e+09
# HELP kube_pod_status_phase [STABLE] The pods current phase.
# TYPE kube_pod_status_phase gauge
kube_pod_status_phase{namespace="ml",pod="p1",uid="u1",phase="Pending"} 0
kube_pod_status_phase{namespace="ml",pod="p1",uid="u1",phase="Succeeded"} 1
kube_pod_status_phase{namespace="ml",pod="p1",uid="u1",phase="Failed"} 0
kube_pod_status_phase{namespace="ml",pod="p1",uid="u1",phase="Unknown"} 0
kube_pod_status_phase{namespace="ml",pod="p1",uid="u1",phase="Running"} 0
kube_pod_status_phase{namespace="ml",pod="p2",uid="u2",phase="Pending"} 0
kube_pod_status_phase{namespace="ml",pod="p2",uid="u2",phase="Succeeded"} 0
kube_pod_status_phase{namespace="ml",pod="p2",uid="u2",phase="Failed"} 0
kube_pod_status_phase{namespace="ml",pod="p2",uid="u2",phase="Unknown"} 0
kube_pod_status_phase{namespace="ml",pod="p2",uid="u2",phase="Running"} 1
# HELP kube_job_info [STABLE] Information about job.
# TYPE kube_job_info gauge
kube_job_info{namespace="ml",job_name="j"} 1
# HELP kube_job_created [STABLE] Unix creation timestamp
# TYPE kube_job_created gauge
kube_job_created{namespace="ml",job_name="j"} 1.796644799e+09
# HELP kube_job_status_succeeded [STABLE] The number of pods which reached Phase Succeeded.
# TYPE kube_job_status_succeeded gauge
kube_job_status_succeeded{namespace="ml",job_name="j"} 1
# HELP kube_job_status_failed [STABLE] The number of pods which reached Phase Failed and the reason for failure.
# TYPE kube_job_status_failed gauge
kube_job_status_failed{namespace="ml",job_name="j",reason="BackoffLimitExceeded"} 1
kube_job_status_failed{namespace="ml",job_name="j",reason="DeadlineExceeded"} 0
kube_job_status_failed{namespace="ml",job_name="j",reason="Evicted"} 0
# HELP kube_job_status_active [STABLE] The number of actively running pods.
# TYPE kube_job_status_active gauge
kube_job_status_active{namespace="ml",job_name="j"} 0
# HELP kube_job_status_start_time [STABLE] StartTime represents time when the job was acknowledged by the Job Manager.
# TYPE kube_job_status_start_time gauge
kube_job_status_start_time{namespace="ml",job_name="j"} 1.7966448e+09
# HELP kube_job_status_completion_time [STABLE] CompletionTime represents time when the job was completed.
# TYPE kube_job_status_completion_time gauge
# HELP kube_job_owner [STABLE] Information about the Job's owner.
# TYPE kube_job_owner gauge
kube_job_owner{namespace="ml",job_name="j",owner_kind="",owner_name="",owner_is_controller=""} 1
# HELP kube_replicaset_created [STABLE] Unix creation timestamp
# TYPE kube_replicaset_created gauge
# HELP kube_replicaset_owner [STABLE] Information about the ReplicaSet's owner.
# TYPE kube_replicaset_owner gauge
kube_replicaset_owner{namespace="ml",replicaset="d-5f7c",owner_kind="Deployment",owner_name="d",owner_is_controller="true"} 1
PROM
diff -u "$work/expected.prom" "$work/got.prom" || fail "the rendering differs from KSM's (above)"
echo "ok 1 - rendered as KSM renders the same objects"
promtool check metrics <"$work/got.prom" || fail "promtool check metrics"
echo "ok 2 - promtool check metrics"
echo "1..2"
