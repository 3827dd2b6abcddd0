#!/usr/bin/env bash
# Application workloads in the 22.05 lab (its hosts run the jobs: Debian 12's python3-torch and
# python3-prometheus-client): a REAL PyTorch DDP training run on CPU (gloo), torchrun on 2
# nodes x 2 processes (lab/app_workloads/train_job.sh, train_ddp.py), and the vLLM metrics
# stand-in (serve_job.sh: vLLM's names, no model). `strata snapshot` detects the first as
# torch.distributed with world size 4 and the second as vLLM; each job announces its /metrics
# with its Slurm job id, and AppMetricsQuery's own query (tests/data/prometheus/app/
# query.promql; tst_app_metrics checks the code sends it) returns the training job's step
# time, samples/s and loss and the serving job's tokens/s, TTFT and requests under its hpc_job,
# and `strata snapshot` joins them to the jobs (jobs[].app).
# 22.05 only: the 24.11 root has no PyTorch, and 24.11's Command= has no arguments.
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
STRATA="$STRATA_BINARY_DIR/app/strata"
APP="$STRATA_SOURCE_DIR/lab/app_workloads"
query="$STRATA_SOURCE_DIR/tests/data/prometheus/app/query.promql"
mapfile -t connect < "$STRATA_LAB_DIR/connect.args"
[ -x /usr/bin/torchrun ] || fail "no torchrun: apt install python3-torch (scripts/install-deps)"

train="$(sbatch --parsable --job-name ddp-train --nodes 2 --ntasks-per-node 1 --gres=gpu:1 -o /dev/null \
    --export=ALL,STRATA_LAB_DIR="$STRATA_LAB_DIR" "$APP/train_job.sh" \
    torchrun --nnodes 2 --nproc_per_node 2 --redirects 1 --tee 1 "$APP/train_ddp.py" --step-interval 0.5)"
TEST_JOBS+=("$train")
serve="$(sbatch --parsable --job-name vllm-serve -p inference --gres=gpu:2 -o /dev/null \
    --export=ALL,STRATA_LAB_DIR="$STRATA_LAB_DIR",STRATA_APP_WORKLOADS="$APP",STRATA_LAB_TOKENS_PER_SECOND=480 \
    "$APP/serve_job.sh" vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2)"
TEST_JOBS+=("$serve")
wait_until 60 "training job running" job_is "$train" RUNNING
wait_until 60 "serving job running" job_is "$serve" RUNNING
pass "training job $train (2 nodes) and serving job $serve running"

"$STRATA" snapshot --format json "${connect[@]}" | "$PYTHON" -c '
import json, sys
jobs = {j["id"]: j for j in json.load(sys.stdin)["jobs"]}
t, v = jobs[sys.argv[1]], jobs[sys.argv[2]]
assert (t["framework"], t["worldSize"], t["kind"]) == ("torch.distributed", 4, "pre-training"), t
assert (v["framework"], v["kind"]) == ("vllm", "serving"), v
' "$train" "$serve" || fail "detection"
pass "strata snapshot: torch.distributed world size 4 (pre-training); vllm (serving)"

# app[job][field], from AppMetricsQuery's query.
check() {
    "$PYTHON" - "$1" "$train" "$serve" <(curl -sS --max-time 10 --data-urlencode "query@$query" \
        "$STRATA_LAB_PROMETHEUS_URL/api/v1/query") <<'PY'
import json, sys
app = {}
for s in json.load(open(sys.argv[4]))["data"]["result"]:
    app.setdefault(s["metric"].get("hpc_job"), {})[s["metric"]["strata_app"]] = float(s["value"][1])
t, v = app.get(sys.argv[2], {}), app.get(sys.argv[3], {})
sys.exit(0 if eval(sys.argv[1]) else 1)
PY
}
# torch starts slowly on a loaded 2-core machine (~60 s seen): wait for real steps, and for the
# rate window to hold enough of them (a counter's first seconds extrapolate low).
wait_until 300 "training metrics" check 't.get("training:samples", 0) > 100 and "training:loss" in t and "training:step" in t'
check '0 < t["training:step"] < 10 and 0 < t["training:loss"] and 100 < t["training:samples"] < 400 and t["training:tokens"] == t["training:samples"] * 128' ||
    fail "training metrics of job $train"
pass "the DDP job's step time, samples/s (32 x 4 ranks / 0.5 s), tokens/s and loss under hpc_job=$train"
wait_until 90 "serving metrics" check 'v.get("vllm:tokens", 0) > 380'
check 'abs(v["vllm:tokens"] - 480) < 100 and abs(v["vllm:ttft"] - 0.12) < 0.01 and v["vllm:running"] == 8 and v["vllm:tpot"] > 0' ||
    fail "serving metrics of job $serve"
pass "the vLLM stand-in's tokens/s, TTFT, TPOT and requests under hpc_job=$serve"

# The same values as `strata snapshot` joins them to the jobs (jobs[].app).
snapshot_app() {
    "$STRATA" snapshot --format json "${connect[@]}" | "$PYTHON" -c '
import json, sys
jobs = {j["id"]: j for j in json.load(sys.stdin)["jobs"]}
t, v = jobs[sys.argv[1]].get("app") or {}, jobs[sys.argv[2]].get("app") or {}
sys.exit(0 if eval(sys.argv[3]) else 1)
' "$train" "$serve" "$1"
}
wait_until 60 "strata snapshot joins the application metrics" snapshot_app 't.get("server") == "training" and v.get("server") == "vllm"'
snapshot_app '0 < t["stepSeconds"] < 10 and 100 < t["samplesPerSecond"] < 400 and t["loss"] > 0 and t["requestsRunning"] is None' ||
    fail "strata snapshot: training app metrics of job $train"
snapshot_app 'abs(v["tokensPerSecond"] - 480) < 100 and abs(v["timeToFirstTokenSeconds"] - 0.12) < 0.01 and v["requestsRunning"] == 8 and v["stepSeconds"] is None' ||
    fail "strata snapshot: serving app metrics of job $serve"
pass "strata snapshot: jobs[].app of the DDP job (step time, samples/s, loss) and of the vLLM stand-in (tokens/s, TTFT, requests)"

# The job pane's chart of tokens/s: AppMetricsQuery::jobSeriesPromql's range query
# (tests/data/prometheus/app/job_tokens.promql; tst_app_metrics checks the code sends it).
series_points() {
    local now; now=$(date +%s)
    curl -sS --max-time 10 --data-urlencode "query=$(sed "s/JOBID/$1/g" "$STRATA_SOURCE_DIR/tests/data/prometheus/app/job_tokens.promql")" \
        --data-urlencode "start=$((now - 300))" --data-urlencode "end=$now" --data-urlencode "step=15" \
        "$STRATA_LAB_PROMETHEUS_URL/api/v1/query_range" | "$PYTHON" -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
values = [float(v) for _, v in r[0]["values"]] if r else []
sys.exit(0 if len(r) == 1 and len(values) >= 2 and eval(sys.argv[1]) else 1)
' "$2"
}
series_points "$serve" 'abs(values[-1] - 480) < 100' || fail "tokens/s history of the serving job $serve"
series_points "$train" '100 * 128 < values[-1] < 400 * 128' || fail "tokens/s history of the training job $train"
pass "the job chart's tokens/s range query: one line per job, the vLLM stand-in's ~480 and the DDP job's samples x 128"

scancel "$train" "$serve"
wait_until 60 "announcements withdrawn" sh -c "! ls '$STRATA_LAB_DIR/prometheus/app_targets/'*.json >/dev/null 2>&1"
pass "cancelled: the jobs' /metrics announcements are gone"
echo "all $CHECKS checks passed"
