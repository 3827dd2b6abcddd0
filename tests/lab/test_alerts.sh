#!/usr/bin/env bash
# `strata alerts` against the lab's real Prometheus and its rule file (lab/lab:
# GpuTemperatureHigh = DCGM_FI_DEV_GPU_TEMP > 85, severity critical): none firing in a healthy
# lab; after 'fault gpu-node03 6 hot 95' the alert fires and shows as a critical finding on
# gpu-node03 GPU 6, in `strata alerts` and in the snapshot's findings (code
# alert:GpuTemperatureHigh); `strata silence add` silences it in the lab's real Alertmanager
# (the finding turns info and says by whom, until when and why), `strata silence expire` ends
# that; gone again once the fault is cleared. Runs against both lab releases (22.05, 24.11).
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
STRATA="$STRATA_BINARY_DIR/app/strata"
mapfile -t connect < "$STRATA_LAB_DIR/connect.args"
id=""
cleanup() {
    clear_faults >/dev/null 2>&1 || true
    [ -z "$id" ] || "$STRATA" silence expire "$id" "${connect[@]}" >/dev/null 2>&1 || true
}
trap cleanup EXIT

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

clear_faults >/dev/null
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
check 'hot[0]["silenced"] is False and hot[0]["labels"]["alertname"] == "GpuTemperatureHigh"' ||
    fail "the alert should carry its labels, not silenced"

# --- Alertmanager silences
if "$STRATA" silence expire not-a-uuid "${connect[@]}" 2>/dev/null; then fail "expire of a non-id accepted"; fi
rc=0; "$STRATA" silence add --alert GpuTemperatureHigh "${connect[@]}" 2>/dev/null || rc=$?
[ "$rc" = 2 ] || fail "silence add without --comment: exit $rc, expected 2 (refused before sending)"
pass "silence: a bad id and a missing comment are refused (exit 2)"
id="$("$STRATA" silence add --alert GpuTemperatureHigh --match gpu=6 --match node=gpu-node03 --duration 30m \
    --author lab-test --comment "fan swap OPS-1" "${connect[@]}")" || fail "silence add failed"
[[ "$id" =~ ^[0-9a-f-]{36}$ ]] || fail "silence add printed '$id', not a silence id"
"$STRATA" silence list --format json "${connect[@]}" | "$PYTHON" -c '
import json, sys
l = json.load(sys.stdin)["silences"]
s = [x for x in l if x["id"] == sys.argv[1]]
assert len(s) == 1 and s[0]["state"] == "active" and s[0]["createdBy"] == "lab-test", l
assert {"name": "gpu", "value": "6", "isRegex": False, "isEqual": True} in s[0]["matchers"], s[0]
' "$id" || fail "silence $id not listed active with its matchers"
"$STRATA" silence list "${connect[@]}" | grep -q "$id.*active.*alertname=GpuTemperatureHigh" ||
    fail "text list: $("$STRATA" silence list "${connect[@]}")"
pass "silence $id created and listed (json and text)"
wait_until 30 "the alert silenced" check "len(hot) == 1 and hot[0]['silencedBy'] == ['$id']"
check 'hot[0]["silenced"] and hot[0]["severity"] == "info" and "silenced by lab-test" in hot[0]["message"] and "fan swap OPS-1" in hot[0]["message"]' ||
    fail "silenced alert: $("$STRATA" alerts --format json "${connect[@]}")"
pass "the finding shows the alert silenced (info, by whom, why)"
"$STRATA" silence expire "$id" "${connect[@]}" | grep -q "silence $id expired" || fail "silence expire failed"
wait_until 30 "the alert no longer silenced" check 'len(hot) == 1 and not hot[0]["silenced"] and hot[0]["severity"] == "critical"'
"$STRATA" silence list --all --format json "${connect[@]}" | grep -q "\"expired\"" || fail "expired silence not in list --all"
pass "silence expired: the alert is critical again"

clear_faults >/dev/null
wait_until 30 "the alert resolved" check 'hot == []'
pass "cleared fault: alert gone"
echo "all $CHECKS checks passed"
