#!/usr/bin/env bash
# Captures Prometheus's /api/v1/alerts from the lab (Debian 12's Prometheus 2.42 and the lab's
# rule file, lab/lab: GpuTemperatureHigh = DCGM_FI_DEV_GPU_TEMP > 85) for tst_alerts:
#   tests/data/prometheus/alerts/capture.sh LAB_DIR
# Needs a running lab with no faults; leaves none.
set -euo pipefail
lab_dir=${1:?usage: capture.sh LAB_DIR}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
lab="$repo/lab/lab"
url=http://127.0.0.1:19090
get() { curl -sS -o "$here/$2" -w '%{http_code}\n' "$url$1" > "$here/$2.status"; }
"$lab" fault clear --dir "$lab_dir" >/dev/null
sleep 6 # two evaluations after the last fault went away
get /api/v1/alerts none.json
"$lab" fault --dir "$lab_dir" gpu-node02 5 hot 95 >/dev/null
"$lab" fault --dir "$lab_dir" gpu-node04 3 hot 91 >/dev/null
for _ in $(seq 30); do
    [ "$(curl -s "$url/api/v1/alerts" | grep -o '"state":"firing"' | wc -l)" -ge 2 ] && break
    sleep 1
done
get /api/v1/alerts firing.json
# A path that is not the API (a wrong base URL): Prometheus's plain-text 404.
get /api/v1/alertz not_found.txt
"$lab" fault clear --dir "$lab_dir" >/dev/null
