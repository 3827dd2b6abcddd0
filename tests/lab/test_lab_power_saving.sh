#!/usr/bin/env bash
# The power-saving lab (lab/lab up --power-saving, fixture strata_lab_power) through every phase
# of a ParallelCluster-shaped cloud cluster, checked with sinfo and scontrol:
#   all_powered_down  the dynamic nodes idle~, the static one idle, no job
#   powering_up       a 2-node job CONFIGURING on gpu-dy-p5-[1-2], both allocated# (POWERING_UP)
#   running           the job RUNNING on the launched nodes, their slurmd booted after the request
#   powering_down     the job done, both idle% (POWERING_DOWN) after SuspendTime, then idle~
#   launch_failed     a job on gpu-dy-p5-3, which never launches: down~ "ResumeTimeout reached",
#                     the job requeued (PENDING, Restarts=1)
# At each phase it keeps what Strata reads (sinfo --json, scontrol show job -d -o) and what an
# operator reads (sinfo -N -o '%N %T %G', scontrol show node -d -o) in STRATA_POWER_CAPTURE_DIR
# (default DIR/captures; tests/data/slurm/power_saving_22.05/capture.sh points it at the
# repository), and prints how long each phase took. ~2 minutes.
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
STRATA="$STRATA_BINARY_DIR/app/strata"
[ "${STRATA_LAB_VARIANT:-}" = power-saving ] ||
    fail "$STRATA_LAB_DIR is not a power-saving lab (lab/lab up --power-saving --dir $STRATA_LAB_DIR)"
CAPTURE_DIR="${STRATA_POWER_CAPTURE_DIR:-$STRATA_LAB_DIR/captures}"
mkdir -p "$CAPTURE_DIR"
WORK="$(mktemp -d "$STRATA_LAB_DIR/test-power.XXXXXX")"
cd "$WORK"   # the jobs' WorkDir in the captures: the lab's, not wherever ctest ran
POWER_LOG="$STRATA_LAB_DIR/log/power.log"
touch "$POWER_LOG"
LOG_START=$(($(wc -l <"$POWER_LOG") + 1))
# The lab's timers (lab/lib/power_saving.sh): SuspendTime 20 s, SuspendTimeout 10 s, ResumeTimeout
# 30 s, 3 s from a power-up request to a started slurmd.
SUSPEND_TIME=20 SUSPEND_TIMEOUT=10 RESUME_TIMEOUT=30

PHASE_T0=$SECONDS
phase_done() { echo "# phase $1: $((SECONDS - PHASE_T0)) s"; PHASE_T0=$SECONDS; }

# What Strata reads for nodes: 22.05 `sinfo --json` (one entry a node), 24.11 `scontrol --json
# show nodes` (its sinfo --json groups nodes by partition and state).
SLURM_RELEASE="$(cat "$STRATA_LAB_DIR/slurm-version" 2>/dev/null || echo 22.05)"
if [ "$SLURM_RELEASE" = 22.05 ]; then NODES_JSON=sinfo.json; else NODES_JSON=scontrol_show_nodes.json; fi
capture() {
    local phase="$1"
    if [ "$SLURM_RELEASE" = 22.05 ]; then
        sinfo --json >"$CAPTURE_DIR/${phase}_sinfo.json"
    else
        scontrol --json show nodes >"$CAPTURE_DIR/${phase}_scontrol_show_nodes.json"
    fi
    scontrol show job -d -o >"$CAPTURE_DIR/${phase}_scontrol_show_job_d_o.txt"
    sinfo -N -o '%N %T %G' >"$CAPTURE_DIR/${phase}_sinfo_nodes.txt"
    scontrol show node -d -o >"$CAPTURE_DIR/${phase}_scontrol_show_node_d_o.txt"
}
# captured_state PHASE NODE: the node's state in that phase's sinfo -N capture.
captured_state() { awk -v n="$2" '$1 == n {print $2; exit}' "$CAPTURE_DIR/$1_sinfo_nodes.txt"; }
captured_job() { grep "^JobId=$2 " "$CAPTURE_DIR/$1_scontrol_show_job_d_o.txt"; }
captured_node() { grep "^NodeName=$2 " "$CAPTURE_DIR/$1_scontrol_show_node_d_o.txt"; }
# captured_flags PHASE NODE: the node's state and flags in that phase's node JSON, flags in one
# order for both releases (22.05: "state" and "state_flags"; 24.11: "state" is the list).
captured_flags() {
    "$PYTHON" -c 'import json, sys
order = ["CLOUD", "POWERED_DOWN", "POWERING_UP", "POWERING_DOWN", "NOT_RESPONDING"]
for n in json.load(open(sys.argv[1]))["nodes"]:
    if n["name"] != sys.argv[2]:
        continue
    if isinstance(n["state"], list):
        state, flags = n["state"][0].lower(), n["state"][1:]
    else:
        state, flags = n["state"], n["state_flags"]
    flags = sorted(flags, key=lambda f: (order.index(f) if f in order else len(order), f))
    print(" ".join([state] + flags))' "$CAPTURE_DIR/$1_$NODES_JSON" "$2"
}
# A phase is captured when its captures themselves show it: capture until they do (states move
# between the reads), at most LIMIT seconds.
capture_phase() {
    local limit="$1" phase="$2"; shift 2
    local deadline=$((SECONDS + limit))
    until capture "$phase" && "$@" 2>/dev/null; do
        [ $SECONDS -lt $deadline ] || { cat "$CAPTURE_DIR/${phase}_sinfo_nodes.txt" >&2; fail "phase $phase not reached in ${limit} s"; }
        sleep 0.2
    done
}
node_state() { local s; s="$(sinfo -h -N -n "$1" -o '%T' 2>/dev/null)"; echo "${s%%$'\n'*}"; }
node_state_is() { [ "$(node_state "$1")" = "$2" ]; }
new_log() { tail -n "+$LOG_START" "$POWER_LOG"; }

# What Strata says in a phase (issue 25): `strata snapshot` between two identical `sinfo -N`
# reads (states move; the check is made at a moment sinfo stood still) splits the GPUs exactly as
# sinfo's states do (`~` launchable, `#` starting, `%`/down unavailable, idle, allocated busy),
# and its only findings are the ones given (node:code, comma-separated; empty for none).
mapfile -t connect < "$STRATA_LAB_DIR/connect.args"
strata_split_agrees() {
    local before after snap
    before="$(sinfo -h -N -o '%N %T %G')"
    snap="$("$STRATA" snapshot --format json "${connect[@]}")" || return 1
    after="$(sinfo -h -N -o '%N %T %G')"
    [ "$before" = "$after" ] || return 1
    "$PYTHON" -c '
import json, sys
s = json.loads(sys.argv[1]); want = {"busy": 0, "idle": 0, "starting": 0, "launchable": 0, "unavailable": 0}
for line in sys.argv[2].splitlines():
    node, state, gres = line.split()
    gpus = int(gres.split(":")[2].split("(")[0]) if gres.startswith("gpu:") else 0
    if state.startswith(("down", "drain")) or state.endswith("%"): want["unavailable"] += gpus
    elif state.endswith("~"): want["launchable"] += gpus
    elif state.endswith("#"): want["starting"] += gpus
    elif state == "idle": want["idle"] += gpus
    elif state == "allocated": want["busy"] += gpus
    else: sys.exit("unexpected state " + state)
t = s["totals"]
got = {k: t["gpus" + k.capitalize()] for k in want}
findings = sorted(f["node"] + ":" + f["code"] for f in s["findings"])
expected = sorted(x for x in sys.argv[3].split(",") if x)
if got != want or findings != expected or sum(got.values()) != t["gpus"]:
    sys.exit("strata %s, findings %s; sinfo %s, findings expected %s" % (got, findings, want, expected))
' "$snap" "$after" "$1"
}
# strata_agrees PHASE FINDINGS: within 20 s (a moment when sinfo stands still), or fail.
strata_agrees() {
    local deadline=$((SECONDS + 20)) why=""
    until why="$(strata_split_agrees "$2" 2>&1)"; do
        [ $SECONDS -lt $deadline ] || fail "phase $1: Strata's GPU split is not sinfo's: $why"
        sleep 0.5
    done
    pass "phase $1: strata snapshot splits the GPUs as sinfo does${2:+, findings $2}"
}

# --- all_powered_down
is_all_powered_down() {
    [ "$(captured_state all_powered_down gpu-st-p5-1)" = idle ] || return 1
    local n
    for n in gpu-dy-p5-1 gpu-dy-p5-2 gpu-dy-p5-3 cpu-dy-c5-1; do
        [ "$(captured_state all_powered_down "$n")" = 'idle~' ] || return 1
    done
    [ "$(captured_flags all_powered_down gpu-dy-p5-1)" = "idle CLOUD POWERED_DOWN" ] &&
        [ -z "$(squeue -h -o %i)" ]
}
capture_phase 20 all_powered_down is_all_powered_down
[ "$(captured_flags all_powered_down gpu-dy-p5-1)" = "idle CLOUD POWERED_DOWN" ] ||
    fail "sinfo --json: gpu-dy-p5-1 is '$(captured_flags all_powered_down gpu-dy-p5-1)'"
[ "$(captured_flags all_powered_down gpu-st-p5-1)" = "idle CLOUD" ] ||
    fail "sinfo --json: gpu-st-p5-1 is '$(captured_flags all_powered_down gpu-st-p5-1)'"
grep -qx 'gpu-dy-p5-1 idle~ gpu:h100:8' "$CAPTURE_DIR/all_powered_down_sinfo_nodes.txt" || fail "gpu-dy-p5-1 GRES"
grep -qx 'cpu-dy-c5-1 idle~ (null)' "$CAPTURE_DIR/all_powered_down_sinfo_nodes.txt" || fail "cpu-dy-c5-1 has a GRES"
captured_node all_powered_down cpu-dy-c5-1 | grep -q 'AvailableFeatures=dynamic,c5.xlarge,c5xlarge ' ||
    fail "cpu-dy-c5-1's features: $(captured_node all_powered_down cpu-dy-c5-1)"
# (Output kept before grep: with pipefail, grep -q closing the pipe early fails the check.)
lab_status() { "$LAB" status --dir "$STRATA_LAB_DIR" || true; }
status="$(lab_status)"
for n in gpu-dy-p5-1 gpu-dy-p5-2 gpu-dy-p5-3 cpu-dy-c5-1; do
    grep -qE "^slurmd@$n +not launched" <<<"$status" || fail "a slurmd runs for $n: $status"
done
strata_agrees all_powered_down ""
phase_done all_powered_down
pass "all powered down: gpu-dy-p5-[1-3], cpu-dy-c5-1 idle~ (CLOUD, POWERED_DOWN), no slurmd; gpu-st-p5-1 idle"

# --- powering_up
cat >"$WORK/two_node.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=train-2node
#SBATCH --partition=gpu
#SBATCH --nodes=2
#SBATCH --nodelist=gpu-dy-p5-[1-2]
#SBATCH --gres=gpu:8
#SBATCH --exclusive
#SBATCH --output=$WORK/%j.out
echo "host=\$(hostname) uptime=\$(cut -d' ' -f1 /proc/uptime) gpus=\$CUDA_VISIBLE_DEVICES"
sleep 20
EOF
submitted_at="$(date '+%Y-%m-%dT%H:%M:%S')" submitted_s=$SECONDS
job="$(sbatch --parsable "$WORK/two_node.sbatch")"
TEST_JOBS+=("$job")
is_powering_up() {
    [ "$(captured_state powering_up gpu-dy-p5-1)" = 'allocated#' ] &&
        [ "$(captured_state powering_up gpu-dy-p5-2)" = 'allocated#' ] &&
        captured_job powering_up "$job" | grep -q ' JobState=CONFIGURING ' &&
        [[ " $(captured_flags powering_up gpu-dy-p5-1) " == *" POWERING_UP "* ]] &&
        [[ " $(captured_flags powering_up gpu-dy-p5-2) " == *" POWERING_UP "* ]]
}
capture_phase 20 powering_up is_powering_up
line="$(captured_job powering_up "$job")"
grep -q ' NodeList=gpu-dy-p5-\[1-2\] ' <<<"$line" || fail "job $job's nodes: $line"
grep -q ' Nodes=gpu-dy-p5-\[1-2\] .*GRES=gpu:h100:8(IDX:0-7)' <<<"$line" ||
    fail "job $job holds no GPU indices while CONFIGURING: $line"
flags="$(captured_flags powering_up gpu-dy-p5-1)"
# (22.05 also sets NOT_RESPONDING on a node it powers up.)
[[ " $flags " == *" POWERING_UP "* && ( "$SLURM_RELEASE" != 22.05 || " $flags " == *" NOT_RESPONDING "* ) ]] ||
    fail "sinfo --json: gpu-dy-p5-1 is '$flags' while powering up"
strata_agrees powering_up ""
phase_done powering_up
pass "powering up: job $job CONFIGURING with GPU indices 0-7 on gpu-dy-p5-[1-2], both allocated# ($flags)"

# --- running
is_running() {
    [ "$(captured_state running gpu-dy-p5-1)" = allocated ] &&
        [ "$(captured_state running gpu-dy-p5-2)" = allocated ] &&
        captured_job running "$job" | grep -q ' JobState=RUNNING ' &&
        [ "$(captured_flags running gpu-dy-p5-1)" = "allocated CLOUD" ] &&
        [ "$(captured_flags running gpu-dy-p5-2)" = "allocated CLOUD" ]
}
capture_phase $((RESUME_TIMEOUT + 10)) running is_running
for n in gpu-dy-p5-1 gpu-dy-p5-2; do
    boot="$(captured_node running "$n" | grep -o ' BootTime=[^ ]*' | cut -d= -f2)"
    [[ "$boot" > "$submitted_at" || "$boot" = "$submitted_at" ]] ||
        fail "$n's BootTime $boot is older than the submission at $submitted_at"
done
grep -qE "resume gpu-dy-p5-\[1-2\]$" <(new_log) || fail "no resume of gpu-dy-p5-[1-2] in $POWER_LOG: $(new_log)"
wait_until 10 "job output" grep -q '^host=' "$WORK/$job.out"
out="$(cat "$WORK/$job.out")"
grep -qE '^host=gpu-dy-p5-1 uptime=[0-9]+\.[0-9]+ gpus=0,1,2,3,4,5,6,7$' <<<"$out" || fail "the job's output: $out"
# The node's clock (its own time namespace) says it booted after the job was submitted.
uptime="$(sed -E 's/.* uptime=([0-9]+)\..*/\1/' <<<"$out")"
[ "$uptime" -le $((SECONDS - submitted_s)) ] ||
    fail "gpu-dy-p5-1 has been up ${uptime} s, the job was submitted $((SECONDS - submitted_s)) s ago"
strata_agrees running ""
phase_done running
pass "running: job $job RUNNING on gpu-dy-p5-[1-2] (allocated), slurmd booted after the request ($out)"

# --- powering_down
wait_until 40 "job $job completed" job_is "$job" COMPLETED
is_powering_down() {
    [ "$(captured_state powering_down gpu-dy-p5-1)" = 'idle%' ] &&
        [ "$(captured_state powering_down gpu-dy-p5-2)" = 'idle%' ] &&
        [[ " $(captured_flags powering_down gpu-dy-p5-1) " == *" POWERING_DOWN "* ]] &&
        [[ " $(captured_flags powering_down gpu-dy-p5-2) " == *" POWERING_DOWN "* ]]
}
capture_phase $((SUSPEND_TIME + 15)) powering_down is_powering_down
flags="$(captured_flags powering_down gpu-dy-p5-1)"
[[ " $flags " == *" POWERING_DOWN "* ]] || fail "sinfo --json: gpu-dy-p5-1 is '$flags' while powering down"
strata_agrees powering_down ""
phase_done powering_down
# POWERING_DOWN lasts SuspendTimeout after the SuspendProgram ran, then waits for slurmctld's next
# power-save pass (every power_save_interval, 10 s by default): up to ~20 s quiet, more under
# load (22 s seen with the CI suite beside it).
wait_until $((SUSPEND_TIMEOUT + 35)) "gpu-dy-p5-1 powered down" node_state_is gpu-dy-p5-1 'idle~'
wait_until 15 "gpu-dy-p5-2 powered down" node_state_is gpu-dy-p5-2 'idle~'
status="$(lab_status)"
for n in gpu-dy-p5-1 gpu-dy-p5-2; do
    grep -qE "^slurmd@$n +not launched" <<<"$status" || fail "$n's slurmd still runs: $status"
done
grep -qE "suspend gpu-dy-p5-\[1-2\]$" <(new_log) || fail "no suspend of gpu-dy-p5-[1-2] in $POWER_LOG: $(new_log)"
phase_done powered_down_again
pass "powering down: idle% ($flags) after SuspendTime, then idle~ with both slurmd stopped"

# --- launch_failed
failing="$(sbatch --parsable -J never-launches -p gpu -w gpu-dy-p5-3 --gres=gpu:8 --exclusive \
    -o "$WORK/%j.out" --wrap 'sleep 20')"
TEST_JOBS+=("$failing")
wait_until 15 "job $failing CONFIGURING" job_is "$failing" CONFIGURING
is_launch_failed() {
    [ "$(captured_state launch_failed gpu-dy-p5-3)" = 'down~' ] &&
        captured_job launch_failed "$failing" | grep -q ' JobState=PENDING .* Restarts=1 ' &&
        [[ "$(captured_flags launch_failed gpu-dy-p5-3) " == "down CLOUD POWERED_DOWN "* ]] &&
        captured_node launch_failed gpu-dy-p5-3 | grep -q ' Reason=ResumeTimeout reached '
}
capture_phase $((RESUME_TIMEOUT + 25)) launch_failed is_launch_failed
captured_node launch_failed gpu-dy-p5-3 | grep -q ' Reason=ResumeTimeout reached ' ||
    fail "gpu-dy-p5-3's reason: $(captured_node launch_failed gpu-dy-p5-3)"
flags="$(captured_flags launch_failed gpu-dy-p5-3)"
# (22.05 also keeps NOT_RESPONDING from the power-up: after POWERED_DOWN in this order.)
[[ "$flags " == "down CLOUD POWERED_DOWN "* ]] || fail "sinfo --json: gpu-dy-p5-3 is '$flags' after ResumeTimeout"
grep -q 'resume gpu-dy-p5-3: skipped' <(new_log) || fail "the ResumeProgram did not skip gpu-dy-p5-3: $(new_log)"
strata_agrees launch_failed "gpu-dy-p5-3:node-launch-failed"
phase_done launch_failed
pass "launch failed: gpu-dy-p5-3 down~ 'ResumeTimeout reached', job $failing requeued (PENDING, Restarts=1)"

# Leave the lab as it began: the job gone, gpu-dy-p5-3 powered down and usable again.
scancel "$failing"
scontrol update NodeName=gpu-dy-p5-3 State=RESUME
wait_until 45 "gpu-dy-p5-3 idle~ again" node_state_is gpu-dy-p5-3 'idle~'
pass "gpu-dy-p5-3 resumed to idle~"
rm -rf "$WORK"
echo "all $CHECKS checks passed"
