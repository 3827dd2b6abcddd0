#!/usr/bin/env bash
# Stragglers (issue 27): a job over two nodes, submitted as a batch script, whose second node's
# GPUs work at 30 % (the DCGM stand-in's 'slow' fault lowers their utilisation, GR engine, tensor
# pipes and power, as GPUs waiting on a slow link or throttling would) becomes a job-straggler
# finding in `strata snapshot` naming that node and the job, with both nodes' figures, once the
# usage history holds three lagging steps (its step is at least 60 s: 125 s measured); the
# node working at full speed is never named. Meanwhile one of gpu-node02's GPUs retries on NVLink
# (the stand-in's nvlink-errors fault: its replay counter rises 5 a second), which becomes a
# job-link-errors finding naming gpu-node02, the job and the GPU. The real Prometheus and DCGM
# stand-in of the lab it runs on (24.11 when that lab is enabled; CMake ANY_SLURM).
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
STRATA="$STRATA_BINARY_DIR/app/strata"
mapfile -t connect < "$STRATA_LAB_DIR/connect.args"
work="$(mktemp -d)"
cleanup() {
    clear_faults >/dev/null 2>&1 || true
    cleanup_jobs
    rm -rf "$work"
}
trap cleanup EXIT

cat > "$work/pretrain.sbatch" <<'SBATCH'
#!/bin/bash
#SBATCH --job-name=straggler-pretrain
#SBATCH --nodes=2
#SBATCH --gres=gpu:2
#SBATCH --output=/dev/null
srun --ntasks-per-node=1 sleep 900
SBATCH
# On stdin: the 24.11 lab's sbatch runs in its chroot, where this host's /tmp is not.
job="$(sbatch --parsable -p train -w gpu-node02,gpu-node03 <"$work/pretrain.sbatch")"
TEST_JOBS+=("$job")
wait_until 60 "job $job running" job_is "$job" RUNNING
pass "two-node job $job running on gpu-node02 and gpu-node03"
for gpu in 0 1 2 3 4 5 6 7; do
    "$LAB" fault --dir "$STRATA_LAB_DIR" gpu-node03 "$gpu" slow 30 >/dev/null
done
pass "gpu-node03's GPUs work at 30 % (only the held ones slow down)"
# And one of gpu-node02's NVLinks retries (the stand-in's replay counter rises 5 a second): a
# job-link-errors finding on gpu-node02, found in the same wait.
"$LAB" fault --dir "$STRATA_LAB_DIR" gpu-node02 1 nvlink-errors 5 >/dev/null
pass "gpu-node02's GPU 1 retries on NVLink"

# check PYTHON_EXPRESSION over `st`, the snapshot's job-straggler findings (s: the snapshot).
check() {
    "$STRATA" snapshot --format json "${connect[@]}" > "$work/snapshot.json" 2>"$work/snapshot.err" || return 1
    "$PYTHON" - "$1" "$work/snapshot.json" "$job" <<'PY'
import json, sys
s = json.load(open(sys.argv[2])); job = sys.argv[3]
st = [f for f in s["findings"] if f["code"] == "job-straggler"]
le = [f for f in s["findings"] if f["code"] == "job-link-errors"]
sys.exit(0 if eval(sys.argv[1]) else 1)
PY
}
start=$SECONDS
until check 'len(st) > 0'; do
    [ $((SECONDS - start)) -lt 330 ] || fail "no job-straggler finding after 330 s: $(cat "$work/snapshot.err") $(grep -o '"code": "[^"]*"' "$work/snapshot.json" | sort | uniq -c)"
    sleep 10
done
echo "# the finding came $((SECONDS - start)) s after the fault"
check 'len(st) == 1 and st[0]["node"] == "gpu-node03" and st[0]["jobs"] == [job] and st[0]["severity"] == "warning"' ||
    fail "expected one finding on gpu-node03 naming job $job: $("$PYTHON" -c 'import json,sys; print([f for f in json.load(open(sys.argv[1]))["findings"] if f["code"] == "job-straggler"])' "$work/snapshot.json")"
check '"averaged 30 %" in st[0]["message"] and "other node averaged" in st[0]["message"] and f"job {job} (straggler-pretrain)" in st[0]["message"]' ||
    fail "the evidence: $("$PYTHON" -c 'import json,sys; print([f["message"] for f in json.load(open(sys.argv[1]))["findings"] if f["code"] == "job-straggler"])' "$work/snapshot.json")"
pass "job-straggler on gpu-node03 naming job $job, 30 % against the other node's figure"
"$STRATA" snapshot "${connect[@]}" | grep -q "job-straggler.*gpu-node03" ||
    fail "text output does not list the finding: $("$STRATA" snapshot "${connect[@]}" | grep -i straggler)"
pass "the text output lists it"

until check 'len(le) > 0'; do
    [ $((SECONDS - start)) -lt 400 ] || fail "no job-link-errors finding after 400 s: $(grep -o '"code": "[^"]*"' "$work/snapshot.json" | sort | uniq -c)"
    sleep 10
done
check 'len(le) == 1 and le[0]["node"] == "gpu-node02" and le[0]["jobs"] == [job] and le[0]["severity"] == "warning" and "NVLink replays on gpu-node02 rose by" in le[0]["message"] and "GPU 1 +" in le[0]["message"]' ||
    fail "expected one job-link-errors finding on gpu-node02 naming job $job and GPU 1: $("$PYTHON" -c 'import json,sys; print([f for f in json.load(open(sys.argv[1]))["findings"] if f["code"] == "job-link-errors"])' "$work/snapshot.json")"
pass "job-link-errors on gpu-node02 naming job $job: NVLink replays on GPU 1"
echo "all $CHECKS checks passed"
