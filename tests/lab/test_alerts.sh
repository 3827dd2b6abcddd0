#!/usr/bin/env bash
# `strata alerts` against the lab's real Prometheus and its rule file (scripts/lab:
# GpuTemperatureHigh = DCGM_FI_DEV_GPU_TEMP > 85, severity critical): none firing in a healthy
# lab; after 'fault gpu-node03 6 hot 95' the alert fires and shows as a critical finding on
# gpu-node03 GPU 6, in `strata alerts` and in the snapshot's findings (code
# alert:GpuTemperatureHigh); gone again once the fault is cleared.
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
STRATA="$STRATA_BINARY_DIR/app/strata"
trap '"$LAB" fault clear --dir "$STRATA_LAB_DIR" >/dev/null 2>&1 || true' EXIT
mapfile -t connect < "$STRATA_LAB_DIR/connect.args"

# check PYTHON_EXPRESSION over `a` (strata alerts --format json) and `s` (the snapshot).
check() {
    "$PYTHON" - "$1" <(
        "$STRATA" alerts --format json "${connect[@]}") <(
        "$STRATA" snapshot --format json "${connect[@]}") <<'PY'
import json, sys
a = json.load(open(sys.argv[2])); s = json.load(open(sys.argv[3]))
hot = [f for f in a["alerts"] if f["code"] == "alert:GpuTemperatureHigh"]
in_snapshot = [f for f in s["findings"] if f["code"] == "alert:GpuTemperatureHigh"]
sys.exit(0 if eval(sys.argv[1]) else 1)
PY
}

"$LAB" fault clear --dir "$STRATA_LAB_DIR" >/dev/null
wait_until 30 "no alert firing" check 'a["schema"] == "strata.alerts/1" and hot == [] and in_snapshot == []'
pass "healthy lab: no alert"

"$LAB" fault --dir "$STRATA_LAB_DIR" gpu-node03 6 hot 95 >/dev/null
wait_until 30 "the alert firing" check 'len(hot) == 1'
check 'hot[0]["node"] == "gpu-node03" and hot[0]["gpu"] == 6 and hot[0]["severity"] == "critical" and "95" in hot[0]["message"]' ||
    fail "alert not on gpu-node03 GPU 6: $("$STRATA" alerts --format json "${connect[@]}")"
check 'len(in_snapshot) == 1 and in_snapshot[0]["node"] == "gpu-node03" and in_snapshot[0]["gpu"] == 6' ||
    fail "alert not in the snapshot's findings"
pass "GpuTemperatureHigh firing on gpu-node03 GPU 6, critical"
"$STRATA" alerts "${connect[@]}" | grep -q "GpuTemperatureHigh.*gpu-node03" || fail "text output: $("$STRATA" alerts "${connect[@]}")"
pass "text output names the alert and the node"

"$LAB" fault clear --dir "$STRATA_LAB_DIR" >/dev/null
wait_until 30 "the alert resolved" check 'hot == []'
pass "cleared fault: alert gone"
echo "all $CHECKS checks passed"
