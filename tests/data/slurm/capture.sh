#!/usr/bin/env bash
# Captures REAL Slurm 22.05 outputs from the lab (lab/lab) for the parser tests, into this
# folder. Restarts the lab (down + up) before and after, so job IDs start at 1 and the lab is
# left clean. Usage: tests/data/slurm/capture.sh [LAB_DIR]   (default /tmp/strata-lab)
# Takes about 2 minutes (it waits for a job to hit its 1-minute time limit).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
LAB="$REPO/lab/lab"
LAB_DIR="${1:-/tmp/strata-lab}"
BUILD_ARGS=()
[ -z "${2:-}" ] || BUILD_ARGS=(--strata-build "$2")
OUT="$HERE"

die() { echo "capture: $*" >&2; exit 1; }
lab() { "$LAB" "$@" --dir "$LAB_DIR" "${BUILD_ARGS[@]}"; }

fresh_lab() { lab down >/dev/null; lab up >/dev/null; }
fresh_lab
eval "$(lab env)"
WORK="$(mktemp -d "$LAB_DIR/capture.XXXXXX")"
cd "$WORK"   # job output files land here

wait_until() {
    local limit="$1" what="$2"; shift 2
    local deadline=$((SECONDS + limit))
    until "$@"; do
        [ $SECONDS -lt $deadline ] || die "$what: not true after ${limit} s"
        sleep 0.5
    done
}
job_is() { [ "$(squeue -h -j "$1" --states=all -o '%T' | sort -u)" = "$2" ]; }
has_reason() { local r; r="$(squeue -h -j "$1" -o '%r' | sort -u)"; [ -n "$r" ] && [ "$r" != None ]; }

SQUEUE_FIELDS=$'%i\x1f%A\x1f%F\x1f%K\x1f%u\x1f%T\x1f%r\x1f%P\x1f%N\x1f%M\x1f%l\x1f%V\x1f%S\x1f%b\x1f%D\x1f%j\x1e'
SINFO_FIELDS=$'%N\x1f%T\x1f%P\x1f%G\x1f%f\x1f%c\x1f%C\x1f%m\x1f%e\x1f%O\x1f%H\x1f%E\x1e'
SINFO_GRES_USED='NodeList:|,StateLong:|,Partition:|,Gres:|,GresUsed:|,Features:|,CPUsState:|,Memory:|,AllocMem:|,Reason:|'

# capture_lists PREFIX: every list output, as the parsers receive it.
capture_lists() {
    local p="$1"
    scontrol show node -o >"${p}scontrol_show_node_o.txt"
    scontrol show node -d -o >"${p}scontrol_show_node_d_o.txt"
    scontrol show job -d -o >"${p}scontrol_show_job_d_o.txt"
    scontrol show partition -o >"${p}scontrol_show_partition_o.txt"
    sinfo --json >"${p}sinfo.json"
    squeue --json >"${p}squeue.json"
    squeue -h -a -r --states=all -o "$SQUEUE_FIELDS" >"${p}squeue_fields.txt"
    sinfo -h -N -o "$SINFO_FIELDS" >"${p}sinfo_nodes_fields.txt"
    sinfo -h -N -O "$SINFO_GRES_USED" >"${p}sinfo_nodes_gres_used.txt"
    sinfo -h -o '%P|%a|%l|%D|%T|%N' >"${p}sinfo_partitions.txt"
}

# record NAME CMD...: stdout, stderr, exit status and the command itself, under errors/.
record() {
    local name="$1"; shift
    mkdir -p "$OUT/errors"
    printf '%q ' "$@" | sed 's/ $/\n/' >"$OUT/errors/$name.cmd"
    local rc=0
    "$@" >"$OUT/errors/$name.stdout" 2>"$OUT/errors/$name.stderr" || rc=$?
    echo "$rc" >"$OUT/errors/$name.rc"
    [ -s "$OUT/errors/$name.stdout" ] || rm -f "$OUT/errors/$name.stdout"
}

rm -rf "$OUT/errors" "$OUT/adversarial"
mkdir -p "$OUT/adversarial"

# ---- 1. adversarial names (held jobs, separate lab run): newline, \x1f, \x1e in job names;
#         and one running 2-node job whose node details scontrol groups (Nodes=gpu-node[03-04]).
for name in $'newline\nin name' $'unit\x1fseparator' $'record\x1eseparator' $'both\x1e\nend'; do
    sbatch -H --parsable -J "$name" --gres=gpu:1 --wrap true >/dev/null
done
# A 2-node job with identical CPU_IDs on both nodes: scontrol groups them in one detail line.
grouped="$(sbatch --parsable -J 'grouped two-node' -N 2 -w 'gpu-node[03-04]' --gres=gpu:2 \
    --ntasks-per-node=1 --wrap 'sleep 100000')"
wait_until 10 "held reasons" has_reason 1
wait_until 15 "grouped job running" job_is "$grouped" RUNNING
capture_lists "$OUT/adversarial/"
fresh_lab

# ---- 2. an empty cluster
squeue --json >"$OUT/empty_squeue.json"
scontrol show job -d -o >"$OUT/empty_scontrol_show_job_d_o.txt"
squeue -h -a -r --states=all -o "$SQUEUE_FIELDS" >"$OUT/empty_squeue_fields.txt"
sinfo --json >"$OUT/idle_sinfo.json"
scontrol show node -d -o >"$OUT/idle_scontrol_show_node_d_o.txt"

# ---- 3. the main scenario
# A job that runs into its 1-minute limit (TIMEOUT); Slurm enforces limits every ~30 s.
timeout_job="$(sbatch --parsable -J 'hits time limit' -t 1 --wrap 'sleep 600')"
sbatch -J 'ünïcødé 训练 🚀 run' --wrap 'echo done' >"$OUT/sbatch_success.stdout"
completed_job="$(awk '{print $4}' "$OUT/sbatch_success.stdout")"
failed_job="$(sbatch --parsable -J 'fails with exit 3' --wrap 'exit 3')"
cancelled_job="$(sbatch --parsable -J $'tab\tin name' --gres=gpu:1 --wrap 'sleep 600')"
wait_until 15 "job $cancelled_job running" job_is "$cancelled_job" RUNNING
scancel "$cancelled_job"
wait_until 15 "finished jobs" job_is "$completed_job" COMPLETED
wait_until 15 "failed job" job_is "$failed_job" FAILED
wait_until 15 "cancelled job" job_is "$cancelled_job" CANCELLED

# Node faults before the jobs that wait on them.
scontrol update nodename=gpu-node03 state=drain reason="Action:Reboot xid=79 GPU 3 fell off the bus"
lab stop gpu-node04
scontrol update nodename=gpu-node04 state=down reason="slurmd stopped: lab capture"

pretrain="$(sbatch --parsable -J 'llama-70b pretrain' --gres=gpu:6 --cpus-per-gpu=8 -w gpu-node01 \
    -t 7-00:00:00 --wrap 'sleep 100000')"
sbatch --parsable -J 'multi;node $(rm -rf /) `id`' -N 2 -w 'gpu-node[01-02]' --gres=gpu:1 \
    --ntasks-per-node=1 --wrap 'srun sleep 100000' >/dev/null
sbatch --parsable -J "sweep \"lr\" 'warmup'" --array=0-5 --gres=gpu:3 -w gpu-node02 -t 12:00:00 \
    --wrap 'sleep 100000' >"$OUT/sbatch_parsable_array.stdout"
array_job="$(cat "$OUT/sbatch_parsable_array.stdout")"
sbatch --parsable -J "$(printf 'data-prep-%0120d' 0)" -w gpu-node01 -c 4 --wrap 'sleep 100000' >/dev/null
pending_gpus="$(sbatch --parsable -J 'eval|pipe name' --gres=gpu:8 -w gpu-node01 --wrap 'sleep 100000')"
held_job="$(sbatch --parsable -H -J 'held job' --gres=gpu:1 --wrap 'sleep 100000')"
sbatch --parsable -J 'after pretrain' --dependency="afterok:$pretrain" --gres=gpu:8 --wrap 'sleep 100000' >/dev/null
inference_job="$(sbatch --parsable -J 'serve-llm' -p inference --gres=gpu:2 --wrap 'sleep 100000')"
sbatch --parsable -J 'too long for inference' -p inference -t 2-00:00:00 --gres=gpu:1 --wrap 'sleep 100000' >/dev/null

wait_until 20 "pretrain running" job_is "$pretrain" RUNNING
wait_until 20 "array tasks 0-1 running" job_is "${array_job}_1" RUNNING
wait_until 20 "pending reason for $pending_gpus" has_reason "$pending_gpus"
wait_until 20 "pending reason for $inference_job" has_reason "$inference_job"
wait_until 20 "held reason" has_reason "$held_job"
wait_until 20 "array pending reason" has_reason "${array_job}_5"
wait_until 120 "time limit" job_is "$timeout_job" TIMEOUT
sleep 3   # one more backfill pass so every pending job carries its reason

capture_lists "$OUT/"
# The lab's ports are fixed, so other people's tests may share it: refuse mixed captures.
last_id="$(squeue -h --states=all -o '%A' | sort -n | tail -n 1)"
[ "$last_id" -eq 15 ] || die "job IDs up to $last_id: someone else submitted jobs to this lab meanwhile; rerun when it is quiet"
scontrol show step -o >"$OUT/scontrol_show_step_o.txt"
cp "$LAB_DIR/slurm/jobcomp.log" "$OUT/jobcomp.txt"
scontrol --version >"$OUT/version.txt"

# ---- 4. errors (and the success outputs of actions)
record sbatch_bad_partition sbatch -p nosuch --wrap true
record sbatch_bad_node sbatch -w gpu-node99 --wrap true
record sbatch_invalid_gres_name sbatch --gres=tpu:1 --wrap true
record sbatch_bad_gres_type sbatch --gres=gpu:a100:1 --wrap true
record sbatch_too_many_gpus sbatch --gres=gpu:9 --wrap true
record sbatch_bad_time sbatch -t notatime --wrap true
record scancel_unknown_job scancel 999999
record scancel_unknown_job_verbose scancel -v 999999
record scancel_bad_job_id scancel notanumber
record scancel_success scancel "$held_job"
record scontrol_drain_unknown_node scontrol update nodename=gpu-node99 state=drain reason=test
record scontrol_drain_without_reason scontrol update nodename=gpu-node01 state=drain
record scontrol_drain_success scontrol update nodename=gpu-node02 state=drain reason="capture test"
record scontrol_resume_success scontrol update nodename=gpu-node02 state=resume
record scontrol_show_job_unknown scontrol show job 999999
record scontrol_hold_unknown scontrol hold 999999

lab stop slurmctld
record ctld_down_squeue squeue -h -o '%i'
record ctld_down_sinfo sinfo -h
record ctld_down_sbatch sbatch --wrap true
record ctld_down_scontrol_show_node scontrol show node -o
record ctld_down_scontrol_ping scontrol ping
lab start slurmctld
lab stop munged
record munge_down_sinfo sinfo -h
lab start munged

# ---- 5. leave the lab clean
cd /
rm -rf "$WORK"
fresh_lab
echo "captured into $OUT"
