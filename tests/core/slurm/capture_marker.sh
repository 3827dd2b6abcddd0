#!/usr/bin/env bash
# Captures REAL Slurm outputs in the formats SlurmSource asks for (squeue -O with a record
# marker, scontrol show job -d -o, the node list, scontrol show partition -o) from a lab of
# either release, in three states: the main scenario of tests/data/slurm/capture.sh (main_*),
# running jobs with hostile names (hostile_*), and held jobs asking for GPUs every way sbatch
# offers (gpu_requests_*). squeue --json of the same moment is kept as the oracle: it escapes
# names correctly and lists each job's per-node GPU indices (gres_detail).
#
# Usage: tests/core/slurm/capture_marker.sh LAB_DIR   (a lab of your own: it restarts it)
# The lab's release picks the folder: 22.05 -> tests/data/slurm/marker/, 24.11 (a lab started
# with `lab/lab up --slurm 24.11 --dir LAB_DIR`) -> tests/data/slurm/marker/24.11/.
# Never point it at a lab someone else is using. Takes about a minute. The lab's ports are fixed;
# while another lab runs, use a private network namespace with a second loopback address
# (glibc's AI_ADDRCONFIG ignores 127.0.0.1 itself, and Slurm then cannot resolve it):
#   ip netns add strata-capture && ip netns exec strata-capture ip link set lo up
#   ip netns exec strata-capture ip addr add 127.0.0.2/8 dev lo
#   ip netns exec strata-capture tests/core/slurm/capture_marker.sh /tmp/strata-lab-capture
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
LAB="$REPO/lab/lab"
LAB_DIR="${1:?usage: capture_marker.sh LAB_DIR}"
MARKER='<<strata:9f3c2a7b61d04e58>>'   # as SlurmSource makes them, fixed here for the tests
# SqueueParser::formatArgument: every field followed by \x1f, the name (last) by the marker.
FIELDS=(JobArrayID ArrayJobID ArrayTaskID UserName State Reason Partition NodeList TimeUsed TimeLimit
        SubmitTime StartTime tres-per-node tres-per-job tres-per-task tres-per-socket NumNodes NumTasks
        Sockets)
FORMAT=""
for f in "${FIELDS[@]}"; do FORMAT+="$f:"$'\x1f'","; done
FORMAT+="Name:$MARKER"

die() { echo "capture_marker: $*" >&2; exit 1; }
lab() { "$LAB" "$@" --dir "$LAB_DIR"; }
fresh_lab() { lab down >/dev/null; lab up >/dev/null; }
fresh_lab
eval "$(lab env)"
case "$(scontrol version)" in
    *" 22.05."*) OUT="$REPO/tests/data/slurm/marker"; NODES=(sinfo --json) ;;
    *" 24.11."*) OUT="$REPO/tests/data/slurm/marker/24.11"; NODES=(scontrol --json show nodes) ;;
    *) die "unexpected release: $(scontrol version)" ;;
esac
WORK="$(mktemp -d "$LAB_DIR/capture-marker.XXXXXX")"
cd "$WORK"

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
submit() { sbatch --parsable "$@"; }

# capture PREFIX: what one SlurmSource refresh reads, plus the squeue --json oracle.
capture() {
    local p="$OUT/$1"
    squeue -h -a -r --states=all -O "$FORMAT" >"${p}squeue_marker.txt"
    scontrol show job -d -o >"${p}scontrol_show_job_d_o.txt"
    squeue --json >"${p}squeue.json"
    "${NODES[@]}" >"${p}nodes.json"
    scontrol show partition -o >"${p}scontrol_show_partition_o.txt"
}

mkdir -p "$OUT"
rm -f "$OUT"/main_* "$OUT"/hostile_* "$OUT"/gpu_requests_*
printf '%s' "$MARKER" >"$OUT/marker.txt"
printf '%s' "$FORMAT" >"$OUT/squeue_format.txt"
scontrol version >"$OUT/scontrol_version.txt"

# ---- 1. main: tests/data/slurm/capture.sh's scenario, taken while job 1 still runs.
timeout_job="$(submit -J 'hits time limit' -t 1 --wrap 'sleep 600')"
completed_job="$(submit -J 'ünïcødé 训练 🚀 run' --wrap 'echo done')"
failed_job="$(submit -J 'fails with exit 3' --wrap 'exit 3')"
cancelled_job="$(submit -J $'tab\tin name' --gres=gpu:1 --wrap 'sleep 600')"
wait_until 15 "job $cancelled_job running" job_is "$cancelled_job" RUNNING
scancel "$cancelled_job"
wait_until 15 "completed job" job_is "$completed_job" COMPLETED
wait_until 15 "failed job" job_is "$failed_job" FAILED
wait_until 15 "cancelled job" job_is "$cancelled_job" CANCELLED
scontrol update nodename=gpu-node03 state=drain reason="Action:Reboot xid=79 GPU 3 fell off the bus"
lab stop gpu-node04
scontrol update nodename=gpu-node04 state=down reason="slurmd stopped: lab capture"
pretrain="$(submit -J 'llama-70b pretrain' --gres=gpu:6 --cpus-per-gpu=8 -w gpu-node01 -t 7-00:00:00 --wrap 'sleep 100000')"
submit -J 'multi;node $(rm -rf /) `id`' -N 2 -w 'gpu-node[01-02]' --gres=gpu:1 --ntasks-per-node=1 \
    --wrap 'srun sleep 100000' >/dev/null
array_job="$(submit -J "sweep \"lr\" 'warmup'" --array=0-5 --gres=gpu:3 -w gpu-node02 -t 12:00:00 --wrap 'sleep 100000')"
submit -J "$(printf 'data-prep-%0120d' 0)" -w gpu-node01 -c 4 --wrap 'sleep 100000' >/dev/null
pending_gpus="$(submit -J 'eval|pipe name' --gres=gpu:8 -w gpu-node01 --wrap 'sleep 100000')"
held_job="$(submit -H -J 'held job' --gres=gpu:1 --wrap 'sleep 100000')"
submit -J 'after pretrain' --dependency="afterok:$pretrain" --gres=gpu:8 --wrap 'sleep 100000' >/dev/null
inference_job="$(submit -J 'serve-llm' -p inference --gres=gpu:2 --wrap 'sleep 100000')"
submit -J 'too long for inference' -p inference -t 2-00:00:00 --gres=gpu:1 --wrap 'sleep 100000' >/dev/null
wait_until 20 "pretrain running" job_is "$pretrain" RUNNING
wait_until 20 "array tasks 0-1 running" job_is "${array_job}_1" RUNNING
wait_until 20 "pending reason for $pending_gpus" has_reason "$pending_gpus"
wait_until 20 "pending reason for $inference_job" has_reason "$inference_job"
wait_until 20 "held reason" has_reason "$held_job"
wait_until 20 "array pending reason" has_reason "${array_job}_5"
sleep 3   # one more backfill pass so every pending job carries its reason
job_is "$timeout_job" RUNNING || die "job $timeout_job already ended: the main state is gone"
capture main_
fresh_lab

# ---- 2. hostile: names chosen to break every naive reader: shell metacharacters, a trailing
#         newline, a whole forged record (behind a marker of its own: the real one is random
#         per refresh, so no name can hold it), forged scontrol keys (placements on
#         other nodes), separators, unicode.
had_probe=no; [ ! -e /tmp/x ] || had_probe=yes
EVIL=$'evil $(touch /tmp/x); `id` "q" \'s\' | \t \xc3\xbcn\xc3\xaf\n'
FORGED_MARKER=$'x<<strata:0000000000000000>>\n999\x1f999\x1fN/A\x1froot\x1fRUNNING\x1fNone\x1ftrain\x1fgpu-node04\x1f0:01\x1fUNLIMITED\x1fN/A\x1fN/A\x1fgres:gpu:8\x1fN/A\x1fN/A\x1fN/A\x1f1\x1f1\x1f*\x1fforged<<strata:0000000000000000>>'
FORGED_KEYS='k UserId=root(0) JobState=RUNNING Nodes=gpu-node03 CPU_IDs=0 Mem=0 GRES=gpu:h200:8(IDX:0-7) end'
SEPARATORS=$'a\x1fb\x1ec\x1e\nd'
a="$(submit -J "$EVIL" --gres=gpu:2 -w gpu-node01 --wrap 'sleep 100000')"
b="$(submit -J "$FORGED_MARKER" --gres=gpu:1 -w gpu-node01 --wrap 'sleep 100000')"
wait_until 15 "job $b running" job_is "$b" RUNNING
# Names that forge a whole scontrol record for job $a, on the first and on a later line.
FORGED_RECORD=$'JobState=PENDING\nJobId='"$a"$' JobName=x UserId=root(0) JobState=RUNNING Nodes=gpu-node04 CPU_IDs=0 Mem=0 GRES=gpu:h200:8(IDX:0-7)'
c="$(submit -J "$FORGED_KEYS" --gres=gpu:1 -w gpu-node02 --wrap 'sleep 100000')"
d="$(submit -J "$FORGED_RECORD" --gres=gpu:1 -w gpu-node02 --wrap 'sleep 100000')"
e="$(submit -J "$SEPARATORS" --gres=gpu:1 -w gpu-node02 --wrap 'sleep 100000')"
f="$(submit -J 'two nodes, two GPUs each' -N 2 -w 'gpu-node[03-04]' --gres=gpu:2 --ntasks-per-node=1 --wrap 'srun sleep 100000')"
g="$(submit -J 'sweep' --array=0-3 --gres=gpu:3 -w gpu-node02 -t 2:00:00 --wrap 'sleep 100000')"
h="$(submit -H -J $'held\nwith newline and JobState=RUNNING' --gres=gpu:1 --wrap true)"
i="$(submit -J $'finished\n' --wrap true)"
j="$(submit -J "$(printf 'long-%0300d' 0)" -w gpu-node03 -c 2 --wrap 'sleep 100000')"
wait_until 20 "two-node job running" job_is "$f" RUNNING
wait_until 20 "array task 0 running" job_is "${g}_0" RUNNING
wait_until 20 "finished job" job_is "$i" COMPLETED
for id in "$a" "$c" "$d" "$e" "$j"; do wait_until 20 "job $id running" job_is "$id" RUNNING; done
# A node that drains under a running job reads "mixed" + DRAIN ("draining").
scontrol update nodename=gpu-node03 state=drain reason='burn-in: GPU 5 hot (93 C)'
sleep 3   # one backfill pass so pending array tasks carry their reason
capture hostile_
# What SlurmSource asks when few running jobs are new: one scontrol per job, after "MARKER ID".
for id in $(squeue -h -r -t RUNNING -o '%i'); do
    printf '%s %s\n' "$MARKER" "$id"
    scontrol show job -d -o "$id"
done >"$OUT/hostile_scontrol_per_job.txt"
# The submitted names, hex-encoded (one "id<TAB>hex" line each), so tests can compare bytes.
: >"$OUT/hostile_names.tsv"
for pair in a:EVIL b:FORGED_MARKER c:FORGED_KEYS d:FORGED_RECORD e:SEPARATORS; do
    id_var="${pair%%:*}" name_var="${pair#*:}"
    printf '%s\t%s\n' "${!id_var}" "$(printf '%s' "${!name_var}" | od -An -tx1 -v | tr -d ' \n')" >>"$OUT/hostile_names.tsv"
done
[ "$had_probe" = yes ] || [ ! -e /tmp/x ] || die "/tmp/x appeared: something ran a job name"
fresh_lab

# ---- 3. gpu_requests: held jobs asking for GPUs every way sbatch offers ("name<TAB>sbatch
#         arguments" in gpu_requests_jobs.tsv, in submission order: job IDs 1, 2, ...).
: >"$OUT/gpu_requests_jobs.tsv"
request() {
    local name="$1"; shift
    submit -H -J "$name" "$@" --wrap true >/dev/null
    printf '%s\t%s\n' "$name" "$*" >>"$OUT/gpu_requests_jobs.tsv"
}
request 'gres per node' -N 2 --gres=gpu:2
request 'gpus per node typed' -N 2 --gpus-per-node=h100:3
request 'gpus per job' --gpus=4
request 'gpus per job on two nodes' -N 2 --gpus=6
request 'gpus per task' -n 4 --gpus-per-task=2
request 'gpus per task typed' -n 3 --gpus-per-task=h100:1
request 'gpus per socket' -N 2 --sockets-per-node=2 --gpus-per-socket=1
request 'gpus per job and per node' -N 2 --gpus=4 --gpus-per-node=2
request 'array of gpus per job' --array=0-1 --gpus=2
request 'no gpu' -n 2
wait_until 10 "held reasons" has_reason 1
capture gpu_requests_

cd /
rm -rf "$WORK"
fresh_lab
echo "captured into $OUT"
