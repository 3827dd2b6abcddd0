#!/usr/bin/env bash
# Captures Prometheus's answer to AppMetricsQuery's query (query.promql; tst_app_metrics checks
# it is the one the code sends) from a running 22.05 lab while the jobs test_app_metrics.sh submits run:
# the real PyTorch DDP job (strata_train_* from train_ddp.py) and the vLLM metrics stand-in
# (serving_standin.py), each announced with its Slurm job id (hpc_job).
#   tests/data/prometheus/app/capture.sh [LAB_DIR] NAME      (default /tmp/strata-lab, running.json)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
lab_dir="${1:-/tmp/strata-lab}"
name="${2:-running.json}"
# shellcheck disable=SC1091
source "$lab_dir/lab.env"
curl -sS --max-time 10 -o "$here/$name" -w '%{http_code}\n' --data-urlencode "query@$here/query.promql" \
    "$STRATA_LAB_PROMETHEUS_URL/api/v1/query" >"$here/$name.status"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["data"]["result"]), "series")' "$here/$name"
