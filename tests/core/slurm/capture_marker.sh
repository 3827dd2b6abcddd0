#!/usr/bin/env bash
# Captures REAL Slurm 22.05 outputs in the formats SlurmSource asks for (squeue with a record
# marker, scontrol show job -d -o, sinfo --json) from a lab holding hostile job names, into
# tests/data/slurm/marker/. squeue --json of the same moment is kept as the oracle: it escapes
# names correctly and lists each job's per-node GPU indices (gres_detail).
#
# Usage: tests/core/slurm/capture_marker.sh LAB_DIR   (a lab of your own: it restarts it)
# Never point it at a lab someone else is using. Takes about 20 s. The lab's ports are fixed;
# while another lab runs, use a private network namespace with a second loopback address
# (glibc's AI_ADDRCONFIG ignores 127.0.0.1 itself, and Slurm then cannot resolve it):
#   ip netns add strata-capture && ip netns exec strata-capture ip link set lo up
#   ip netns exec strata-capture ip addr add 127.0.0.2/8 dev lo
#   ip netns exec strata-capture tests/core/slurm/capture_marker.sh /tmp/strata-lab-capture
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
LAB="$REPO/scripts/lab"
LAB_DIR="${1:?usage: capture_marker.sh LAB_DIR}"
OUT="$REPO/tests/data/slurm/marker"
MARKER='<<strata:9f3c2a7b61d04e58>>'   # as SlurmSource makes them, fixed here for the tests
FIELDS=$'%i\x1f%A\x1f%F\x1f%K\x1f%u\x1f%T\x1f%r\x1f%P\x1f%N\x1f%M\x1f%l\x1f%V\x1f%S\x1f%b\x1f%D\x1f%j'

die() { echo "capture_marker: $*" >&2; exit 1; }
lab() { "$LAB" "$@" --dir "$LAB_DIR"; }
lab down >/dev/null
lab up >/dev/null
eval "$(lab env)"
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

submit() { sbatch --parsable "$@"; }
had_probe=no; [ ! -e /tmp/x ] || had_probe=yes
# Names chosen to break every naive reader: shell metacharacters, a trailing newline, a forged
# record marker, forged scontrol keys (placements on other nodes), separators, unicode.
EVIL=$'evil $(touch /tmp/x); `id` "q" \'s\' | \t \xc3\xbcn\xc3\xaf\n'
FORGED_MARKER=$'x\n<<strata:0000000000000000>>999\x1f999\x1f999\x1fN/A\x1froot\x1fRUNNING\x1fNone\x1ftrain\x1fgpu-node04\x1f0:01\x1fUNLIMITED\x1fN/A\x1fN/A\x1fgres:gpu:8\x1f1\x1fforged'
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

mkdir -p "$OUT"
squeue -h -a -r --states=all -o "$MARKER$FIELDS" >"$OUT/hostile_squeue_marker.txt"
scontrol show job -d -o >"$OUT/hostile_scontrol_show_job_d_o.txt"
squeue --json >"$OUT/hostile_squeue.json"
sinfo --json >"$OUT/hostile_sinfo.json"
scontrol show partition -o >"$OUT/hostile_scontrol_show_partition_o.txt"
printf '%s' "$MARKER" >"$OUT/marker.txt"
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

cd /
rm -rf "$WORK"
lab down >/dev/null
lab up >/dev/null
echo "captured into $OUT"
