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

# A node whose work runs slowly (issue 27's planted slow node for the fabric test): the job steps
# its slurmd starts go into a cpu cgroup of their own limited to PERCENT of one CPU (cgroup v1's
# cpu controller or v2's cpu.max, whichever this host mounts). slurmd itself stays out: a starved
# slurmd answers slurmctld late and the next round's job waited minutes to start on 24.11. The
# lab's proctrack/linuxproc and task/none place nothing, so a small mover (a detached loop, its
# pid in DIR/cpu-slow-mover-NODE.pid) moves the node's work into the group every 0.2 s; what it
# forks afterwards is born in it. The node's work: slurmd's descendants (22.05), and where slurmd
# runs in a UTS namespace of its own (the 24.11 lab: one per node, its hostname) every other
# process in it, since 24.11's slurmstepd leaves slurmd (a double fork, its parent becomes 1).
cpu_cgroup_root() {
    if [ -w /sys/fs/cgroup/cpu/cgroup.procs ] && [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
        echo /sys/fs/cgroup/cpu
    elif [ -w /sys/fs/cgroup/cgroup.procs ] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
        grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu >/sys/fs/cgroup/cgroup.subtree_control || return 1
        echo /sys/fs/cgroup
    else
        return 1
    fi
}
cpu_slow_cgroup() { echo "$1/strata-lab-$(printf '%s' "$D" | cksum | cut -d' ' -f1)-$2"; }
cpu_slow_mover_pid_file() { echo "$D/cpu-slow-mover-$1.pid"; }

# The mover's loop, run detached: while slurmd lives and the group exists, the node's work (see
# above) not yet in the group goes into it; slurmd itself never.
cpu_slow_mover() {
    local slurmd="$1" group="$2" pid own_uts
    own_uts="$(readlink "/proc/$$/ns/uts")"
    while [ -d "/proc/$slurmd" ] && [ -d "$group" ]; do
        for pid in $(ps -e -o pid=,ppid=,utsns= | awk -v root="$slurmd" -v host_uts="${own_uts//[!0-9]/}" '
                { parent[$1] = $2; uts[$1] = $3; pids[NR] = $1 }
                END { node_uts = uts[root]; own_ns = node_uts != "" && node_uts != host_uts
                      for (i = 1; i <= NR; i++) { p = pids[i]; if (p == root) continue
                        if (own_ns && uts[p] == node_uts) { print p; continue }
                        q = parent[p]; n = 0
                        while (q != "" && q != 0 && q != root && n++ < 64) q = parent[q]
                        if (q == root) print p } }'); do
            grep -qx "$pid" "$group/cgroup.procs" 2>/dev/null || echo "$pid" >"$group/cgroup.procs" 2>/dev/null || true
        done
        sleep 0.2
    done
}

fault_cpu_slow() {
    local node="$1" percent="$2" root group pid mover
    [[ "$percent" =~ ^[0-9]+$ ]] && [ "$percent" -ge 1 ] && [ "$percent" -le 100 ] || die "cpu-slow PERCENT: 1..100 (of one CPU)"
    root="$(cpu_cgroup_root)" || die "cpu-slow needs a writable cpu cgroup (cgroup v1 cpu or v2 with the cpu controller)"
    pid="$(service_pid "slurmd@$node")" || die "slurmd@$node is not running"
    group="$(cpu_slow_cgroup "$root" "$node")"
    mkdir -p "$group"
    # A quota (PERCENT of one CPU when the host is idle) and a weight (PERCENT of a normal
    # task's share when it is busy, as on CI's 2 cores with two labs' tests at once): slow
    # relative to the other nodes either way.
    if [ -f "$group/cpu.cfs_quota_us" ]; then
        echo 100000 >"$group/cpu.cfs_period_us"
        echo $((percent * 1000)) >"$group/cpu.cfs_quota_us"
        echo $((percent * 1024 / 100 > 2 ? percent * 1024 / 100 : 2)) >"$group/cpu.shares"
    else
        echo "$((percent * 1000)) 100000" >"$group/cpu.max"
        echo $((percent > 1 ? percent : 1)) >"$group/cpu.weight"
    fi
    mover="$(cpu_slow_mover_pid_file "$node")"
    if ! { [ -f "$mover" ] && [ -d "/proc/$(cat "$mover")" ]; }; then
        # Without cmd_fault's lock: the mover outlives it, and would hold every later 'fault'.
        setsid bash -c "$(declare -f cpu_slow_mover); cpu_slow_mover $pid '$group'" </dev/null >/dev/null 2>&1 {lock}>&- &
        echo $! >"$mover"
    fi
    echo "$node cpu-slow $percent" >>"$D/cpu-slow.faults"
}

# clear_cpu_slow [NODE...]: every node's slow work (none named), or only the named nodes'.
clear_cpu_slow() {
    local root group pid f n
    for f in "$D"/cpu-slow-mover-*.pid; do
        [ -f "$f" ] || continue
        if [ $# -gt 0 ]; then
            n="${f##*/cpu-slow-mover-}"
            [[ " $* " == *" ${n%.pid} "* ]] || continue
        fi
        pid="$(cat "$f" 2>/dev/null)"
        # Only our mover: its command line is bash running cpu_slow_mover.
        if [[ "$pid" =~ ^[0-9]+$ ]] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q cpu_slow_mover; then
            kill "$pid" 2>/dev/null || true
        fi
        rm -f "$f"
    done
    [ -f "$D/cpu-slow.faults" ] || return 0
    root="$(cpu_cgroup_root)" || return 0
    local groups=()
    if [ $# -eq 0 ]; then
        groups=("$(cpu_slow_cgroup "$root" "")"*)
    else
        for n in "$@"; do groups+=("$(cpu_slow_cgroup "$root" "$n")"); done
    fi
    for group in "${groups[@]}"; do
        [ -d "$group" ] || continue
        while read -r pid; do echo "$pid" >"$root/cgroup.procs" 2>/dev/null || true; done <"$group/cgroup.procs"
        rmdir "$group" 2>/dev/null || true
    done
    if [ $# -eq 0 ]; then
        rm -f "$D/cpu-slow.faults"
    else
        local keep
        keep="$(grep -vE "^($(IFS='|'; echo "$*")) " "$D/cpu-slow.faults" || true)"
        if [ -n "$keep" ]; then echo "$keep" >"$D/cpu-slow.faults"; else rm -f "$D/cpu-slow.faults"; fi
    fi
}

cmd_fault() {
    [ ${#ARGS[@]} -ge 1 ] || die "usage: lab/lab fault NODE GPU KIND [VALUE] | fault clear | fault list"
    local n lock
    # One 'fault' at a time (flock, held until this process exits): the Slurm tests and the
    # Kubernetes tests plant and clear at once, and each rewrites the fault file (and a clear,
    # cpu-slow.faults); two at once would lose the other's change.
    mkdir -p "$DCGM_DIR"
    exec {lock}>>"$DCGM_DIR/faults.lock"
    flock "$lock"
    if [ "${ARGS[1]:-}" = cpu-slow ]; then
        node_index "${ARGS[0]}" >/dev/null || die "unknown node ${ARGS[0]}"
        fault_cpu_slow "${ARGS[0]}" "${ARGS[2]:-}"
        return 0
    fi
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
        # 'fault clear NODE...': only those nodes' faults. The Slurm cluster's tests and the
        # Kubernetes cluster's run at once, and neither clears what the other planted.
        for n in "${ARGS[@]:1}"; do
            [[ " ${NODES[*]} ${KUBE_NODES[*]} " == *" $n "* ]] || die "unknown node $n (nodes: ${NODES[*]} ${KUBE_NODES[*]})"
        done
        clear_cpu_slow "${ARGS[@]:1}"
        for n in "${NODES[@]}"; do
            [ ${#ARGS[@]} -eq 1 ] || [[ " ${ARGS[*]:1} " == *" $n "* ]] || continue
            rm -rf "${FABRIC_DIR:?}/$n/sys" "$FABRIC_DIR/$n/proc"; write_fabric_files "$n"
        done
    fi
    # GPU faults: the Slurm nodes' and (22.05) the kube stand-in's nodes, all in the DCGM stand-in.
    "$PYTHON" - "$DCGM_DIR/faults.json" "${NODES[*]} ${KUBE_NODES[*]}" "$GPUS_PER_NODE" "${ARGS[@]}" <<'EOF'
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
    print(json.dumps(data, indent=2))
    if os.path.exists(os.path.join(os.path.dirname(os.path.dirname(path)), "cpu-slow.faults")):
        print(open(os.path.join(os.path.dirname(os.path.dirname(path)), "cpu-slow.faults")).read(), end="")
    sys.exit(0)
if args[0] == "clear":
    faults = [f for f in faults if args[1:] and f["node"] not in args[1:]]
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
                   "uncorrectable": "a number of remapped rows, e.g. 3",
                   "slow": "the utilisation in % a held GPU works at, e.g. 30",
                   "nvlink-errors": "NVLink replays a second, e.g. 5"}
    if kind not in ("xid", "hot", "remap-failure", "uncorrectable", "missing", "exporter-down", "slow", "nvlink-errors", "moved-from"):
        fail(f"unknown kind {kind}: xid CODE | hot TEMP | remap-failure | uncorrectable ROWS | missing | exporter-down | slow PERCENT | nvlink-errors PER_SECOND | moved-from NODE:GPU")
    fault = {"node": node, "gpu": int(gpu), "kind": kind}
    if kind == "moved-from":
        # The GPU reports another's UUID: that card moved here (the repair loop's record follows it).
        source = args[3] if len(args) > 3 else ""
        src_node, _, src_gpu = source.rpartition(":")
        if src_node not in nodes or not src_gpu.isdigit() or int(src_gpu) >= gpus:
            fail(f"moved-from needs NODE:GPU of a lab GPU, e.g. gpu-node03:3, got {source!r}")
        fault["from"] = source
    elif kind in needs_value:
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
