#!/usr/bin/env bash
# Captures real Prometheus HTTP API responses for the parser tests into
# tests/data/prometheus/strata-capture/. Starts Debian's prometheus on loopback with a temporary
# storage dir, scraping itself, a DCGM-shaped stand-in (a tiny python HTTP server serving the
# exporter's text format, two fake nodes) and one target that is down. Never overwrites files
# that exist unless --force is given.
#
#   tests/core/prometheus/capture_responses.sh [--force]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../data/prometheus/strata-capture"
force=0
[ "${1:-}" = "--force" ] && force=1
mkdir -p "$out"

port=19190
port2=19191
dcgm_port=19195
down_port=19196   # nothing listens here: its target is down
tmp=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT

cat >"$tmp/dcgm_standin.py" <<'EOF'
# DCGM-exporter stand-in: serves DCGM_FI_* series for two fake nodes, values that change per
# scrape. Node 1 uses the older `Hostname` label and an FQDN, node 2 the newer `hostname`.
import http.server, sys, time
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        t = int(time.time())
        lines = []
        nodes = [("Hostname", "gpu-node01.cluster.local", "101"), ("hostname", "gpu-node02", "")]
        for hl, host, job in nodes:
            for g in range(2):
                uuid = "GPU-%08x-0000-0000-0000-%012d" % (abs(hash(host)) % 2**32, g)
                labels = 'gpu="%d",UUID="%s",pci_bus_id="00000000:%02X:00.0",device="nvidia%d",' \
                         'modelName="NVIDIA H100 80GB HBM3",%s="%s",DCGM_FI_DRIVER_VERSION="550.54.15"' \
                         % (g, uuid, 0x18 + g, g, hl, host)
                if job:
                    labels += ',hpc_job="%s"' % job
                util = (t * 7 + g * 31) % 100
                lines += ['DCGM_FI_DEV_GPU_UTIL{%s} %d' % (labels, util),
                          'DCGM_FI_DEV_FB_USED{%s} %d' % (labels, 40000 + g),
                          'DCGM_FI_DEV_FB_FREE{%s} %d' % (labels, 41000 - g),
                          'DCGM_FI_DEV_GPU_TEMP{%s} %d' % (labels, 40 + g),
                          'DCGM_FI_DEV_POWER_USAGE{%s} %.3f' % (labels, 350.5 + g),
                          'DCGM_FI_DEV_SM_CLOCK{%s} 1980' % labels,
                          'DCGM_FI_DEV_XID_ERRORS{%s} %d' % (labels, 79 if (host == "gpu-node02" and g == 1) else 0),
                          'DCGM_FI_DEV_PCIE_REPLAY_COUNTER{%s} %d' % (labels, t % 1000),
                          'DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{%s} %.3f' % (labels, util / 100.0)]
        body = ("\n".join(lines) + "\n").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
EOF

cat >"$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: prometheus
    static_configs: [{ targets: ["127.0.0.1:$port"] }]
  - job_name: dcgm
    static_configs:
      - { targets: ["127.0.0.1:$dcgm_port"], labels: { node: gpu-node01 } }
      - { targets: ["127.0.0.1:$down_port"], labels: { node: gpu-node03 } }
EOF

python3 "$tmp/dcgm_standin.py" "$dcgm_port" & pids+=($!)
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
    --web.listen-address="127.0.0.1:$port" --log.level=warn 2>"$tmp/prom.log" & pids+=($!)
# A second instance with tiny limits, for the 422 (execution) and 503 (timeout) error bodies.
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data2" \
    --web.listen-address="127.0.0.1:$port2" --log.level=warn --query.max-samples=1 \
    2>"$tmp/prom2.log" & pids+=($!)

for _ in $(seq 50); do
    curl -sf "http://127.0.0.1:$port/-/ready" >/dev/null && curl -sf "http://127.0.0.1:$port2/-/ready" >/dev/null && break
    sleep 0.2
done
sleep 8   # some scrapes, so range queries have points

capture() { # name base path [curl args...]
    local name=$1 base=$2 path=$3; shift 3
    local file="$out/$name"
    if [ -e "$file" ] && [ $force = 0 ]; then echo "kept $name"; return; fi
    local code
    code=$(curl -s -o "$file" -w '%{http_code}' -G "$base$path" "$@")
    echo "$code $name"
}
b="http://127.0.0.1:$port"
now=$(date +%s)

capture vector_up.json "$b" /api/v1/query --data-urlencode 'query=up'
capture vector_empty.json "$b" /api/v1/query --data-urlencode 'query=no_such_metric'
capture matrix_up.json "$b" /api/v1/query_range --data-urlencode 'query=up{job="prometheus"}' \
    --data-urlencode "start=$((now - 6))" --data-urlencode "end=$now" --data-urlencode 'step=1'
capture matrix_empty.json "$b" /api/v1/query_range --data-urlencode 'query=no_such_metric' \
    --data-urlencode "start=$((now - 6))" --data-urlencode "end=$now" --data-urlencode 'step=1'
capture matrix_range_selector.json "$b" /api/v1/query --data-urlencode 'query=up{job="prometheus"}[3s]'
capture scalar_nan.json "$b" /api/v1/query --data-urlencode 'query=0/0'
capture scalar_pos_inf.json "$b" /api/v1/query --data-urlencode 'query=1/0'
capture scalar_neg_inf.json "$b" /api/v1/query --data-urlencode 'query=-1/0'
capture scalar_one.json "$b" /api/v1/query --data-urlencode 'query=scalar(vector(1.5))'
capture vector_nan.json "$b" /api/v1/query --data-urlencode 'query=up{job="prometheus"} * 0 / 0'
capture vector_pos_inf.json "$b" /api/v1/query --data-urlencode 'query=up{job="prometheus"} / 0'
capture vector_neg_inf.json "$b" /api/v1/query --data-urlencode 'query=-up{job="prometheus"} / 0'
capture string_result.json "$b" /api/v1/query --data-urlencode 'query="hello"'
capture error_400_bad_data.json "$b" /api/v1/query --data-urlencode 'query=sum(up'
capture error_400_too_many_points.json "$b" /api/v1/query_range --data-urlencode 'query=up' \
    --data-urlencode "start=$((now - 86400))" --data-urlencode "end=$now" --data-urlencode 'step=1'
capture error_422_execution.json "http://127.0.0.1:$port2" /api/v1/query_range --data-urlencode 'query=up' \
    --data-urlencode "start=$((now - 6))" --data-urlencode "end=$now" --data-urlencode 'step=1'
capture error_503_timeout.json "$b" /api/v1/query_range --data-urlencode 'query=up' \
    --data-urlencode "start=$((now - 6))" --data-urlencode "end=$now" --data-urlencode 'step=1' \
    --data-urlencode 'timeout=0.000000001'
capture error_404_not_found.txt "$b" /api/v1/querx --data-urlencode 'query=up'
capture vector_up_dcgm.json "$b" /api/v1/query --data-urlencode 'query=up{job="dcgm"}'
capture vector_dcgm_all.json "$b" /api/v1/query \
    --data-urlencode 'query={__name__=~"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED|DCGM_FI_DEV_FB_FREE|DCGM_FI_DEV_GPU_TEMP|DCGM_FI_DEV_POWER_USAGE|DCGM_FI_DEV_SM_CLOCK|DCGM_FI_DEV_XID_ERRORS|DCGM_FI_DEV_PCIE_REPLAY_COUNTER|DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"}'
capture vector_dcgm_util.json "$b" /api/v1/query --data-urlencode 'query=DCGM_FI_DEV_GPU_UTIL'
capture matrix_dcgm_util.json "$b" /api/v1/query_range --data-urlencode 'query=DCGM_FI_DEV_GPU_UTIL' \
    --data-urlencode "start=$((now - 6))" --data-urlencode "end=$now" --data-urlencode 'step=2'
capture vector_pcie_replay_increase.json "$b" /api/v1/query \
    --data-urlencode 'query=increase(DCGM_FI_DEV_PCIE_REPLAY_COUNTER[5s])'
# The exact queries of MetricsQueryPlan (default options; tst_metrics_query_plan pins them).
by='Hostname, hostname, node, instance, gpu, UUID, modelName, hpc_job, pod, namespace'
gauges='DCGM_FI_DEV_GPU_UTIL|DCGM_FI_PROF_PIPE_TENSOR_ACTIVE|DCGM_FI_DEV_MEM_COPY_UTIL|DCGM_FI_DEV_FB_USED|DCGM_FI_DEV_FB_FREE|DCGM_FI_DEV_GPU_TEMP|DCGM_FI_DEV_MEMORY_TEMP|DCGM_FI_DEV_POWER_USAGE|DCGM_FI_DEV_SM_CLOCK|DCGM_FI_DEV_MEM_CLOCK|DCGM_FI_DEV_XID_ERRORS|DCGM_FI_DEV_PCIE_REPLAY_COUNTER|DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS|DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS|DCGM_FI_DEV_ROW_REMAP_FAILURE'
capture vector_plan_gauges.json "$b" /api/v1/query \
    --data-urlencode "query=max by (__name__, $by) ({__name__=~\"$gauges\"})"
capture vector_plan_pcie_increase.json "$b" /api/v1/query \
    --data-urlencode "query=max by ($by) (increase({__name__=\"DCGM_FI_DEV_PCIE_REPLAY_COUNTER\"}[10m]))"
capture vector_plan_targets.json "$b" /api/v1/query --data-urlencode 'query=up{job=~".*dcgm.*"}'
capture matrix_plan_usage.json "$b" /api/v1/query_range \
    --data-urlencode 'query=max by (__name__, Hostname, hostname, node, instance, gpu, hpc_job, pod, namespace) ({__name__=~"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED"})' \
    --data-urlencode "start=$((now - 6))" --data-urlencode "end=$now" --data-urlencode 'step=1'
