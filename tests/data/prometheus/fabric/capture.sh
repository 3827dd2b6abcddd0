#!/usr/bin/env bash
# Captures Prometheus's answers to NodeFabricQuery's query (query.promql; tst_node_fabric checks
# it is the one the code sends) from a running 22.05 lab, whose per-node node exporters read
# fixture /sys/class/infiniband and mount tables (lab/lab): healthy.json with every port up
# and /fsx on every node; faults.json after 'fault gpu-node02 fabric-down efa_1' and 'fault
# gpu-node04 mount-missing'. HTTP status beside each body in NAME.status.
#   tests/data/prometheus/fabric/capture.sh [LAB_DIR]      (default /tmp/strata-lab)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../../.." && pwd)"
lab_dir="${1:-/tmp/strata-lab}"
# shellcheck disable=SC1091
source "$lab_dir/lab.env"
lab() { "$repo/lab/lab" "$@" --dir "$lab_dir" >/dev/null; }
save() {
    curl -sS --max-time 10 -o "$here/$1" -w '%{http_code}\n' --data-urlencode "query@$here/query.promql" \
        "$STRATA_LAB_PROMETHEUS_URL/api/v1/query" >"$here/$1.status"
}
trap 'lab fault clear' EXIT
lab fault clear
sleep 8 # past the 2 s scrape and the 60 s rate window's first two points
save healthy.json
lab fault gpu-node02 fabric-down efa_1
lab fault gpu-node04 mount-missing
sleep 5
save faults.json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["data"]["result"]), "series")' "$here/faults.json"
