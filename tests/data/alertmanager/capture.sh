#!/usr/bin/env bash
# Captures real Alertmanager API v2 answers from a running lab (lab/lab up: Debian 12's
# prometheus-alertmanager 0.25, fed by the lab's Prometheus and its GpuTemperatureHigh rule)
# into this directory, for tst_alertmanager. Each body exactly as the server sent it, its HTTP
# status beside it in NAME.status (as tests/data/prometheus/alerts/ does).
#   tests/data/alertmanager/capture.sh [LAB_DIR]      (default /tmp/strata-lab)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
lab_dir="${1:-/tmp/strata-lab}"
# shellcheck disable=SC1091
source "$lab_dir/lab.env"
am="$STRATA_LAB_ALERTMANAGER_URL/api/v2"
lab() { "$repo/lab/lab" "$@" --dir "$lab_dir" >/dev/null; }
get() { curl -sS --max-time 5 "$@"; }
# save NAME CURL_ARGS...: the body to NAME, the status to NAME.status.
save() { curl -sS --max-time 5 -o "$here/$1" -w '%{http_code}\n' "${@:2}" >"$here/$1.status"; }
post() { save "$1" -H 'Content-Type: application/json' -X POST "$am/silences" -d "$2"; }
trap 'lab fault clear' EXIT

lab fault clear
for _ in $(seq 60); do [ "$(get "$am/alerts")" = "[]" ] && break; sleep 1; done
save alerts-none.json "$am/alerts"

# Two hot GPUs on nodes whose exporters are labelled differently (static `node`; hostname).
lab fault gpu-node03 6 hot 95
lab fault gpu-node01 2 hot 92
for _ in $(seq 60); do [ "$(get "$am/alerts" | grep -o GpuTemperatureHigh | wc -l)" = 2 ] && break; sleep 1; done
save alerts-firing.json "$am/alerts"

now="$(date -u +%Y-%m-%dT%H:%M:%S.000Z)"; later="$(date -u -d '+2 hours' +%Y-%m-%dT%H:%M:%S.000Z)"
post silence-created.json "{\"matchers\":[
    {\"name\":\"alertname\",\"value\":\"GpuTemperatureHigh\",\"isRegex\":false,\"isEqual\":true},
    {\"name\":\"gpu\",\"value\":\"6\",\"isRegex\":false,\"isEqual\":true}],
  \"startsAt\":\"$now\",\"endsAt\":\"$later\",\"createdBy\":\"alice\",\"comment\":\"cooling fan swap, ticket OPS-4711\"}"
id="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["silenceID"])' "$here/silence-created.json")"
for _ in $(seq 30); do get "$am/alerts" | grep -q "$id" && break; sleep 1; done
save alerts-silenced.json "$am/alerts"
# Prometheus's own view of the same moment, for the join (AlertMerge).
save prometheus-alerts-silenced.json "$STRATA_LAB_PROMETHEUS_URL/api/v1/alerts"
save silences-active.json "$am/silences"

save silence-expired.txt -X DELETE "$am/silence/$id"
save silences-expired.json "$am/silences"

post silence-no-matchers.json "{\"matchers\":[],\"startsAt\":\"$now\",\"endsAt\":\"$later\",\"createdBy\":\"alice\",\"comment\":\"x\"}"
post silence-ends-before-start.txt "{\"matchers\":[{\"name\":\"alertname\",\"value\":\"X\",\"isRegex\":false,\"isEqual\":true}],
    \"startsAt\":\"$later\",\"endsAt\":\"$now\",\"createdBy\":\"alice\",\"comment\":\"x\"}"
save expire-not-found.json -X DELETE "$am/silence/00000000-0000-0000-0000-000000000000"
save expire-not-uuid.json -X DELETE "$am/silence/nonsense"
head -c 200 "$here"/*.status "$here"/silence-*.txt "$here"/expire-*.json
