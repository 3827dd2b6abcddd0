#!/usr/bin/env bash
# Captures REAL outputs of one Slurm release from the lab into tests/data/slurm/VERSION/, the same
# scenario and commands for every version, so parsers can be tested side by side:
#   tests/data/slurm/capture_versions.sh VERSION LAB_DIR [BUILD_DIR]    VERSION: 22.05 | 24.11
# It restarts the lab in LAB_DIR (down + up --slurm VERSION, so job IDs start at 1), builds the
# state described in VERSION/README.md, captures, records errors, and leaves the lab clean.
# A lab of your own only (it cancels everything); run it in a private network namespace while
# another lab runs (see tests/core/slurm/capture_marker.sh). About 1 minute.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
LAB="$REPO/lab/lab"
VERSION="${1:?usage: capture_versions.sh VERSION LAB_DIR [BUILD_DIR]}"
LAB_DIR="${2:?usage: capture_versions.sh VERSION LAB_DIR [BUILD_DIR]}"
BUILD_ARGS=()
[ -z "${3:-}" ] || BUILD_ARGS=(--strata-build "$3")
OUT="$HERE/$VERSION"
# The record marker SlurmSource puts before each squeue record (random there, fixed here) and
# the fields of SqueueParser::formatArgument.
MARKER='<<strata:9f3c2a7b61d04e58>>'
FIELDS=$'%i\x1f%A\x1f%F\x1f%K\x1f%u\x1f%T\x1f%r\x1f%P\x1f%N\x1f%M\x1f%l\x1f%V\x1f%S\x1f%b\x1f%D\x1f%j'

die() { echo "capture: $*" >&2; exit 1; }
lab() { "$LAB" "$@" --slurm "$VERSION" --dir "$LAB_DIR" "${BUILD_ARGS[@]}"; }
# The 22.05 lab's 'up' fails at the end if the DCGM stand-in is not built; Slurm is what counts.
fresh_lab() {
    lab down >/dev/null
    lab up >/dev/null && return 0
    local status
    status="$(lab status || true)"   # (not piped into grep -q: under pipefail that fails at random)
    grep -q '^slurmctld *up' <<<"$status" || die "lab up failed: $status"
}

fresh_lab
eval "$(lab env)"   # SLURM_CONF, and for 24.11 PATH with the version's own client tools first
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

# record NAME CMD...: stdout, stderr, exit status and the command itself, under OUT/commands/.
record() {
    local name="$1"; shift
    mkdir -p "$OUT/commands"
    printf '%q ' "$@" | sed 's/ $/\n/' >"$OUT/commands/$name.cmd"
    local rc=0
    "$@" >"$OUT/commands/$name.stdout" 2>"$OUT/commands/$name.stderr" || rc=$?
    echo "$rc" >"$OUT/commands/$name.rc"
    [ -s "$OUT/commands/$name.stdout" ] || rm -f "$OUT/commands/$name.stdout"
    [ -s "$OUT/commands/$name.stderr" ] || rm -f "$OUT/commands/$name.stderr"
}

# capture_state PREFIX: every read-only command Strata (or its parsers) may use. A command this
# release lacks (22.05: scontrol --json) is recorded with its error instead (PREFIX*.error).
capture_state() {
    local p="$1" name
    try() {   # try FILE CMD...: stdout to FILE, or FILE.error (stderr + exit status) if it fails
        local f="$1"; shift
        local rc=0
        "$@" >"$f" 2>"$f.stderr" || rc=$?
        if [ $rc -ne 0 ]; then
            { printf '$ '; printf '%q ' "$@"; printf '\nexit %d\n' "$rc"; cat "$f.stderr"; } >"$f.error"
            rm -f "$f"
        fi
        rm -f "$f.stderr"
    }
    try "${p}sinfo.json" sinfo --json
    try "${p}sinfo_N.json" sinfo -N --json
    try "${p}scontrol_show_nodes.json" scontrol show nodes --json
    try "${p}scontrol_show_node_o.txt" scontrol show node -o
    try "${p}scontrol_show_node_d_o.txt" scontrol show node -d -o
    try "${p}scontrol_show_partition_o.txt" scontrol show partition -o
    try "${p}scontrol_show_partition.json" scontrol show partition --json
    try "${p}squeue.json" squeue --json
    try "${p}squeue_marker.txt" squeue -h -a -r --states=all -o "$MARKER$FIELDS"
    try "${p}scontrol_show_job_d_o.txt" scontrol show job -d -o
    try "${p}scontrol_show_jobs.json" scontrol show jobs --json
    try "${p}scontrol_show_step_o.txt" scontrol show step -o
    try "${p}sinfo_nodes_gres_used.txt" sinfo -h -N -O 'NodeList:|,StateLong:|,Partition:|,Gres:|,GresUsed:|,Features:|,CPUsState:|,Memory:|,AllocMem:|,Reason:|'
}

mkdir -p "$OUT"; find "$OUT" -mindepth 1 ! -name README.md -delete   # README.md is written by hand
mkdir -p "$OUT"
printf '%s' "$MARKER" >"$OUT/marker.txt"
scontrol version >"$OUT/scontrol_version.txt"
sinfo --version >"$OUT/sinfo_version.txt"

# ---- an idle cluster without jobs
capture_state "$OUT/idle_"

# ---- the main scenario (ids in submission order, see README.md)
submit() { sbatch --parsable "$@"; }
HOSTILE=$'hostile "double" \'single\' a\x1fb $(id) `id`\nsecond line'
HELD_HOSTILE=$'held\nJobState=RUNNING Nodes=gpu-node04 GRES=gpu:8(IDX:0-7) \x1f\x1e end'
sbatch -J 'gres two' --gres=gpu:2 -w gpu-node01 --wrap 'sleep 100000' >"$OUT/sbatch.stdout"   # 1
gres2="$(awk '{print $4}' "$OUT/sbatch.stdout")"
gpus3="$(submit -J 'gpus three' -N 1 --gpus=3 -w gpu-node03 --wrap 'sleep 100000')"                 # 2
submit -J 'gpus per task' -N 1 --gpus-per-task=1 -n 2 -w gpu-node02 --wrap 'srun sleep 100000' >"$OUT/sbatch_parsable.stdout"  # 3
per_task="$(cat "$OUT/sbatch_parsable.stdout")"
two_node="$(submit -J 'two nodes' -N 2 -w 'gpu-node[01-02]' --gres=gpu:1 --ntasks-per-node=1 \
    --wrap 'srun sleep 100000')"                                                              # 4
hostile="$(submit -J "$HOSTILE" --gres=gpu:1 -w gpu-node03 --wrap 'sleep 100000')"             # 5
pend_gres="$(submit -J 'pending gres' --gres=gpu:8 -w gpu-node01 --wrap 'sleep 100000')"       # 6
pend_gpus="$(submit -J 'pending gpus' -N 1 --gpus=8 -w gpu-node03 --wrap 'sleep 100000')"            # 7
pend_task="$(submit -J 'pending gpus per task' -N 1 --gpus-per-task=2 -n 4 -w gpu-node02 --wrap 'srun sleep 100000')"  # 8
held="$(submit -H -J "$HELD_HOSTILE" --gres=gpu:1 --wrap true)"                                # 9
done_job="$(submit -J 'completes' --wrap true)"                                                # 10
scontrol update nodename=gpu-node04 state=drain reason="Action:Reboot xid=79 GPU 3 fell off the bus"

for id in "$gres2" "$gpus3" "$per_task" "$two_node" "$hostile"; do wait_until 20 "job $id running" job_is "$id" RUNNING; done
for id in "$pend_gres" "$pend_gpus" "$pend_task" "$held"; do wait_until 20 "pending reason of $id" has_reason "$id"; done
wait_until 20 "job $done_job completed" job_is "$done_job" COMPLETED
sleep 3   # one more backfill pass so every pending job carries its reason
last_id="$(squeue -h --states=all -o '%A' | sort -n | tail -n 1)"
[ "$last_id" -eq 10 ] || die "job IDs up to $last_id: someone else submitted jobs to this lab meanwhile"

capture_state "$OUT/"
# What SlurmSource asks for new running jobs: one scontrol per job, each after "MARKER ID".
for id in $(squeue -h -r -t RUNNING -o '%i' | sort -n); do
    printf '%s %s\n' "$MARKER" "$id"
    scontrol show job -d -o "$id"
done >"$OUT/scontrol_per_job.txt"
# The hostile names, hex-encoded ("id<TAB>hex"), so tests can compare bytes.
printf '%s\t%s\n%s\t%s\n' "$hostile" "$(printf '%s' "$HOSTILE" | od -An -tx1 -v | tr -d ' \n')" \
    "$held" "$(printf '%s' "$HELD_HOSTILE" | od -An -tx1 -v | tr -d ' \n')" >"$OUT/hostile_names.tsv"

# ---- actions and errors
record scancel_success scancel -v "$pend_gres"
record scancel_unknown_job scancel -v 999999
record scancel_bad_job_id scancel notanumber
record sbatch_bad_partition sbatch --parsable -p nosuch --wrap true
record sbatch_bad_node sbatch --parsable -w gpu-node99 --wrap true
record sbatch_too_many_gpus sbatch --parsable --gres=gpu:9 --wrap true
record sbatch_bad_gres_type sbatch --parsable --gres=gpu:a100:1 --wrap true
record scontrol_drain_success scontrol update NodeName=gpu-node03 State=DRAIN Reason='capture test'
record scontrol_resume_success scontrol update NodeName=gpu-node03 State=RESUME
# What the node says about the reason once resumed (24.11 keeps it, 22.05 clears it), after
# the controller's ping that follows a resume (the node reads NOT_RESPONDING until then).
node_responds() { [[ "$(sinfo -h -N -n "$1" -o '%T' | head -n 1)" != *'*' ]]; }
wait_until 20 "gpu-node03 responding after resume" node_responds gpu-node03
record after_resume_scontrol_show_node_o scontrol show node -o gpu-node03
record after_resume_scontrol_show_node_json scontrol show node --json gpu-node03
record after_resume_sinfo sinfo -h -N -n gpu-node03 -o '%T|%E'
record scontrol_drain_unknown_node scontrol update NodeName=gpu-node99 State=DRAIN Reason=test
record scontrol_show_job_unknown scontrol show job 999999
lab stop slurmctld
record ctld_down_scontrol_show_partition scontrol show partition -o
record ctld_down_sinfo_json sinfo --json
record ctld_down_scontrol_show_nodes_json scontrol show nodes --json
record ctld_down_squeue squeue -h -a -r --states=all -o "$MARKER$FIELDS"
record ctld_down_scontrol_ping scontrol ping
lab start slurmctld
lab stop munged
record munge_down_sinfo sinfo -h
lab start munged

cd /
rm -rf "$WORK"
fresh_lab
echo "captured Slurm $(cat "$OUT/scontrol_version.txt") into $OUT"
