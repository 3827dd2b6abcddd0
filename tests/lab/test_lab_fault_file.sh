#!/usr/bin/env bash
# `lab/lab fault` on the fault file alone (no lab running; about 5 s): the 22.05 lab's Slurm tests
# and Kubernetes tests run at once (tests/CMakeLists.txt), so
#  1. 'fault clear NODE...' removes only those nodes' faults, and 'fault clear' every node's;
#  2. writers at once lose nothing (the file is rewritten under a lock);
#  3. an unknown node is refused, naming the nodes there are.
set -euo pipefail
src=${STRATA_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
LAB="$src/lab/lab"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
faults() { "$LAB" fault list --dir "$dir" | python3 -c 'import json,sys; print(" ".join(sorted("%s/%d/%s" % (f["node"], f["gpu"], f["kind"]) for f in json.load(sys.stdin)["faults"])))'; }

# 1. Scoped and whole clears.
"$LAB" fault --dir "$dir" gpu-node01 3 xid 79 >/dev/null
"$LAB" fault --dir "$dir" gpu-node02 1 hot 92 >/dev/null
"$LAB" fault --dir "$dir" kube-gpu-02 3 xid 79 >/dev/null
"$LAB" fault --dir "$dir" clear gpu-node01 gpu-node02 gpu-node03 gpu-node04 >/dev/null
[ "$(faults)" = "kube-gpu-02/3/xid" ] || fail "clearing the Slurm nodes left: $(faults)"
echo "ok 1 - 'fault clear gpu-node01..04' keeps kube-gpu-02's fault"
"$LAB" fault --dir "$dir" gpu-node04 0 missing >/dev/null
"$LAB" fault --dir "$dir" clear kube-gpu-02 >/dev/null
[ "$(faults)" = "gpu-node04/0/missing" ] || fail "clearing kube-gpu-02 left: $(faults)"
"$LAB" fault --dir "$dir" clear >/dev/null
[ -z "$(faults)" ] || fail "'fault clear' left: $(faults)"
echo "ok 2 - 'fault clear kube-gpu-02' keeps gpu-node04's; 'fault clear' removes every one"

# 2. Sixteen writers at once: sixteen faults.
pids=()
for node in gpu-node01 gpu-node02 kube-gpu-01 kube-gpu-02; do
    for gpu in 0 1 2 3; do
        "$LAB" fault --dir "$dir" "$node" "$gpu" xid 79 >/dev/null & pids+=($!)
    done
done
for p in "${pids[@]}"; do wait "$p" || fail "a writer failed"; done
n=$(faults | wc -w)
[ "$n" -eq 16 ] || fail "16 writers at once left $n faults: $(faults)"
echo "ok 3 - 16 writers at once: 16 faults"

# 3. An unknown node.
if out=$("$LAB" fault --dir "$dir" clear gpu-node99 2>&1); then fail "clearing gpu-node99 succeeded"; fi
[[ $out == *"unknown node gpu-node99"*"kube-gpu-04"* ]] || fail "clearing gpu-node99 said: $out"
[ "$(faults | wc -w)" -eq 16 ] || fail "a refused clear changed the file: $(faults)"
echo "ok 4 - an unknown node is refused, naming the lab's nodes, and nothing is cleared"
