#!/usr/bin/env bash
# The lab's accounting: finished jobs (completed, failed, cancelled) appear in the real sacct with
# their GPUs (AllocTRES gres/gpu), exit codes, account and comment; and a job that asks its GPUs
# for a known utilisation (--comment=strata-lab-gpu-util=N) shows it in the DCGM stand-in.
source "$(dirname "$0")/lib.sh"

[ "${STRATA_LAB_ACCOUNTING:-}" = slurmdbd ] || fail "lab.env says accounting '${STRATA_LAB_ACCOUNTING:-}', not slurmdbd"
config="$(scontrol show config)"
grep -qE '^AccountingStorageType += accounting_storage/slurmdbd$' <<<"$config" ||
    fail "slurmctld does not store accounting in slurmdbd: $(grep AccountingStorageType <<<"$config")"
grep -qE '^AccountingStorageTRES += .*gres/gpu' <<<"$config" || fail "no gres/gpu in AccountingStorageTRES"
pass "slurmctld: accounting_storage/slurmdbd, gres/gpu TRES"

out_dir="$(mktemp -d "$STRATA_LAB_DIR/test-accounting.XXXXXX")"
trap 'cleanup_jobs; rm -rf "$out_dir"' EXIT
submit() { sbatch --parsable -o "$out_dir/%j.out" "$@"; }
ok="$(submit -J acct-ok --gres=gpu:2 -w gpu-node01 -A inference --wrap 'true')"
bad="$(submit -J acct-exit-3 --gres=gpu:1 --wrap 'exit 3')"
held="$(submit -J acct-util-30 --gres=gpu:1 -w gpu-node01 --comment=strata-lab-gpu-util=30 --wrap 'sleep 120')"
TEST_JOBS+=("$ok" "$bad" "$held")

# The DCGM stand-in (2 s poll) gives job $held's GPU 30 +-2 %; gpu-node01's exporter is classic.
wait_until 15 "job $held running" job_is "$held" RUNNING
idx="$(scontrol show job -d -o "$held" | grep -o 'IDX:[0-9]*' | head -n 1)"
idx="${idx#IDX:}"
[ -n "$idx" ] || fail "job $held shows no GPU index"
dcgm_util() {
    curl -sf --max-time 2 "http://127.0.0.1:${STRATA_LAB_DCGM_PORTS%-*}/metrics" |
        awk -v g="gpu=\"$idx\"" '/^DCGM_FI_DEV_GPU_UTIL\{/ && index($0, g) {print $NF}'
}
util_near_30() { local u; u="$(dcgm_util)"; [ -n "$u" ] && [ "$u" -ge 28 ] && [ "$u" -le 32 ]; }
wait_until 15 "gpu-node01 GPU $idx at 30 +-2 % (now '$(dcgm_util)')" util_near_30
pass "a job asking strata-lab-gpu-util=30: its GPU $idx on gpu-node01 shows $(dcgm_util) %"
scancel "$held"

# sacct: one line per job (-X), parsable, this test's jobs only. A job that ends within a second or
# two may first show as a row named "allocation" without a partition (its end reached slurmdbd before
# its start): wait for the whole row.
fields=JobID,JobName,Account,Partition,State,ExitCode,AllocTRES,NodeList,Comment,End
row() { sacct -X -n -P -j "$1" -o "$fields" 2>/dev/null; }
# shellcheck disable=SC2053  # $2 is a pattern
row_is() { [[ "$(row "$1")" == $2 ]]; }
expect_row() { wait_until 30 "job $1 in sacct as '$2' (now '$(row "$1")')" row_is "$1" "$2"; }
expect_row "$ok" "$ok|acct-ok|inference|train|COMPLETED|0:0|*gres/gpu:h100=2*gres/gpu=2*|gpu-node01||20??-*"
expect_row "$bad" "$bad|acct-exit-3|ml-research|train|FAILED|3:0|*gres/gpu=1*|gpu-node0?||20??-*"
expect_row "$held" "$held|acct-util-30|ml-research|train|CANCELLED by $(id -u)|0:*|*gres/gpu=1*|gpu-node01|strata-lab-gpu-util=30|20??-*"
pass "sacct: completed (2 GPUs, account inference), failed (exit 3) and cancelled jobs, comment kept"
echo "all $CHECKS checks passed"
