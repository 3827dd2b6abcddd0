#!/usr/bin/env bash
# strata queues (issue 31) on Kueue: a private kube stand-in started here from the tree (with
# Kueue: lab/kube_standin/examples/kueue-queues.yaml, 8 GPUs of each flavor), reached as a
# cluster behind a bastion is, through the lab's SSH login and the real kubectl's kubeconfig
# there. Two Jobs of 8 GPUs take the quota; a third and a JobSet of 16 GPUs (more than a flavor
# holds) wait. `strata queues --format json` says the quota and usage per flavor, the counts,
# the pending workloads in Kueue's order (its visibility API) with Kueue's reasons; the text
# form says whose order; the snapshot's jobs carry queue, position and reason. Then a Job is
# deleted: the next one is admitted and the JobSet moves up to position 0. ~15 s.
# shellcheck source=tests/kube/lib.sh
source "$(dirname "$0")/../kube/lib.sh"
: "${STRATA_LAB_DIR:?set by ctest (strata_add_script_test)}"
STRATA="$STRATA_BINARY_DIR/app/strata"
mapfile -t connect < "$STRATA_LAB_DIR/connect.args"
connect+=(--kubernetes --remote-env "KUBECONFIG=$work/kubeconfig")
PYTHON=python3; [ -x /usr/bin/python3 ] && PYTHON=/usr/bin/python3

start_standin
k apply -f "$repo/lab/kube_standin/examples/kueue-queues.yaml" >/dev/null
queued_job() {
    cat <<YAML
apiVersion: batch/v1
kind: Job
metadata:
  name: $1
  labels:
    kueue.x-k8s.io/queue-name: lab-queue
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: busybox:1.36
        command: ["sh", "-c", "sleep 600"]
        resources:
          limits: {nvidia.com/gpu: $2, cpu: "4", memory: 8Gi}
YAML
}
admitted_count() {
    k get workloads -o 'jsonpath={range .items[*]}{.status.conditions[?(@.type=="Admitted")].status}{"\n"}{end}' | grep -c True || true
}
for job in train-a train-b train-c; do
    queued_job "$job" 8 | k create -f - >/dev/null
    sleep 0.3 # distinct creation times: Kueue's FIFO order is theirs
done
k apply -f "$repo/lab/kube_standin/examples/jobset-kueue.yaml" >/dev/null
for _ in $(seq 100); do [ "$(admitted_count)" = 2 ] && break; sleep 0.1; done
[ "$(admitted_count)" = 2 ] || fail "two workloads admitted: $(k get workloads 2>&1)"
pass "Kueue admitted train-a and train-b; train-c and the JobSet wait"

"$STRATA" queues "${connect[@]}" --format json >"$work/queues.json" 2>"$work/queues.err" ||
    fail "strata queues: $(cat "$work/queues.err")"
check() { "$PYTHON" - "$@" || fail "$(cat "$work/queues.json")"; }
check "$work/queues.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "strata.queues/1", d["schema"]
cq = {q["id"]: q for q in d["queues"]}
lab = cq["lab-gpus"]
assert lab["kind"] == "ClusterQueue" and lab["active"], lab
flavors = {f["name"]: (f["gpuQuota"], f["gpusUsed"], f["gpusReserved"]) for f in lab["flavors"]}
assert flavors == {"p5-h100": (8, 8, 8), "p5en-h200": (8, 8, 8)}, flavors
assert (lab["gpuQuota"], lab["gpusUsed"], lab["admittedWorkloads"], lab["pendingWorkloads"]) == (16, 16, 2, 2), lab
assert lab["positionsFrom"] == "kueue", lab["positionsFrom"]
p = lab["pending"]
assert [(w["job"], w["position"], w["gpus"]) for w in p] == [
    ("default/train-c", 0, 8), ("default/JobSet/mixtral-finetune", 1, 16)], p
assert p[0]["reason"] == ("Kueue: couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu "
                          "in flavor p5-h100, 8 more needed, insufficient unused quota for nvidia.com/gpu in flavor "
                          "p5en-h200, 8 more needed"), p[0]["reason"]
assert "request > maximum capacity (16 > 8)" in p[1]["reason"], p[1]["reason"]
lq = cq["default/lab-queue"]
assert (lq["kind"], lq["clusterQueue"], lq["gpusUsed"]) == ("LocalQueue", "lab-gpus", 16), lq
PY
pass "strata queues --format json: quota 8+8 used 8+8, train-c next (0) and the JobSet (1) with Kueue's reasons"

text="$("$STRATA" queues "${connect[@]}" 2>/dev/null)"
expect_line() { grep -qE "$1" <<<"$text" || fail "no line /$1/ in: $text"; }
expect_line '^ClusterQueue lab-gpus +BestEffortFIFO +active$'
expect_line '^  p5-h100 +8 +- +- +8 +8 +0$'
expect_line "^  pending, in Kueue's order \(visibility API\):$"
expect_line "^    0 +default/train-c +Job +lab-queue +0 +8 +Kueue: couldn't assign flavors to pod set main"
pass "strata queues as text"

"$STRATA" snapshot "${connect[@]}" --format json >"$work/snapshot.json" 2>/dev/null || fail "strata snapshot"
check "$work/snapshot.json" <<'PY'
import json, sys
jobs = {j["id"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
c, js, a = jobs["default/train-c"], jobs["default/JobSet/mixtral-finetune"], jobs["default/train-a"]
assert (c["state"], c["queueName"], c["queuePosition"]) == ("PENDING", "lab-queue", 0), c
assert c["reason"].startswith("Kueue: couldn't assign flavors"), c["reason"]
assert (js["state"], js["queuePosition"], js["gpusRequested"]) == ("PENDING", 1, 16), js
assert (a["state"], a["queueName"], a["queuePosition"]) == ("RUNNING", "lab-queue", None), a
PY
pass "the snapshot's jobs: queue, position and Kueue's reason"

k delete job train-a --wait=false >/dev/null
for _ in $(seq 100); do
    "$STRATA" queues "${connect[@]}" --format json >"$work/queues.json" 2>/dev/null || true
    grep -q '"default/train-c"' "$work/queues.json" || break
    sleep 0.5
done
check "$work/queues.json" <<'PY'
import json, sys
lab = {q["id"]: q for q in json.load(open(sys.argv[1]))["queues"]}["lab-gpus"]
assert [(w["job"], w["position"]) for w in lab["pending"]] == [("default/JobSet/mixtral-finetune", 0)], lab["pending"]
PY
pass "train-a deleted: train-c admitted, the JobSet next"
