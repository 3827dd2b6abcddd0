#!/usr/bin/env bash
# Captures REAL Prometheus 2.42 HTTP API responses from the lab (Debian's prometheus scraping the
# DCGM stand-in and the node exporter) into this folder. Needs the lab up and without jobs;
# leaves it without jobs or faults and with the stand-in's default flags.
# Usage: tests/data/prometheus/lab/capture.sh [LAB_DIR [BUILD_DIR]]
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
restore() {
    [ ${#jobs[@]} -eq 0 ] || scancel "${jobs[@]}" 2>/dev/null || true
    lab fault clear >/dev/null 2>&1 || true
    lab stop dcgm >/dev/null 2>&1 || true
    STRATA_LAB_DCGM_FLAGS='' lab start dcgm >/dev/null 2>&1 || true
}
trap restore EXIT

# get NAME PATH [CURL ARGS...]: body to NAME, HTTP status to NAME.status (only when not 200).
get() {
    local name="$1" path="$2"; shift 2
    local status
    status="$(curl -s -o "$HERE/$name" -w '%{http_code}' --max-time 10 "$PROM$path" "$@")"
    if [ "$status" = 200 ]; then rm -f "$HERE/$name.status"; else echo "$status" >"$HERE/$name.status"; fi
}
query() { local name="$1"; shift; get "$name" /api/v1/query -G --data-urlencode "query=$1" "${@:2}"; }
wait_for() {  # wait_for QUERY EXPECTED_VALUE
    local v=""
    for _ in $(seq 1 60); do
        v="$(curl -s "$PROM/api/v1/query" -G --data-urlencode "query=$1" |
            /usr/bin/python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")')"
        [ "$v" = "$2" ] && return 0
        sleep 0.5
    done
    die "'$1' never became $2 (last: '$v')"
}

# The stand-in with the Slurm job-mapping label, as dcgm-exporter runs with a job-mapping dir.
lab stop dcgm >/dev/null
STRATA_LAB_DCGM_FLAGS=--hpc-job-label lab start dcgm >/dev/null
wait_for 'count(up{job="dcgm"} == 1)' 4

jobs+=("$(sbatch --parsable -J capture-8gpu --gres=gpu:8 -w gpu-node01 -o /dev/null --wrap 'sleep 600')")
jobs+=("$(sbatch --parsable -J capture-4gpu --gres=gpu:4 -w gpu-node03 -o /dev/null --wrap 'sleep 600')")
wait_for 'count(DCGM_FI_DEV_GPU_UTIL >= 85)' 12
sleep 20   # history for the range query

now="$(date +%s)"
query vector_gpu_util_32.json 'DCGM_FI_DEV_GPU_UTIL'
query vector_one_gpu_all_fields.json '{__name__=~"DCGM_.*",node="gpu-node03",gpu="0"}'
query vector_busy_gpus_by_job.json 'count by (hpc_job, node) (DCGM_FI_DEV_GPU_UTIL >= 85)'
query vector_empty.json 'DCGM_FI_DEV_XID_ERRORS > 0'
query vector_nan.json 'DCGM_FI_DEV_GPU_UTIL{node="gpu-node02"} * 0 / 0'
query scalar_nan.json '0/0'
get matrix_gpu_util_node03.json /api/v1/query_range -G --data-urlencode 'query=DCGM_FI_DEV_GPU_UTIL{node="gpu-node03"}' \
    --data-urlencode "start=$((now - 20))" --data-urlencode "end=$now" --data-urlencode step=5
get matrix_empty.json /api/v1/query_range -G --data-urlencode 'query=DCGM_FI_DEV_XID_ERRORS > 0' \
    --data-urlencode "start=$((now - 20))" --data-urlencode "end=$now" --data-urlencode step=5
query error_bad_promql.json 'sum(DCGM_FI_DEV_GPU_UTIL'
get error_bad_range_step.json /api/v1/query_range -G --data-urlencode 'query=up' \
    --data-urlencode "start=$now" --data-urlencode "end=$((now - 60))" --data-urlencode step=5

# Faults: an Xid, then one node's exporter down.
lab fault gpu-node02 3 xid 79 >/dev/null
lab fault gpu-node04 5 missing >/dev/null
lab fault gpu-node01 exporter-down >/dev/null
wait_for 'up{job="dcgm",node="gpu-node01"}' 0
wait_for 'count(DCGM_FI_DEV_GPU_UTIL)' 23
query vector_xid.json 'DCGM_FI_DEV_XID_ERRORS > 0'
query vector_up_one_dcgm_down.json 'up'
query vector_gpu_util_node_down_and_missing.json 'DCGM_FI_DEV_GPU_UTIL'
get targets_one_down.json /api/v1/targets
lab fault clear >/dev/null

# The newer exporters' lower-case host label.
lab stop dcgm >/dev/null
STRATA_LAB_DCGM_FLAGS='--host-label hostname' lab start dcgm >/dev/null
wait_for 'count(DCGM_FI_DEV_GPU_UTIL{hostname!=""})' 32
query vector_gpu_util_hostname_label.json 'DCGM_FI_DEV_GPU_UTIL{hostname!=""}'
curl -s "http://127.0.0.1:19401/metrics" >"$HERE/dcgm_standin_metrics_gpu-node01.txt"
prometheus --version 2>&1 | head -n 1 >"$HERE/version.txt"
echo "captured into $HERE"
