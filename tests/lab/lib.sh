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
cleanup_jobs() { [ ${#TEST_JOBS[@]} -eq 0 ] || scancel "${TEST_JOBS[@]}" 2>/dev/null || true; }
trap cleanup_jobs EXIT

# Predicates for wait_until (they query again on every call).
job_is() { [ "$(squeue -h -j "$1" --states=all -o '%T' 2>/dev/null)" = "$2" ]; }
node_gres_used_is() { [[ "$(scontrol show node -d -o "$1")" == *" GresUsed=$2 "* ]]; }

# The repair loop's records in the lab's Pushgateway (lab_repair_loop*): a grouping value as the
# path's base64url, and every group the loop published removed (from the Pushgateway's own list).
b64() { printf %s "$1" | base64 -w0 | tr '+/' '-_' | tr -d '='; }
forget_published() {
    curl -s "${STRATA_LAB_PUSHGATEWAY_URL:?}/api/v1/metrics" | "$PYTHON" -c '
import json, sys
for g in json.load(sys.stdin).get("data", []):
    labels = g.get("labels", {})
    if labels.get("job") == "strata_repair": print("strata_repair node", labels["node"])
    if labels.get("job") == "strata_gpu_record": print("strata_gpu_record uuid", labels["uuid"])' |
    while read -r job key value; do
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
