#!/usr/bin/env bash
# Captures history range answers (HistoryQueryPlan's PromQL) from a real Prometheus started
# here, scraping (every second) a DCGM-shaped stand-in with a known timeline on gpu-node01:
#   GPUs 0 and 1: job 501 (hpc_job="501") from +40 s to +100 s at 37 +-2 %, 30,000 MiB, 250 +-5 W;
#                 before and after, another holder (no job label) at 90 %, 70,000 MiB, 600 W;
#   GPUs 2 and 3: idle all along (0 %, 0 MiB, 60 W).
# Answers at a 10-s step over +10..+140 s into tests/data/prometheus/history/local/ (util.json,
# memory.json, power.json, job.txt as capture_history.sh writes it). For
# tst_job_efficiency_lab_capture; about 2.5 minutes. Never overwrites without --force.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../data/prometheus/history/local"
[ "${1:-}" = "--force" ] || [ ! -e "$out/util.json" ] || { echo "$out exists (--force to replace)" >&2; exit 1; }
mkdir -p "$out"
port=19290
exporter_port=19295
tmp=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT
t0=$(date +%s)
cat >"$tmp/standin.py" <<'PY'
import http.server, random, sys, time
t0 = int(sys.argv[2])
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        now = time.time() - t0
        job = 40 <= now < 100
        lines = []
        for g in range(4):
            labels = f'gpu="{g}",Hostname="gpu-node01",UUID="GPU-{g}"'
            if g < 2 and job:
                labels += ',hpc_job="501"'
                util, mem, power = 37 + random.randint(-2, 2), 30000, 250 + random.randint(-5, 5)
            elif g < 2:
                util, mem, power = 90, 70000, 600
            else:
                util, mem, power = 0, 0, 60
            lines += [f'DCGM_FI_DEV_GPU_UTIL{{{labels}}} {util}', f'DCGM_FI_DEV_FB_USED{{{labels}}} {mem}',
                      f'DCGM_FI_DEV_POWER_USAGE{{{labels}}} {power}']
        body = ("\n".join(lines) + "\n").encode()
        self.send_response(200); self.send_header("Content-Type", "text/plain"); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
python3 "$tmp/standin.py" "$exporter_port" "$t0" & pids+=($!)
cat >"$tmp/prometheus.yml" <<YML
global: {scrape_interval: 1s, evaluation_interval: 1s}
scrape_configs:
  - job_name: dcgm
    static_configs: [{targets: ["127.0.0.1:$exporter_port"]}]
YML
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
    --web.listen-address="127.0.0.1:$port" --log.level=warn >"$tmp/prometheus.log" 2>&1 & pids+=($!)
sleep $((t0 + 145 - $(date +%s)))
printf '501|%s|%s|gpu-node01|billing=2,cpu=2,gres/gpu=2,node=1|strata-lab-gpu-util=37\n' $((t0 + 40)) $((t0 + 100)) > "$out/job.txt"
labels='Hostname, hostname, node, kubernetes_node, instance, gpu, hpc_job, pod, namespace, exported_pod, exported_namespace'
query() { # NAME FUNCTION METRIC
    curl -sS --fail-with-body -m 30 "http://127.0.0.1:$port/api/v1/query_range" \
        --data-urlencode "query=max by ($labels) ($2($3{GPU_I_ID=\"\"}[10s]))" \
        --data-urlencode "start=$((t0 + 10))" --data-urlencode "end=$((t0 + 140))" --data-urlencode "step=10" > "$out/$1.json"
}
query util avg_over_time DCGM_FI_DEV_GPU_UTIL
query memory max_over_time DCGM_FI_DEV_FB_USED
query power avg_over_time DCGM_FI_DEV_POWER_USAGE
echo "t0 $t0: $(wc -c < "$out/util.json") + $(wc -c < "$out/memory.json") + $(wc -c < "$out/power.json") bytes in $out"
