#!/usr/bin/env bash
# The repair loop end to end on Kubernetes (issue 28), against the lab's kube stand-in through
# the real kubectl over the lab's SSH login, with the kube nodes' GPUs in the DCGM stand-in as
# the GPU Operator's dcgm-exporter serves them (Hostname = the node, scraped by the Kubernetes
# cluster's own Prometheus, STRATA_LAB_KUBE_PROMETHEUS_URL) and the lab's Pushgateway as the
# shared store:
#  1. the Slurm profile sees none of the kube nodes' series (they are another cluster's);
#  2. XID 79 planted on kube-gpu-02, 03 and 04 (GPU 3); kube-gpu-04 was cordoned by an operator
#     before: `strata watch --once` suspects all three, cordons 02 and 03, leaves 04 to whoever
#     cordoned it ("out-by-others"), tests 02 and 03 with the burn-in (one Job per node that
#     tolerates the cordon; the stand-in runs the REAL strata-burn, cpu backend, for the
#     strata-burn image); 03's planted bit flip fails it: it stays cordoned, "replace"; 02
#     passes and is uncordoned, "returned";
#  3. a second Strata (`strata health`, Prometheus only) reads the states and GPU records back,
#     from the Kubernetes cluster's Prometheus and from the lab's;
#  4. nothing stays behind: no burn-in Job or pod, no cordon or drain annotation of the loop,
#     no fault, no published group (the operator's own cordon on kube-gpu-04 is the test's, and
#     is undone by it too).
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
STRATA="$STRATA_BINARY_DIR/app/strata"
PROMETHEUS="${STRATA_LAB_PROMETHEUS_URL:?}"
KUBE_PROMETHEUS="${STRATA_LAB_KUBE_PROMETHEUS_URL:?the lab has no Kubernetes Prometheus (22.05 lab only)}"
mapfile -t slurm_connect < "$STRATA_LAB_DIR/connect.args"
# The Kubernetes cluster's profile: the same login, kubectl with the lab's kubeconfig, its own
# Prometheus, the shared Pushgateway.
mapfile -t connect < "${STRATA_LAB_KUBE_CONNECT_ARGS:?the lab has no Kubernetes profile (22.05 lab only)}"
work="$(mktemp -d)"
k() { kubectl --kubeconfig "$STRATA_LAB_DIR/kube/kubeconfig" --cache-dir "$work/kube-cache" "$@"; }
NODES=(kube-gpu-01 kube-gpu-02 kube-gpu-03 kube-gpu-04)
REASON=strata.io/drain-reason
watch_pid=

burnin_objects() { k get jobs,pods -o name 2>/dev/null | grep 'strata-burnin-' || true; }
# Everything the test (and the loop) did, undone.
undo() {
    local objects
    mapfile -t objects < <(burnin_objects)
    [ ${#objects[@]} -eq 0 ] || k delete "${objects[@]}" --ignore-not-found --wait=false >/dev/null 2>&1 || true
    k annotate node "${NODES[@]}" "$REASON-" >/dev/null 2>&1 || true
    k uncordon "${NODES[@]}" >/dev/null 2>&1 || true
    "$LAB" fault clear --dir "$STRATA_LAB_DIR" "${NODES[@]}" >/dev/null 2>&1 || true
    forget_published kube-gpu || true
}
cleanup() {
    local rc=$?
    [ -z "$watch_pid" ] || kill "$watch_pid" 2>/dev/null || true
    [ "$rc" -eq 0 ] || [ ! -s "$work/health.json" ] || sed "s/^/# health: /" "$work/health.json"
    undo
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

cordoned_now() { k get nodes -o jsonpath='{range .items[?(@.spec.unschedulable==true)]}{.metadata.name} {end}'; }
left=$(cordoned_now)
if [ -n "$left$(burnin_objects)" ]; then
    echo "# an earlier test left cordons ($left) or burn-in objects ($(burnin_objects | tr '\n' ' ')): removing them"
    undo
fi
forget_published kube-gpu

# 1. The kube nodes' GPUs, seen by the Kubernetes profile; not by the Slurm one.
snapshot_kube() { "$STRATA" snapshot "${connect[@]}" --format json 2>/dev/null; }
gpus_seen() {
    snapshot_kube | "$PYTHON" -c '
import json, sys
s = json.load(sys.stdin)
nodes = {n["name"]: n for n in s["nodes"]}
ok = all(len([g for g in nodes[n]["gpus"] if g.get("uuid", "").startswith("GPU-")]) == 8 for n in sys.argv[1:])
codes = {f["code"] for f in s["findings"]}
sys.exit(0 if ok and not codes & {"no-gpu-metrics", "metrics-unmatched-hosts", "no-dcgm-metrics"} else 1)' "${NODES[@]}"
}
wait_until 30 "the kube nodes' 32 GPUs with their UUIDs in the Kubernetes profile" gpus_seen
"$STRATA" snapshot "${slurm_connect[@]}" --format json >"$work/slurm.json" 2>/dev/null || fail "the Slurm snapshot failed"
"$PYTHON" - "$work/slurm.json" <<'PY' || fail "the Slurm profile: $(grep -o '"metrics-unmatched-hosts[^}]*' "$work/slurm.json")"
import json, sys
s = json.load(open(sys.argv[1]))
# (The Slurm tests run beside this one and may plant faults on their own nodes: only kube-gpu counts.)
sys.exit(1 if any(f["code"] == "metrics-unmatched-hosts" or "kube-gpu" in f.get("node", "") + f.get("message", "") for f in s["findings"])
         or any(n["name"].startswith("kube-gpu") for n in s["nodes"]) else 0)
PY
pass "kube-gpu-01..04: 8 GPUs each with UUIDs through the Kubernetes cluster's Prometheus; the Slurm profile sees none of them"

# 2. An operator's own cordon, then the planted XIDs.
k cordon kube-gpu-04 >/dev/null
for n in 02 03 04; do "$LAB" fault --dir "$STRATA_LAB_DIR" "kube-gpu-$n" 3 xid 79 >/dev/null; done
xid_findings() { snapshot_kube | "$PYTHON" -c '
import json, sys
print(sorted(f["node"] for f in json.load(sys.stdin)["findings"] if f["code"] == "xid-79" and f["gpu"] == 3))' |
    grep -qx "\['kube-gpu-02', 'kube-gpu-03', 'kube-gpu-04'\]"; }
wait_until 60 "xid-79 findings on kube-gpu-02, 03 and 04" xid_findings
pass "XID 79 planted on kube-gpu-02, 03 and 04 (GPU 3); kube-gpu-04 cordoned by the operator"

cat >"$work/policy.json" <<'JSON'
{"dryRun": false, "suspectOn": ["xid-*"], "maxNodesOut": 2, "maxPartitionPercent": 100, "maxDrainsPerHour": 10,
 "test": "burnin", "burninTests": ["gemm"], "burninSeconds": 5}
JSON
# Where the burn-in's pods run and which nodes are cordoned, seen while the loop runs.
watch_cluster() {
    while :; do
        k get pods -o jsonpath='{range .items[*]}{.metadata.name} {.spec.nodeName}{"\n"}{end}' 2>/dev/null |
            grep '^strata-burnin-' >>"$work/placed" || true
        k get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.spec.unschedulable}{"\n"}{end}' >>"$work/cordons" 2>/dev/null || true
        sleep 0.5
    done
}
touch "$work/placed" "$work/cordons"
watch_cluster & watch_pid=$!
start=$SECONDS
rc=0
timeout -s INT -k 20 240 "$STRATA" watch "${connect[@]}" --once --apply --policy "$work/policy.json" \
    --image ghcr.io/strata/strata-burn:0.1 --inject kube-gpu-03=bitflip:4 --history "$work/burnin.sqlite" --format json \
    >"$work/loop.jsonl" 2> >(tee "$work/loop.err" | sed -u 's/^/# /') || rc=$?
sleep 1
kill "$watch_pid" 2>/dev/null || true
wait "$watch_pid" 2>/dev/null || true
watch_pid=
echo "# strata watch --once took $((SECONDS - start)) s, exit $rc"
grep '^{' "$work/loop.jsonl" | sed 's/^/# step: /'
[ "$rc" -eq 0 ] || fail "watch exited $rc"

# check PYTHON_EXPRESSION over the JSON lines of the run (`steps`).
check() {
    "$PYTHON" - "$work/loop.jsonl" "$1" <<'PY'
import json, sys
steps = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
def step(node, kind): return [s for s in steps if s["node"] == node and s["step"] == kind]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}
check 'all(step(n, "suspect")[0]["taken"] for n in ("kube-gpu-02", "kube-gpu-03", "kube-gpu-04")) and not step("kube-gpu-01", "suspect")' ||
    fail "suspect: $(cat "$work/loop.jsonl")"
check 'step("kube-gpu-02", "drain")[0]["taken"] and step("kube-gpu-03", "drain")[0]["taken"]' || fail "cordons: $(cat "$work/loop.jsonl")"
check 'step("kube-gpu-04", "drain") and all(not s["taken"] and s["held"] == "out-by-others" for s in step("kube-gpu-04", "drain"))' ||
    fail "kube-gpu-04 was not left to the operator: $(cat "$work/loop.jsonl")"
for n in 02 03; do
    grep -qx "kube-gpu-$n true" "$work/cordons" || fail "kube-gpu-$n was never seen cordoned: $(sort -u "$work/cordons" | tr '\n' ';')"
done
pass "three suspected; kube-gpu-02 and 03 cordoned; kube-gpu-04, cordoned by the operator, held out-by-others"

check 'step("kube-gpu-02", "start-test")[0]["taken"] and step("kube-gpu-03", "start-test")[0]["taken"]' ||
    fail "tests: $(cat "$work/loop.jsonl")"
placed="$(sort -u "$work/placed")"
for n in 02 03; do
    grep -q "^strata-burnin-kube-gpu-$n-[0-9a-f]*-[a-z0-9]* kube-gpu-$n\$" <<<"$placed" ||
        fail "no burn-in pod seen on kube-gpu-$n: $placed"
done
if grep -v '^strata-burnin-\(kube-gpu-[0-9]*\)-[0-9a-f]*-[a-z0-9]* \1$' <<<"$placed" | grep -q .; then
    fail "a burn-in pod ran off its node: $placed"
fi
for n in 02 03; do
    # The Job's pod ran the real agent (the stand-in's log of it): its summary line is there.
    pod="$(grep -o "^strata-burnin-kube-gpu-$n-[^ ]*" <<<"$placed" | head -1)"
    log="$(k logs "$pod" 2>&1 || true)"
    grep -q '"type":"summary"' <<<"$log" || fail "$pod's log has no agent summary: $(tail -3 <<<"$log")"
done
pass "tested: one burn-in Job each, its pod on kube-gpu-02 / kube-gpu-03 despite the cordon ($(grep -c . <<<"$placed") pod(s))"

check 'step("kube-gpu-02", "return")[0]["taken"] and step("kube-gpu-03", "replace")[0]["taken"] and "GPU 4" in step("kube-gpu-03", "replace")[0]["evidence"]' ||
    fail "return/replace: $(cat "$work/loop.jsonl")"
[ "$(k get node kube-gpu-02 -o jsonpath='{.spec.unschedulable}')" != true ] || fail "kube-gpu-02 passed but is still cordoned"
[ "$(k get node kube-gpu-03 -o jsonpath='{.spec.unschedulable}')" = true ] || fail "kube-gpu-03 failed but is not cordoned"
reason3="$(k get node kube-gpu-03 -o jsonpath="{.metadata.annotations.strata\.io/drain-reason}")"
[[ "$reason3" == "strata repair: replace:"* ]] || fail "kube-gpu-03's reason: $reason3"
[ "$(k get node kube-gpu-04 -o jsonpath='{.spec.unschedulable}')" = true ] || fail "the operator's cordon on kube-gpu-04 was lifted"
[ -z "$(k get node kube-gpu-04 -o jsonpath="{.metadata.annotations.strata\.io/drain-reason}")" ] || fail "kube-gpu-04 got a drain reason"
pass "kube-gpu-02 returned (uncordoned); kube-gpu-03 stays cordoned ($reason3); kube-gpu-04's cordon untouched"

# 3. A second Strata, reading only Prometheus, sees the same loop: the Kubernetes cluster's and the lab's.
health_is() { repair_health_is "$@"; }
states='nodes["kube-gpu-02"]["state"] == "returned" and nodes["kube-gpu-03"]["state"] == "replace" and nodes["kube-gpu-04"]["state"] == "suspected"'
wait_until 30 "the states in the Kubernetes cluster's Prometheus" health_is "$KUBE_PROMETHEUS" "$states"
wait_until 30 "the states in the lab's Prometheus" health_is "$PROMETHEUS" "$states"
health_is "$PROMETHEUS" 'nodes["kube-gpu-03"]["evidenceCode"] == "test-failed" and nodes["kube-gpu-03"]["drainedAt"] and len(nodes["kube-gpu-03"]["gpuUuids"]) == 8 and all(u.startswith("GPU-") for u in nodes["kube-gpu-03"]["gpuUuids"])' ||
    fail "kube-gpu-03's record: $(cat "$work/health.json")"
failed_uuid="$("$PYTHON" -c 'import json,sys; print(next(n for n in json.load(open(sys.argv[1]))["nodes"] if n["node"] == "kube-gpu-03")["gpuUuids"][4])' "$work/health.json")"
health_is "$PROMETHEUS" "gpus['$failed_uuid']['events']['test-failed']['count'] == 1 and gpus['$failed_uuid']['node'] == 'kube-gpu-03' and gpus['$failed_uuid']['gpu'] == 4" ||
    fail "the failed GPU's record: $(cat "$work/health.json")"
pass "a second Strata reads it back from both Prometheus: kube-gpu-02 returned, 03 replace (its GPU 4, $failed_uuid, test-failed), 04 suspected"

# 4. Nothing left behind. The loop keeps its finished burn-in Jobs (their pods hold the logs), as
# `strata burnin` does: the test deletes them with the rest.
echo "# left by the loop: $(burnin_objects | tr '\n' ' ')"
undo
gone() {
    [ -z "$(burnin_objects)" ] && [ -z "$(cordoned_now)" ] &&
        [ -z "$(k get nodes -o jsonpath="{range .items[*]}{.metadata.annotations.strata\.io/drain-reason}{end}")" ] &&
        [ -z "$(published_groups kube-gpu)" ] && # the Slurm repair test may publish its own meanwhile
        ! "$LAB" fault list --dir "$STRATA_LAB_DIR" | grep -q '"node": "kube-gpu'
}
wait_until 30 "no burn-in Job or pod, cordon, drain reason, published group or fault left" gone
pass "nothing left: no burn-in Job or pod, no cordon, no drain reason, no fault, no published group"
echo "all $CHECKS checks passed"
