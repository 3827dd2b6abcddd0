#!/usr/bin/env bash
# Captures the three history range answers (HistoryQueryPlan's PromQL: utilisation, memory,
# power over each step, `max by` the labels the join reads) from a real Prometheus around one
# finished Slurm job, with the job as sacct recorded it, for tst_job_efficiency_lab_capture.
# Run it against a lab whose DCGM stand-in honoured the job's --comment=strata-lab-gpu-util=N:
#
#   source build-h/lab-state/lab.env
#   tests/core/prometheus/capture_history.sh JOBID tests/data/prometheus/history/lab-22.05 [STEP]
#
# Writes util.json, memory.json, power.json (the API's bodies as they came) and job.txt (sacct's
# row: JobID|Start|End|NodeList|AllocTRES|Comment, UTC) into the directory; the period is the
# job's run padded by three steps each side, so the answers hold the GPUs' previous and next
# holders too.
set -euo pipefail
job="$1"
out="$2"
step="${3:-60}"
url="${STRATA_LAB_PROMETHEUS_URL:-http://127.0.0.1:19090}"
mkdir -p "$out"
row="$(env TZ=UTC0 SLURM_TIME_FORMAT=%s sacct -X -n -P -j "$job" --format=JobID,Start,End,NodeList,AllocTRES,Comment)"
IFS='|' read -r _ start end _ _ _ <<<"$row"
if [ -z "$start" ] || [ "$end" = "Unknown" ]; then
    echo "job $job has not finished: $row" >&2
    exit 1
fi
printf '%s\n' "$row" > "$out/job.txt"
from=$((start - 3 * step))
to=$((end + 4 * step))
labels='Hostname, hostname, node, kubernetes_node, instance, gpu, hpc_job, pod, namespace, exported_pod, exported_namespace'
query() { # NAME FUNCTION METRIC
    curl -sS --fail-with-body -m 30 "$url/api/v1/query_range" \
        --data-urlencode "query=max by ($labels) ($2($3{GPU_I_ID=\"\"}[${step}s]))" \
        --data-urlencode "start=$((from + step))" --data-urlencode "end=$to" --data-urlencode "step=$step" > "$out/$1.json"
}
query util avg_over_time DCGM_FI_DEV_GPU_UTIL
query memory max_over_time DCGM_FI_DEV_FB_USED
query power avg_over_time DCGM_FI_DEV_POWER_USAGE
echo "period $from..$to step $step: $(wc -c < "$out/util.json") + $(wc -c < "$out/memory.json") + $(wc -c < "$out/power.json") bytes in $out"
