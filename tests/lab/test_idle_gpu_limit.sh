#!/usr/bin/env bash
# Idle-GPU limit (issue 32): a job whose GPU shows 0 % (the DCGM stand-in honours the job's
# --comment=strata-lab-gpu-util=N) becomes an idle-gpu-limit finding in `strata snapshot`
# with the profile's --idle-gpu-limit=train:1m, naming the job and its owner and offering
# `strata cancel JOB`; a limit set for another partition only says nothing; once the job's GPU
# works (its comment raised to 90 %) the finding clears; Strata never cancels the job itself.
# The real Prometheus and DCGM stand-in of the lab it runs on (24.11 when enabled; ANY_SLURM).
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
STRATA="$STRATA_BINARY_DIR/app/strata"
mapfile -t connect < "$STRATA_LAB_DIR/connect.args"
work="$(mktemp -d)"
cleanup() {
    cleanup_jobs
    rm -rf "$work"
}
trap cleanup EXIT

job="$(sbatch --parsable -p train -w gpu-node01 --gres=gpu:1 --job-name=idle-holder \
    --comment=strata-lab-gpu-util=0 --output=/dev/null --wrap='sleep 600')"
TEST_JOBS+=("$job")
wait_until 60 "job $job running" job_is "$job" RUNNING
pass "job $job holds one GPU of gpu-node01 and shows 0 %"

# check PYTHON_EXPRESSION LIMITS over `idle`, the snapshot's idle-gpu-limit findings.
check() {
    "$STRATA" snapshot --format json "${connect[@]}" --idle-gpu-limit="$2" > "$work/snapshot.json" 2>"$work/snapshot.err" || return 1
    "$PYTHON" - "$1" "$work/snapshot.json" "$job" <<'PY'
import json, sys
s = json.load(open(sys.argv[2])); job = sys.argv[3]
idle = [f for f in s["findings"] if f["code"] == "idle-gpu-limit"]
sys.exit(0 if eval(sys.argv[1]) else 1)
PY
}
start=$SECONDS
until check 'len(idle) > 0' 'train:1m'; do
    [ $((SECONDS - start)) -lt 200 ] || fail "no idle-gpu-limit finding after 200 s: $(cat "$work/snapshot.err") $(grep -o '"code": "[^"]*"' "$work/snapshot.json" | sort | uniq -c)"
    sleep 5
done
echo "# the finding came $((SECONDS - start)) s after the job started"
check 'len(idle) == 1 and idle[0]["jobs"] == [job] and idle[0]["severity"] == "warning" and idle[0]["node"] == "gpu-node01"' 'train:1m' ||
    fail "expected one finding naming job $job: $("$PYTHON" -c 'import json,sys; print([f for f in json.load(open(sys.argv[1]))["findings"] if f["code"] == "idle-gpu-limit"])' "$work/snapshot.json")"
# shellcheck disable=SC2016  # Python, not shell: the backticks are the message's
check 'f"job {job} (" in idle[0]["message"] and "partition train) has held 1 GPU idle for" in idle[0]["message"] and f"`strata cancel {job}`" in idle[0]["message"]' 'train:1m' ||
    fail "the message: $("$PYTHON" -c 'import json,sys; print([f["message"] for f in json.load(open(sys.argv[1]))["findings"] if f["code"] == "idle-gpu-limit"])' "$work/snapshot.json")"
pass "idle-gpu-limit names job $job, its owner, how long, and offers strata cancel"
check 'len(idle) == 0' 'inference:1m' || fail "a limit for another partition fired"
pass "a limit for partition inference only: no finding"
job_is "$job" RUNNING || fail "job $job is no longer running: Strata must never cancel it"
pass "the job still runs: offered, not taken"

scontrol update JobId="$job" Comment=strata-lab-gpu-util=90
start=$SECONDS
until check 'len(idle) == 0' 'train:1m'; do
    [ $((SECONDS - start)) -lt 120 ] || fail "the finding stayed $((SECONDS - start)) s after the GPU went to 90 %"
    sleep 5
done
echo "# cleared $((SECONDS - start)) s after the GPU went to 90 %"
pass "the finding clears once the GPU works"
echo "all $CHECKS checks passed"
