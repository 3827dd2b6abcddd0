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
