#!/usr/bin/env bash
# Captures REAL sacct output of one Slurm release from the lab's accounting (slurmdbd + MariaDB)
# into tests/data/slurm/VERSION/, for SacctParser (core/slurm/sacct_parser.*):
#   tests/data/slurm/capture_sacct.sh VERSION LAB_DIR [BUILD_DIR]      VERSION: 22.05 | 24.11
# It restarts the lab in LAB_DIR (down + up, so job IDs start at 1 and the accounting holds no
# older jobs), runs the jobs described in VERSION/sacct_README.md (finished, failed, cancelled,
# timed out, running, pending, an array, a heterogeneous job, a 2-node job, hostile names),
# captures, and cancels what it started. A lab of your own only. About 2 minutes (the TIMEOUT
# job needs its 1-minute limit).
#   sacct.txt              the command SlurmSource runs (sacct.cmd), delimiter in sacct_delimiter.txt
#   sacct_steps.txt        the same without -X (batch, extern and srun steps too)
#   sacct_no_accounting.*  that command where slurm.conf says AccountingStorageType=accounting_storage/none
#                          (as the power-saving lab), stdout/stderr/exit status
#   sacct_slurmdbd_down.*  that command while the lab's slurmdbd is stopped
#   sacct_json_bytes.txt   bytes of `sacct -X -a --json` for the same period vs sacct.txt (or its error)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
LAB="$REPO/lab/lab"
VERSION="${1:?usage: capture_sacct.sh VERSION LAB_DIR [BUILD_DIR]}"
LAB_DIR="$(realpath -m "${2:?usage: capture_sacct.sh VERSION LAB_DIR [BUILD_DIR]}")"
BUILD_ARGS=()
[ -z "${3:-}" ] || BUILD_ARGS=(--strata-build "$3")
OUT="$HERE/$VERSION"
# SlurmSource's delimiter: the unit separator then a random tail (fixed here, saved beside).
DELIM="$(printf '\037')abcdef012345"
FORMAT=JobID,User,Account,Partition,State,ExitCode,Submit,Start,End,NodeList,AllocTRES,JobName
SINCE=2026-01-01T00:00:00

die() { echo "capture: $*" >&2; exit 1; }
lab() { "$LAB" "$@" --slurm "$VERSION" --dir "$LAB_DIR" "${BUILD_ARGS[@]}"; }
lab down >/dev/null
# The lab's 'up' fails at the end if the DCGM stand-in is not built; Slurm and its accounting are what count.
if ! lab up >/dev/null; then
    status="$(lab status || true)"
    if ! grep -q '^slurmctld *up' <<<"$status" || ! grep -q '^slurmdbd *up' <<<"$status"; then die "lab up failed: $status"; fi
fi
eval "$(lab env)"   # SLURM_CONF, and for 24.11 PATH with the version's own client tools first
[ "${STRATA_LAB_ACCOUNTING:-}" = slurmdbd ] || die "the lab in $LAB_DIR has no accounting"
WORK="$(mktemp -d "$LAB_DIR/capture-sacct.XXXXXX")"
trap 'scancel -u "$(id -un)" 2>/dev/null || true; rm -rf "$WORK"' EXIT
cd "$WORK"

wait_until() {
    local limit="$1" what="$2"; shift 2
    local deadline=$((SECONDS + limit))
    until "$@"; do
        [ $SECONDS -lt $deadline ] || die "$what: not true after ${limit} s"
        sleep 0.5
    done
}
state_of() { sacct -X -n -P -j "$1" -o State 2>/dev/null | head -n 1; }
sacct_says() { [[ "$(state_of "$1")" == $2* ]]; }
sb() { sbatch --parsable -o /dev/null "$@"; }

# --- the jobs (the order fixes their IDs on a fresh lab)
j_ok=$(sb -J train-llama --gres=gpu:2 -w gpu-node01 --wrap 'sleep 2')                      # 1 COMPLETED
j_typed=$(sb -J typed-h100 --gres=gpu:h100:4 -A inference --wrap 'sleep 2')                # 2 COMPLETED, typed
j_fail=$(sb -J failing --gres=gpu:1 --wrap 'exit 3')                                       # 3 FAILED 3:0
j_two=$(sb -J two-nodes -N 2 --gres=gpu:8 -w 'gpu-node[03-04]' --wrap 'sleep 2')             # 4 COMPLETED, 2 nodes
j_timeout=$(sb -J times-out --gres=gpu:1 --time=1 --wrap 'sleep 600')                      # 5 TIMEOUT
j_cancel=$(sb -J cancelled-running --gres=gpu:1 --wrap 'sleep 600')                        # 6 CANCELLED while running
j_pcancel=$(sb -J cancelled-pending --gres=gpu:1 --begin=now+3600 --wrap 'true')            # 7 CANCELLED while pending
j_array=$(sb -J array --gres=gpu:1 --array=0-3%2 -w gpu-node02 --wrap 'sleep 600')         # 8: 8_0, 8_1 running, 8_[2-3] pending
cat >het.sh <<'EOF'
#!/bin/sh
#SBATCH --gres=gpu:1
#SBATCH hetjob
#SBATCH --gres=gpu:2
sleep 2
EOF
j_het=$(sb -J het het.sh)                                                                   # het: N+0, N+1
j_cpu=$(sb -J cpu-only --wrap 'sleep 1')                                                    # no GPU
# Hostile names: the unit separator, the delimiter itself, '|', a newline and a forged row, quotes.
j_h1=$(sb -J "$(printf 'sep\037inside')" --gres=gpu:1 --wrap 'sleep 1')
j_h2=$(sb -J "evil${DELIM}root${DELIM}forged" --gres=gpu:1 --wrap 'sleep 1')
j_h3=$(sb -J 'pipe|and"quotes'"'"'here' --gres=gpu:1 --wrap 'sleep 1')
j_h4=$(sb -J "$(printf 'line1\n999|root|ml-research|train|COMPLETED|0:0')" --gres=gpu:1 --wrap 'sleep 1') || j_h4=""
j_run=$(sb -J running-h100 --gres=gpu:h100:2 --wrap 'sleep 600')                            # RUNNING
j_pend=$(sb -J pending-later --gres=gpu:1 --begin=now+3600 --wrap 'true')                  # PENDING

wait_until 30 "job $j_cancel running" sacct_says "$j_cancel" RUNNING
scancel "$j_cancel" "$j_pcancel"
for j in "$j_ok" "$j_typed" "$j_two" "$j_het+0" "$j_cpu"; do wait_until 60 "job $j completed" sacct_says "$j" COMPLETED; done
wait_until 30 "job $j_fail failed" sacct_says "$j_fail" FAILED
wait_until 30 "job $j_cancel cancelled" sacct_says "$j_cancel" CANCELLED
wait_until 30 "job $j_pcancel cancelled" sacct_says "$j_pcancel" CANCELLED
wait_until 30 "job $j_run running" sacct_says "$j_run" RUNNING
wait_until 100 "job $j_timeout timed out" sacct_says "$j_timeout" TIMEOUT

mkdir -p "$OUT"
printf %s "$DELIM" >"$OUT/sacct_delimiter.txt"
run_sacct() { env TZ=UTC0 SLURM_TIME_FORMAT=standard sacct "$@" -a -n -p "--delimiter=$DELIM" -S "$SINCE" -E now --format="$FORMAT"; }
printf '%s\n' "env TZ=UTC0 SLURM_TIME_FORMAT=standard sacct -X -a -n -p --delimiter=\$(cat sacct_delimiter.txt) -S $SINCE -E now --format=$FORMAT" >"$OUT/sacct.cmd"
run_sacct -X >"$OUT/sacct.txt"
run_sacct >"$OUT/sacct_steps.txt"
json_bytes="$(sacct -X -a --json -S "$SINCE" -E now 2>"$WORK/json.err" | wc -c)" || true
printf 'text %s bytes, json %s bytes%s\n' "$(wc -c <"$OUT/sacct.txt")" "$json_bytes" \
    "$([ -s "$WORK/json.err" ] && echo " (json stderr: $(head -c 200 "$WORK/json.err"))")" >"$OUT/sacct_json_bytes.txt"

# No accounting: the same command where slurm.conf has none (the power-saving lab's setting).
sed -e 's|^AccountingStorageType=.*|AccountingStorageType=accounting_storage/none|' \
    -e '/^AccountingStorage\(Host\|Port\|TRES\)=/d' "$SLURM_CONF" >"$LAB_DIR/slurm/slurm-no-accounting.conf"
rc=0
SLURM_CONF="$LAB_DIR/slurm/slurm-no-accounting.conf" run_sacct -X >"$OUT/sacct_no_accounting.stdout" \
    2>"$OUT/sacct_no_accounting.stderr" || rc=$?
echo "$rc" >"$OUT/sacct_no_accounting.rc"
rm -f "$LAB_DIR/slurm/slurm-no-accounting.conf"

# slurmdbd down: the controller still runs, the accounting does not answer.
lab stop slurmdbd
rc=0
timeout 60 env TZ=UTC0 SLURM_TIME_FORMAT=standard sacct -X -a -n -p "--delimiter=$DELIM" -S "$SINCE" -E now \
    --format="$FORMAT" >"$OUT/sacct_slurmdbd_down.stdout" 2>"$OUT/sacct_slurmdbd_down.stderr" || rc=$?
echo "$rc" >"$OUT/sacct_slurmdbd_down.rc"
lab start slurmdbd >/dev/null
for f in "$OUT"/sacct_*.stdout "$OUT"/sacct_*.stderr; do [ -s "$f" ] || rm -f "$f"; done

cat >"$OUT/sacct_README.md" <<EOF
# sacct from the lab's Slurm $VERSION accounting (slurmdbd + MariaDB)
Captured by \`tests/data/slurm/capture_sacct.sh $VERSION LAB_DIR\` on a fresh lab ($(date -u +%Y-%m-%d)).
Command: \`sacct.cmd\` (delimiter: \`sacct_delimiter.txt\`, no trailing newline: the unit separator
then \`abcdef012345\`). Jobs, in submission order (IDs on a fresh lab):
$j_ok train-llama 2 GPUs COMPLETED; $j_typed typed-h100 gpu:h100:4 account inference COMPLETED;
$j_fail failing exit 3 FAILED; $j_two two-nodes 2x8 GPUs COMPLETED; $j_timeout times-out TIMEOUT (1 minute);
$j_cancel cancelled-running CANCELLED; $j_pcancel cancelled-pending CANCELLED before it started;
$j_array array 0-3%2 (two tasks RUNNING, two PENDING as one row); $j_het het (heterogeneous, 1 + 2 GPUs);
$j_cpu cpu-only (no GPU); $j_h1 a name with the unit separator; $j_h2 a name holding the whole delimiter
and a forged field; $j_h3 a name with a pipe and quotes; ${j_h4:-(refused)} a name with a newline and a forged row;
$j_run running-h100 RUNNING (gpu:h100:2); $j_pend pending-later PENDING (BeginTime).
\`sacct_steps.txt\`: the same without -X. \`sacct_no_accounting.*\`: that command with
AccountingStorageType=accounting_storage/none. \`sacct_slurmdbd_down.*\`: with slurmdbd stopped.
\`sacct_json_bytes.txt\`: size of \`sacct -X -a --json\` for the same period.
EOF
echo "captured into $OUT: $(wc -l <"$OUT/sacct.txt") lines"
