#!/usr/bin/env bash
# Captures REAL Prometheus 2.42 answers to Strata's own refresh queries (MetricsQueryPlan: the
# gauges, the exporter targets, the usage range; their PromQL in *.promql, which
# tst_metrics_lab_styles checks against the plan) from the lab, whose DCGM stand-in deploys each
# node's exporter another way (lab/lib/prometheus.sh DCGM_STYLE). Needs the lab up without jobs;
# leaves it so.
# Usage: tests/data/prometheus/lab-styles/capture.sh [LAB_DIR [BUILD_DIR]]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../../.." && pwd)"
LAB_DIR="${1:-/tmp/strata-lab}"
BUILD_ARGS=()
[ -z "${2:-}" ] || BUILD_ARGS=(--strata-build "$2")
lab() { "$REPO/lab/lab" "$@" --dir "$LAB_DIR" "${BUILD_ARGS[@]}"; }
die() { echo "capture: $*" >&2; exit 1; }

lab up >/dev/null
eval "$(lab env)"
PROM="$STRATA_LAB_PROMETHEUS_URL"
[ -z "$(squeue -h -o %i)" ] || die "the lab has jobs; cancel them (or lab/lab down && up) first"
jobs=()
trap '[ ${#jobs[@]} -eq 0 ] || scancel "${jobs[@]}" 2>/dev/null || true' EXIT

value() {
    curl -s "$PROM/api/v1/query" -G --data-urlencode "query=$1" |
        python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")'
}
wait_for() {  # wait_for QUERY EXPECTED_VALUE
    local v=""
    for _ in $(seq 1 60); do
        v="$(value "$1")"
        [ "$v" = "$2" ] && return 0
        sleep 0.5
    done
    die "'$1' never became $2 (last: '$v')"
}

# gpu-node02 (GPU Operator style): 2 GPUs; gpu-node04 (hpc_job, GPU 0 in MIG mode): GPU 0.
jobs+=("$(sbatch --parsable -J capture-operator --gres=gpu:2 -w gpu-node02 -o /dev/null --wrap 'sleep 600')")
jobs+=("$(sbatch --parsable -J capture-mig --gres=gpu:1 -w gpu-node04 -o /dev/null --wrap 'sleep 600')")
wait_for 'count(DCGM_FI_DEV_GPU_UTIL >= 85) + count(DCGM_FI_PROF_GR_ENGINE_ACTIVE{GPU_I_ID!=""} > 0.8)' 3
sleep 10   # a little history for the range query
started="$(date +%s)"
printf '%s\n' "operator ${jobs[0]}" "mig ${jobs[1]}" >"$HERE/jobs.txt"
for j in "${jobs[@]}"; do scontrol show job -d -o "$j" | grep -o 'GRES=gpu:[^ ]*' | sed "s/^/$j /" >>"$HERE/jobs.txt"; done

get() { curl -sf --max-time 10 "$PROM/api/v1/$1" -G "${@:2}"; }
get query --data-urlencode "query=$(cat "$HERE/gauges.promql")" >"$HERE/gauges.json"
get query --data-urlencode "query=$(cat "$HERE/targets.promql")" >"$HERE/targets.json"
get query_range --data-urlencode "query=$(cat "$HERE/usage.promql")" \
    --data-urlencode "start=$((started - 20))" --data-urlencode "end=$started" --data-urlencode "step=5" >"$HERE/usage.json"
echo "captured into $HERE (jobs: ${jobs[*]})"
