# lab/lib/faults.sh: starts nothing; 'lab fault': GPU faults in the DCGM stand-in's fault file, fabric
# and storage faults in the nodes' fixture files. Needs common.sh, layout.sh, prometheus.sh.
# shellcheck shell=bash

fault_exporter_down() {
    [ -s "$DCGM_DIR/faults.json" ] && grep -q exporter-down "$DCGM_DIR/faults.json" || return 1
    "$PYTHON" - "$DCGM_DIR/faults.json" "$1" <<'EOF'
import json, sys
faults = json.load(open(sys.argv[1])).get("faults", [])
sys.exit(0 if any(f.get("node") == sys.argv[2] and f.get("kind") == "exporter-down" for f in faults) else 1)
EOF
}

cmd_fault() {
    [ ${#ARGS[@]} -ge 1 ] || die "usage: lab/lab fault NODE GPU KIND [VALUE] | fault clear | fault list"
    local n
    # Fabric and storage faults live in the node's fixture files, not in the DCGM fault list.
    case "${ARGS[1]:-}" in
        fabric-down|mount-missing)
            node_index "${ARGS[0]}" >/dev/null || die "unknown node ${ARGS[0]}"
            [ "${ARGS[1]}" != fabric-down ] || [[ "${ARGS[2]:-efa_0}" =~ ^efa_[0-3]$ ]] ||
                die "fabric-down DEVICE: efa_0..efa_3"
            write_fabric_files "${ARGS[0]}" "${ARGS[1]}" "${ARGS[2]:-efa_0}"
            return 0 ;;
    esac
    if [ "${ARGS[0]}" = clear ]; then
        for n in "${NODES[@]}"; do rm -rf "${FABRIC_DIR:?}/$n/sys" "$FABRIC_DIR/$n/proc"; write_fabric_files "$n"; done
    fi
    mkdir -p "$DCGM_DIR"
    "$PYTHON" - "$DCGM_DIR/faults.json" "${NODES[*]}" "$GPUS_PER_NODE" "${ARGS[@]}" <<'EOF'
import json, os, sys
path, nodes, gpus, args = sys.argv[1], sys.argv[2].split(), int(sys.argv[3]), sys.argv[4:]
def fail(msg):
    sys.exit("lab fault: " + msg)
try:
    data = json.load(open(path))
except (OSError, ValueError):
    data = {"faults": []}
faults = data.get("faults", [])
if args[0] == "list":
    print(json.dumps(data, indent=2)); sys.exit(0)
if args[0] == "clear":
    faults = []
else:
    if len(args) == 2 and args[1] == "exporter-down":
        args = [args[0], "0", "exporter-down"]   # a whole-node fault: no GPU needed
    if len(args) < 3:
        fail("usage: fault NODE GPU KIND [VALUE] | fault NODE exporter-down")
    node, gpu, kind = args[0], args[1], args[2]
    if node not in nodes:
        fail(f"unknown node {node} (nodes: {' '.join(nodes)})")
    if not gpu.isdigit() or int(gpu) >= gpus:
        fail(f"GPU must be an index 0..{gpus - 1}, got {gpu}")
    needs_value = {"xid": "an Xid code, e.g. 79", "hot": "a temperature in C, e.g. 92",
                   "uncorrectable": "a number of remapped rows, e.g. 3"}
    if kind not in ("xid", "hot", "remap-failure", "uncorrectable", "missing", "exporter-down"):
        fail(f"unknown kind {kind}: xid CODE | hot TEMP | remap-failure | uncorrectable ROWS | missing | exporter-down")
    fault = {"node": node, "gpu": int(gpu), "kind": kind}
    if kind in needs_value:
        if len(args) < 4:
            fail(f"{kind} needs a value: {needs_value[kind]}")
        try:
            fault["value"] = float(args[3])
        except ValueError:
            fail(f"{kind} value must be a number, got {args[3]}")
    faults = [f for f in faults if not (f["node"] == node and f["gpu"] == fault["gpu"] and f["kind"] == kind)]
    faults.append(fault)
tmp = path + ".tmp"
with open(tmp, "w") as out:
    json.dump({"faults": faults}, out, indent=2)
os.replace(tmp, path)   # atomic: the stand-in re-reads this file every poll
EOF
}
