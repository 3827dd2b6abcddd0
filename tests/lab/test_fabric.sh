#!/usr/bin/env bash
# Per-node fabric and shared storage in the lab: one real node exporter per node (lab/lab
# fabric@NODE) reading that node's fixture /sys/class/infiniband (4 EFA ports) and mount table
# (FSx for Lustre on /fsx), scraped by the lab's Prometheus. Asked with NodeFabricQuery's own
# query (tests/data/prometheus/fabric/query.promql; tst_node_fabric checks the code sends it):
# every node has 4 ports state 4 (ACTIVE) / physical 5 (LinkUp) at 12.5e9 B/s and /fsx lustre;
# 'fault gpu-node02 fabric-down efa_1' turns that port DOWN/Disabled, 'fault gpu-node04
# mount-missing' removes gpu-node04's /fsx while its filesystem collector still answers;
# 'fault clear' restores both. Runs on both lab releases.
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
trap 'clear_faults >/dev/null 2>&1 || true' EXIT
query="$STRATA_SOURCE_DIR/tests/data/prometheus/fabric/query.promql"

# check PYTHON_EXPRESSION over `ports[(node, device)] = (state, physical, rate)`, `mounts[node]`
# (mount points) and `answered[node]` (collectors that answered).
check() {
    "$PYTHON" - "$1" <(curl -sS --max-time 10 --data-urlencode "query@$query" \
        "$STRATA_LAB_PROMETHEUS_URL/api/v1/query") <<'PY'
import json, sys
r = json.load(open(sys.argv[2]))["data"]["result"]
ports, mounts, answered = {}, {}, {}
for s in r:
    m, v, what = s["metric"], float(s["value"][1]), s["metric"]["strata_fabric"]
    node = m["node"]
    if what in ("state", "physical", "rate"):
        ports.setdefault((node, m["device"]), {})[what] = v
    elif what == "size":
        mounts.setdefault(node, []).append((m["mountpoint"], m["fstype"]))
    elif what == "collector" and v == 1:
        answered.setdefault(node, set()).add(m["collector"])
nodes = ["gpu-node01", "gpu-node02", "gpu-node03", "gpu-node04"]
sys.exit(0 if eval(sys.argv[1]) else 1)
PY
}

clear_faults >/dev/null
wait_until 30 "every node's fabric exporter scraped" check \
    'all(answered.get(n) == {"infiniband", "filesystem"} for n in nodes) and len(ports) == 16'
check 'all(p == {"state": 4, "physical": 5, "rate": 12.5e9} for p in ports.values())' || fail "a port is not ACTIVE/LinkUp at 100 Gb/s"
check 'all(mounts.get(n) == [("/fsx", "lustre")] for n in nodes)' || fail "/fsx (lustre) not on every node"
pass "4 EFA ports ACTIVE/LinkUp and /fsx (lustre) on each of the 4 nodes"

"$LAB" fault --dir "$STRATA_LAB_DIR" gpu-node02 fabric-down efa_1 >/dev/null
wait_until 30 "efa_1 of gpu-node02 down" check 'ports[("gpu-node02", "efa_1")]["state"] == 1'
check 'ports[("gpu-node02", "efa_1")]["physical"] == 3 and sum(p["state"] != 4 for p in ports.values()) == 1' ||
    fail "fabric-down should take exactly gpu-node02 efa_1 down (Disabled)"
pass "fabric-down: gpu-node02 efa_1 DOWN/Disabled, the 15 other ports up"

"$LAB" fault --dir "$STRATA_LAB_DIR" gpu-node04 mount-missing >/dev/null
wait_until 30 "/fsx gone from gpu-node04" check '"gpu-node04" not in mounts'
check '"filesystem" in answered["gpu-node04"] and all(mounts.get(n) for n in nodes[:3])' ||
    fail "mount-missing: gpu-node04's collector should still answer, the others keep /fsx"
pass "mount-missing: gpu-node04 answers without /fsx; the other nodes keep it"

# What `strata snapshot` makes of it: nodes[].network/storage and one finding per fault.
mapfile -t connect < "$STRATA_LAB_DIR/connect.args"
snapshot_check() {
    "$STRATA_BINARY_DIR/app/strata" snapshot --format json "${connect[@]}" | "$PYTHON" -c '
import json, sys
s = json.load(sys.stdin)
nodes = {n["name"]: n for n in s["nodes"]}
down = {(n, p["device"]) for n, x in nodes.items() for p in ((x.get("network") or {}).get("ports") or []) if not p["up"]}
mounts = {n: [m["mountpoint"] for m in (x.get("storage") or {}).get("mounts", [])] for n, x in nodes.items()}
findings = {(f["node"], f["code"]) for f in s["findings"] if f["code"].startswith(("fabric-", "shared-mount-"))}
sys.exit(0 if eval(sys.argv[1]) else 1)
' "$1"
}
wait_until 30 "strata snapshot sees both faults" snapshot_check 'down == {("gpu-node02", "efa_1")} and mounts["gpu-node04"] == []'
snapshot_check 'all(len(nodes[n]["network"]["ports"]) == 4 for n in nodes) and all(mounts[n] == ["/fsx"] for n in ("gpu-node01", "gpu-node02", "gpu-node03"))' ||
    fail "strata snapshot: ports and mounts per node"
snapshot_check 'findings == {("gpu-node02", "fabric-link-down"), ("gpu-node04", "shared-mount-missing")}' ||
    fail "strata snapshot: one finding per fault"
pass "strata snapshot: gpu-node02 efa_1 down and gpu-node04 without /fsx, as fabric-link-down and shared-mount-missing"

clear_faults >/dev/null
wait_until 30 "faults cleared" check 'all(p["state"] == 4 for p in ports.values()) and all(mounts.get(n) for n in nodes)'
pass "fault clear: every port up and /fsx everywhere again"
echo "all $CHECKS checks passed"
