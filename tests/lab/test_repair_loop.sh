#!/usr/bin/env bash
# The repair loop end to end on the real slurmctld (issue 28), with the lab's real Pushgateway
# and Prometheus as the shared store: XID 79 planted on gpu-node01, 02 and 03 (the DCGM
# stand-in), the policy capped at two nodes out at once and two drains an hour.
#  1. without --apply (whatever the policy file says) a dry run plans and previews every step
#     and touches nothing;
#  2. `strata watch --once` suspects all three, drains 01 and 02 (the preview says what runs
#     there), holds 03 by the cap, tests 01 and 02 with the burn-in (cpu backend: the lab has no
#     GPU) in a maintenance reservation it resumes them into; 02's planted bit flip fails it:
#     it stays out marked "replace"; 01 passes and returns; no reservation is left;
#  3. a second Strata (`strata health`, Prometheus only) reads the states and GPU records back;
#  4. gpu-node04 runs another user's job: its drain waits for an operator's --confirm;
#  5. the record follows a GPU: gpu-node02's failed GPU 4 reappears as gpu-node04 GPU 5 (the
#     stand-in's moved-from fault) with a new XID; its record keeps the failed test and gains the
#     suspicion under the new node;
#  6. unattended, `strata watch --apply` tests and returns the nodes left drained, until Ctrl-C.
# Everything it did is undone at the end (faults, drains, jobs, reservations, published groups).
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
STRATA="$STRATA_BINARY_DIR/app/strata"
mapfile -t connect < "$STRATA_LAB_DIR/connect.args"
work="$(mktemp -d)"
PUSHGATEWAY="${STRATA_LAB_PUSHGATEWAY_URL:?the lab has no Pushgateway}"
PROMETHEUS="${STRATA_LAB_PROMETHEUS_URL:?}"

watch_pid=
cleanup() {
    local rc=$?
    [ -z "$watch_pid" ] || kill -INT "$watch_pid" 2>/dev/null || true
    # What the second Strata last read, for a failure.
    [ "$rc" -eq 0 ] || [ ! -s "$work/health.json" ] || sed "s/^/# health: /" "$work/health.json"
    # What the unattended watch said, for a failure in step 6.
    [ "$rc" -eq 0 ] || [ ! -e "$work/unattended.err" ] || sed "s/^/# unattended: /" "$work/unattended.err" "$work/unattended.jsonl"
    cleanup_jobs
    clear_faults >/dev/null 2>&1 || true
    local r n
    for r in $(scontrol show reservation 2>/dev/null | grep -o 'ReservationName=strata-repair-[^ ]*' | cut -d= -f2); do
        scontrol delete "ReservationName=$r" 2>/dev/null || true
    done
    for n in $(sinfo -h -N -n 'gpu-node[01-04]' -t drain,draining -o '%N' | sort -u); do
        scontrol update "NodeName=$n" State=RESUME 2>/dev/null || true
    done
    forget_published gpu-node || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

settled() { [ -z "$(squeue -h -o %i)" ] && [ -z "$(sinfo -h -N -t completing -o %N)" ]; }
wait_until 120 "no jobs left or completing from earlier tests" settled
unusable="$(sinfo -h -N -n 'gpu-node[01-04]' -t drain,down,fail,no_respond -o '%N' | sort -u | tr '\n' ' ')"
if [ -n "$unusable" ]; then
    echo "# an earlier test left ${unusable}unable to run jobs: $(sinfo -h -N -o '%N %T "%E"' | tr '\n' ';'); resuming"
    for n in $unusable; do scontrol update "NodeName=$n" State=RESUME 2>&1 | sed 's/^/# /' || true; done
fi
forget_published gpu-node

cat >"$work/policy.json" <<'JSON'
{"dryRun": false, "suspectOn": ["xid-*"], "maxNodesOut": 2, "maxPartitionPercent": 100, "maxDrainsPerHour": 2,
 "test": "burnin", "burninTests": ["gemm"], "burninSeconds": 5}
JSON
for n in 01 02 03; do "$LAB" fault --dir "$STRATA_LAB_DIR" "gpu-node$n" 3 xid 79 >/dev/null; done
xid_findings() { "$STRATA" snapshot "${connect[@]}" --format json 2>/dev/null |
    "$PYTHON" -c 'import json,sys; print(sum(1 for f in json.load(sys.stdin)["findings"] if f["code"] == "xid-79"))' | grep -qx "$1"; }
wait_until 60 "three xid-79 findings" xid_findings 3
pass "XID 79 planted on gpu-node01, 02 and 03"

# check FILE PYTHON_EXPRESSION over the JSON lines `steps` (the file) of a watch run.
check() {
    "$PYTHON" - "$1" "$2" <<'PY'
import json, sys
steps = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
def step(node, kind): return [s for s in steps if s["node"] == node and s["step"] == kind]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}
drained() { sinfo -h -N -n "$1" -o '%T' | grep -q 'drain'; }

# 1. Without --apply (the policy file says "dryRun": false: a file never arms the loop): a dry
#    run, everything planned and previewed, nothing done.
"$STRATA" watch "${connect[@]}" --once --policy "$work/policy.json" --format json >"$work/dry.jsonl" 2>"$work/dry.err" ||
    fail "dry run exited $?: $(cat "$work/dry.err")"
check "$work/dry.jsonl" 'all(not s["taken"] for s in steps) and [step(n, "drain")[0]["held"] for n in ("gpu-node01", "gpu-node02", "gpu-node03")] == ["dry-run", "dry-run", "cap-nodes-out"]' ||
    fail "dry run: $(cat "$work/dry.jsonl")"
for n in 01 02 03; do drained "gpu-node$n" && fail "the dry run drained gpu-node$n"; done
[ -z "$(published_groups gpu-node)" ] || fail "the dry run published: $(published_groups gpu-node | tr '\n' ';')"
pass "dry run: $(wc -l <"$work/dry.jsonl") steps planned, none taken, nothing published"

# 2. The loop, with gpu-node02's GPU 4 failing its burn-in (a planted bit flip).
start=$SECONDS
rc=0
timeout -s INT -k 20 240 "$STRATA" watch "${connect[@]}" --once --apply --policy "$work/policy.json" --backend cpu \
    --inject gpu-node02=bitflip:4 --history "$work/burnin.sqlite" --format json \
    >"$work/loop.jsonl" 2> >(tee "$work/loop.err" | sed -u 's/^/# /') || rc=$?
sleep 1
echo "# strata watch --once took $((SECONDS - start)) s, exit $rc"
[ "$rc" -eq 0 ] || fail "watch exited $rc: $(cat "$work/loop.jsonl")"
check "$work/loop.jsonl" 'all(step(n, "suspect")[0]["taken"] for n in ("gpu-node01", "gpu-node02", "gpu-node03"))' ||
    fail "suspect: $(cat "$work/loop.jsonl")"
check "$work/loop.jsonl" 'step("gpu-node01", "drain")[0]["taken"] and step("gpu-node02", "drain")[0]["taken"] and "runs no job" in step("gpu-node01", "drain")[0]["preview"]["summary"]' ||
    fail "drains: $(cat "$work/loop.jsonl")"
check "$work/loop.jsonl" 'not any(s["taken"] for s in step("gpu-node03", "drain")) and step("gpu-node03", "drain")[0]["held"] == "cap-nodes-out" and all(s["held"] in ("cap-nodes-out", "cap-per-hour") for s in step("gpu-node03", "drain"))' ||
    fail "the cap did not hold gpu-node03: $(cat "$work/loop.jsonl")"
pass "three suspected; gpu-node01 and 02 drained; gpu-node03 held by the cap (two at once, two an hour)"
check "$work/loop.jsonl" 'step("gpu-node01", "return")[0]["taken"] and step("gpu-node02", "replace")[0]["taken"] and "GPU 4" in step("gpu-node02", "replace")[0]["evidence"]' ||
    fail "return/replace: $(cat "$work/loop.jsonl")"
grep -q "maintenance reservation strata-repair-gpu-node01" "$work/loop.err" || fail "no maintenance reservation for the test"
drained gpu-node01 && fail "gpu-node01 passed but is not in service: $(sinfo -h -N -n gpu-node01 -o '%T %E')"
drained gpu-node02 || fail "gpu-node02 failed but is in service"
sinfo -h -N -n gpu-node02 -o '%E' | grep -q "strata repair: replace:" || fail "gpu-node02's reason: $(sinfo -h -N -n gpu-node02 -o '%E')"
drained gpu-node03 && fail "gpu-node03 was drained past the cap"
scontrol show reservation 2>&1 | grep -q "ReservationName=strata-repair-" && fail "a reservation left behind: $(scontrol show reservation)"
pass "tested in a maintenance reservation: gpu-node01 returned, gpu-node02 out ($(sinfo -h -N -n gpu-node02 -o '%E')); no reservation left"

# 3. A second Strata, reading only Prometheus, sees the same loop.
health_is() { repair_health_is "$PROMETHEUS" "$1"; }
wait_until 30 "the states in Prometheus" health_is 'nodes["gpu-node01"]["state"] == "returned" and nodes["gpu-node02"]["state"] == "replace" and nodes["gpu-node03"]["state"] == "suspected"'
health_is 'nodes["gpu-node02"]["evidenceCode"] == "test-failed" and nodes["gpu-node02"]["drainedAt"] and len(nodes["gpu-node02"]["gpuUuids"]) == 8' ||
    fail "gpu-node02's record: $(cat "$work/health.json")"
failed_uuid="$("$PYTHON" -c 'import json,sys; print(next(n for n in json.load(open(sys.argv[1]))["nodes"] if n["node"] == "gpu-node02")["gpuUuids"][4])' "$work/health.json")"
health_is "gpus['$failed_uuid']['events']['test-failed']['count'] == 1 and gpus['$failed_uuid']['node'] == 'gpu-node02' and gpus['$failed_uuid']['gpu'] == 4" ||
    fail "the failed GPU's record: $(cat "$work/health.json")"
returned_uuid="$("$PYTHON" -c 'import json,sys; print(next(n for n in json.load(open(sys.argv[1]))["nodes"] if n["node"] == "gpu-node01")["gpuUuids"][3])' "$work/health.json")"
health_is "gpus['$returned_uuid']['events']['xid-79']['count'] == 1 and gpus['$returned_uuid']['events']['test-passed']['count'] == 1 and gpus['$returned_uuid']['burninFigures']['gemm'] > 0" ||
    fail "gpu-node01 GPU 3's record: the XID it had and its burn-in figure: $(cat "$work/health.json")"
pass "a second Strata reads it back from Prometheus: gpu-node02 replace, its GPU 4 ($failed_uuid) test-failed; gpu-node01 GPU 3 had xid-79, passed with a gemm figure"

# A forged record with an escape sequence and a newline in its evidence: shown escaped.
# (Typed as Strata types them: the Pushgateway refuses a family whose groups disagree on the type.)
printf '# TYPE strata_node_health_state gauge\nstrata_node_health_state{state="replace"} 1\n# TYPE strata_node_health_evidence_info gauge\nstrata_node_health_evidence_info{code="xid-79",evidence="a\033[2Jb\\nc"} 1\n' |
    curl -sf --data-binary @- -X PUT "$PUSHGATEWAY/metrics/job/strata_repair/node@base64/$(b64 gpu-node09)" || fail "the forged push was refused"
forged_shown() { "$STRATA" health --prometheus "$PROMETHEUS" --node gpu-node09 >"$work/forged.txt" 2>&1 && grep -q 'gpu-node09' "$work/forged.txt"; }
wait_until 30 "the forged record in Prometheus" forged_shown
grep -qF 'a\x1b[2Jb\nc' "$work/forged.txt" || fail "the evidence is not shown escaped: $(od -c "$work/forged.txt" | head)"
! grep -q $'\033' "$work/forged.txt" || fail "an escape byte reached the terminal"
pass "a forged record's escape sequence and newline are shown escaped"

# 4. Another user's job on gpu-node04: its drain needs an operator's confirmation.
clear_faults >/dev/null
job="$(sbatch --parsable --uid=nobody --gid=nogroup -w gpu-node04 -o /dev/null --wrap 'sleep 600')"
TEST_JOBS+=("$job")
wait_until 30 "job $job running" job_is "$job" RUNNING
"$LAB" fault --dir "$STRATA_LAB_DIR" gpu-node04 2 xid 48 >/dev/null
xid48() { "$STRATA" snapshot "${connect[@]}" --format json 2>/dev/null | grep -q '"xid-48"'; }
wait_until 60 "the xid-48 finding" xid48
cat >"$work/policy4.json" <<'JSON'
{"dryRun": false, "suspectOn": ["xid-48"], "maxNodesOut": 4, "maxPartitionPercent": 100, "maxDrainsPerHour": 10, "test": "none"}
JSON
"$STRATA" watch "${connect[@]}" --once --apply --policy "$work/policy4.json" --format json >"$work/confirm.jsonl" 2>"$work/confirm.err" ||
    fail "watch exited $?: $(cat "$work/confirm.err")"
check "$work/confirm.jsonl" 'step("gpu-node04", "drain")[0]["held"] == "needs-confirmation" and step("gpu-node04", "drain")[0]["preview"]["jobs"][0]["user"] == "nobody"' ||
    fail "no confirmation asked: $(cat "$work/confirm.jsonl")"
drained gpu-node04 && fail "gpu-node04 drained without confirmation"
"$STRATA" watch "${connect[@]}" --once --apply --policy "$work/policy4.json" --confirm gpu-node04 --format json >"$work/confirmed.jsonl" 2>"$work/confirmed.err" ||
    fail "watch --confirm exited $?: $(cat "$work/confirmed.err")"
check "$work/confirmed.jsonl" 'step("gpu-node04", "drain")[0]["taken"]' || fail "--confirm: $(cat "$work/confirmed.jsonl")"
drained gpu-node04 || fail "gpu-node04 not drained after --confirm"
pass "gpu-node04 runs nobody's job $job: held for confirmation, drained with --confirm"
scancel "$job"
# The drain is in Prometheus before anyone resumes the node: the step below is an operator's
# resume after the loop's drain, not one inside the Pushgateway's scrape interval.
wait_until 30 "gpu-node04's drain in Prometheus" health_is 'nodes["gpu-node04"]["state"] == "drained"'

# 5. gpu-node02's failed GPU 4 reappears as gpu-node04 GPU 5 (moved) with XID 48: one record.
clear_faults >/dev/null
"$LAB" fault --dir "$STRATA_LAB_DIR" gpu-node04 5 moved-from gpu-node02:4 >/dev/null
"$LAB" fault --dir "$STRATA_LAB_DIR" gpu-node04 5 xid 48 >/dev/null
scontrol update NodeName=gpu-node04 State=RESUME
moved() {
    "$STRATA" snapshot "${connect[@]}" --format json 2>/dev/null | "$PYTHON" -c '
import json, sys
nodes = {n["name"]: n for n in json.load(sys.stdin)["nodes"]}
g = next(g for g in nodes["gpu-node04"]["gpus"] if g["index"] == 5)
sys.exit(0 if g["uuid"] == sys.argv[1] and g["xid"] == 48 else 1)' "$failed_uuid"
}
wait_until 60 "gpu-node04 GPU 5 reporting $failed_uuid" moved
"$STRATA" watch "${connect[@]}" --once --apply --policy "$work/policy4.json" --format json >"$work/moved.jsonl" 2>"$work/moved.err" ||
    fail "watch exited $?: $(cat "$work/moved.err")"
sed 's/^/# moved: /' "$work/moved.jsonl"
wait_until 30 "the moved GPU's record" health_is "gpus['$failed_uuid']['node'] == 'gpu-node04' and gpus['$failed_uuid']['gpu'] == 5 and gpus['$failed_uuid']['events']['test-failed']['count'] == 1 and gpus['$failed_uuid']['events']['suspected']['count'] >= 1"
pass "the record follows GPU $failed_uuid to gpu-node04 GPU 5: its failed test kept, the new suspicion added"

# 6. Unattended: `strata watch --apply` (no --once) on every refresh picks up the nodes the loop
#    drained above without a test (gpu-node03, 04), tests them and returns them; Ctrl-C ends it.
clear_faults >/dev/null
cat >"$work/policy6.json" <<'JSON'
{"suspectOn": ["xid-*"], "maxNodesOut": 4, "maxPartitionPercent": 100, "maxDrainsPerHour": 10,
 "test": "burnin", "burninTests": ["gemm"], "burninSeconds": 5, "burninBackend": "cpu"}
JSON
"$STRATA" watch "${connect[@]}" --apply --policy "$work/policy6.json" --history "$work/burnin.sqlite" --format json \
    >"$work/unattended.jsonl" 2>"$work/unattended.err" &
watch_pid=$!
# The watch must still run while it is waited for; what it said is shown if it does not get there.
returned_by_watch() {
    kill -0 "$watch_pid" 2>/dev/null || fail "the unattended watch ended early"
    health_is "$1"
}
wait_until 120 "gpu-node03 and 04 returned by the unattended watch" returned_by_watch 'nodes["gpu-node03"]["state"] == "returned" and nodes["gpu-node04"]["state"] == "returned" and nodes["gpu-node02"]["state"] == "replace"'
kill -INT "$watch_pid"
rc=0
wait "$watch_pid" || rc=$?
watch_pid=
[ "$rc" -eq 130 ] || fail "the interrupted watch exited $rc: $(tail -5 "$work/unattended.err")"
drained gpu-node03 && fail "gpu-node03 returned but drained"
scontrol show reservation 2>&1 | grep -q "ReservationName=strata-repair-" && fail "a reservation left behind: $(scontrol show reservation)"
pass "unattended: gpu-node03 and 04 tested and returned, gpu-node02 left out; Ctrl-C ends it (130)"
echo "all $CHECKS checks passed"
