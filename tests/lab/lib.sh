# shellcheck shell=bash
# Shared helpers for the lab script tests (sourced, not run).
set -euo pipefail

: "${STRATA_LAB_DIR:?set by ctest (strata_add_script_test)}"
: "${STRATA_SOURCE_DIR:?set by ctest (strata_add_script_test)}"
LAB="$STRATA_SOURCE_DIR/lab/lab"
eval "$("$LAB" env --dir "$STRATA_LAB_DIR")"

# Debian's interpreter directly: a pyenv shim first in PATH costs ~0.5 s per call.
# shellcheck disable=SC2034  # used by the scripts that source this
{ PYTHON=python3; [ -x /usr/bin/python3 ] && PYTHON=/usr/bin/python3; }

CHECKS=0
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { CHECKS=$((CHECKS + 1)); echo "ok $CHECKS - $*"; }

# wait_until SECONDS DESCRIPTION CMD...: poll CMD every 0.2 s.
wait_until() {
    local limit="$1" what="$2"; shift 2
    local deadline=$((SECONDS + limit))
    until "$@"; do
        [ $SECONDS -lt $deadline ] || fail "$what: not true after ${limit} s"
        sleep 0.2
    done
}

# Jobs this test submitted are cancelled however it ends.
TEST_JOBS=()
# The faults planted on this lab's Slurm nodes removed, not the Kubernetes stand-in's: the
# Kubernetes tests run beside the Slurm ones (their own RESOURCE_LOCK) and plant their own.
clear_faults() {
    local entries names=() e
    read -ra entries <<<"${STRATA_LAB_NODES:?}" # NAME:GPU_TYPE:GPUS:INSTANCE_TYPE each
    for e in "${entries[@]}"; do names+=("${e%%:*}"); done
    "$LAB" fault clear --dir "$STRATA_LAB_DIR" "${names[@]}"
}
cleanup_jobs() { [ ${#TEST_JOBS[@]} -eq 0 ] || scancel "${TEST_JOBS[@]}" 2>/dev/null || true; }
trap cleanup_jobs EXIT

# Predicates for wait_until (they query again on every call).
job_is() { [ "$(squeue -h -j "$1" --states=all -o '%T' 2>/dev/null)" = "$2" ]; }
node_gres_used_is() { [[ "$(scontrol show node -d -o "$1")" == *" GresUsed=$2 "* ]]; }

# The repair loop's records in the lab's Pushgateway (lab_repair_loop*): a grouping value as the
# path's base64url; the groups the loop published about nodes whose name begins with a prefix (a
# GPU record: by the node it is on now), from the Pushgateway's own list, and forget_published
# [NODE_PREFIX] removing them. The Slurm and Kubernetes repair tests run at once: each looks at
# and forgets only its own nodes' groups.
b64() { printf %s "$1" | base64 -w0 | tr '+/' '-_' | tr -d '='; }
# published_groups NODE_PREFIX: "JOB KEY VALUE" per group about such a node (empty prefix: all).
published_groups() {
    curl -s "${STRATA_LAB_PUSHGATEWAY_URL:?}/api/v1/metrics" | "$PYTHON" -c '
import json, sys
prefix = sys.argv[1]
for g in json.load(sys.stdin).get("data", []):
    labels = g.get("labels", {})
    if labels.get("job") == "strata_repair" and labels.get("node", "").startswith(prefix):
        print("strata_repair node", labels["node"])
    if labels.get("job") == "strata_gpu_record":
        nodes = [m.get("labels", {}).get("node", "") for m in g.get("strata_gpu_health_node_info", {}).get("metrics", [])]
        if not prefix or any(n.startswith(prefix) for n in nodes):
            print("strata_gpu_record uuid", labels["uuid"])' "${1:-}"
}
forget_published() {
    published_groups "${1:-}" | while read -r job key value; do
        curl -s -X DELETE "$STRATA_LAB_PUSHGATEWAY_URL/metrics/job/$job/$key@base64/$(b64 "$value")"
    done
}
# repair_health_is PROMETHEUS_URL PYTHON_EXPRESSION: what `strata health --all --format json`
# reads from that Prometheus (kept in $work/health.json) satisfies the expression over `nodes`
# and `gpus` (by node name, by UUID).
repair_health_is() {
    "$STRATA_BINARY_DIR/app/strata" health --prometheus "$1" --all --format json >"${work:?}/health.json" 2>/dev/null &&
        "$PYTHON" - "$work/health.json" "$2" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
nodes = {n["node"]: n for n in h["nodes"]}
gpus = {g["uuid"]: g for g in h["gpus"]}
try:
    sys.exit(0 if eval(sys.argv[2]) else 1)
except (KeyError, IndexError, StopIteration):  # not there yet: the caller waits, and shows health.json if it never comes
    sys.exit(1)
PY
}
