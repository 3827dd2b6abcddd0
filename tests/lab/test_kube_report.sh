#!/usr/bin/env bash
# strata report on Kubernetes (issue 32): finished workloads from kube-state-metrics in the lab's
# prometheus-kube (22.05 lab only). A batch Job of 2 pods x 1 GPU annotated
# strata.io/lab-gpu-util "40" runs ~4 scrape intervals and succeeds; `strata report --kubernetes
# --since 1h --format json --jobs` shows it as ONE workload ("NS/NAME") with its 2 GPUs, its
# GPU-hours equal to the pods' (finishedAt - startTime) x 1 GPU within 1 %, utilisation 40 +- 3 %
# measured on the pods' own series (basis exact), SUCCEEDED, account = namespace, no user (~20 s).
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
STRATA="$STRATA_BINARY_DIR/app/strata"
PROM="${STRATA_LAB_KUBE_PROMETHEUS_URL:?the lab has no Kubernetes Prometheus (22.05 lab only)}"
mapfile -t connect < "$STRATA_LAB_DIR/kube/connect.args"
work="$(mktemp -d)"
NS=lab-test-kreport
JOB="kreport-$$"
k() { kubectl --kubeconfig "$STRATA_LAB_DIR/kube/kubeconfig" --cache-dir "$work/kube-cache" "$@"; }
undo() {
    k delete job "$JOB" -n "$NS" --ignore-not-found --wait=false >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap undo EXIT

k create namespace "$NS" >/dev/null 2>&1 || true
cat <<YAML | k apply -f - >/dev/null
apiVersion: batch/v1
kind: Job
metadata: {name: $JOB, namespace: $NS}
spec:
  parallelism: 2
  completions: 2
  backoffLimit: 0
  template:
    metadata: {annotations: {strata.io/lab-gpu-util: "40"}}
    spec:
      restartPolicy: Never
      containers:
      - {name: trainer, image: busybox, command: ["sleep", "8"], resources: {limits: {nvidia.com/gpu: 1}}}
YAML
succeeded() { [ "$(k get job "$JOB" -n "$NS" -o jsonpath='{.status.succeeded}' 2>/dev/null)" = 2 ]; }
wait_until 40 "the Job's 2 pods succeed" succeeded
k get pods -n "$NS" -l "job-name=$JOB" -o json >"$work/pods.json"
pass "Job $NS/$JOB: 2 pods x 1 GPU succeeded"

# Both pods' completion times scraped (both KSM replicas: any one is enough, the reader asks max by).
completions() {
    curl -sS --fail --get "$PROM/api/v1/query" \
        --data-urlencode "query=count(max by (pod) (kube_pod_completion_time{namespace=\"$NS\",pod=~\"$JOB-.*\"}))" |
        "$PYTHON" -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)'
}
# A predicate, so that wait_until asks again on every try (a $(...) in its arguments runs once).
completions_are() { [ "$(completions)" = "$1" ]; }
wait_until 10 "both pods' kube_pod_completion_time in prometheus-kube" completions_are 2
# The last utilisation samples of the pods' GPUs land within a scrape interval of their end.
sleep 2

"$STRATA" report "${connect[@]}" --since 1h --format json --jobs >"$work/report.json" 2>"$work/report.err" ||
    fail "strata report: $(cat "$work/report.err")"
"$PYTHON" - "$work/pods.json" "$work/report.json" "$NS/$JOB" "$NS" <<'PY' || fail "the Job in strata report (above)"
import datetime, json, sys
pods, report, job_id, ns = json.load(open(sys.argv[1]))["items"], json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4]
ts = lambda s: datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc).timestamp()
want = sum(ts(p["status"]["containerStatuses"][0]["state"]["terminated"]["finishedAt"]) - ts(p["status"]["startTime"])
           for p in pods) / 3600
jobs = {j["id"]: j for j in report["jobs"]}
j = jobs.get(job_id)
if j is None:
    print(f"# no {job_id} among {sorted(jobs)}")
    sys.exit(1)
print(f"# {job_id}: {j['gpuHoursAllocated']:.6f} GPU-h (pods' spans {want:.6f}), util {j['utilMeanPercent']}, "
      f"basis {j['basis']}, state {j['state']}, gpus {j['gpus']}, account {j['account']!r}, user {j['user']!r}")
ok = abs(j["gpuHoursAllocated"] - want) <= 0.01 * want
ok &= j["utilMeanPercent"] is not None and abs(j["utilMeanPercent"] - 40) <= 3
ok &= j["basis"] == "exact" and j["state"] == "SUCCEEDED" and j["gpus"] == 2
ok &= j["account"] == ns and j["user"] == "" and j["ended"] is not None
# Kubernetes records no submitter: grouped by account (the namespace) unless --by says otherwise.
groups = {g["key"]: g for g in report["groups"]}
print(f"# grouped by {report['groupedBy']}: {sorted(groups)}")
ok &= report["groupedBy"] == "account" and ns in groups
sys.exit(0 if ok else 1)
PY
pass "strata report: $NS/$JOB with the pods' GPU-hours (within 1 %) at 40 +- 3 % (exact), SUCCEEDED"
echo "1..$CHECKS"
