#!/usr/bin/env bash
# The Slurm snapshot of one or more Strata builds against one plain squeue, in the same minutes,
# on the scale lab that `scripts/bench-scale --keep-up` left running (2,048 nodes, 50,000 jobs,
# in the network namespace strata-bench-scale). Each round runs, one after another: `squeue -a -r`
# over the lab's ssh, then `strata snapshot --format json` of each build (Slurm only); prints
# each wall time and, at the end, the medians. Run as root (ip netns exec).
#   scripts/bench-scale --runs 0 --kube-runs 0 --pods 500 --keep-up
#   benchmarks/scale/cli_vs_squeue.sh ROUNDS BUILD_DIR...
#   lab/lab down --dir /tmp/strata-bench-scale   (inside the namespace: ip netns exec strata-bench-scale ...)
set -euo pipefail
rounds="${1:?usage: cli_vs_squeue.sh ROUNDS BUILD_DIR...}"; shift
[ $# -ge 1 ] || { echo "cli_vs_squeue.sh: no build dir" >&2; exit 2; }
netns="${STRATA_BENCH_NETNS:-strata-bench-scale}"
lab="${STRATA_BENCH_LAB:-/tmp/strata-bench-scale}"
[ -s "$lab/connect.args" ] || { echo "cli_vs_squeue.sh: no lab in $lab (scripts/bench-scale --keep-up)" >&2; exit 1; }
# connect.args without Prometheus and Alertmanager: the Slurm part alone.
flags=()
skip=0
while IFS= read -r a; do
    if [ $skip -eq 1 ]; then skip=0; continue; fi
    case "$a" in --prometheus|--alertmanager) skip=1; continue ;; esac
    flags+=("$a")
done <"$lab/connect.args"
conf="$(sed -n 's/^export SLURM_CONF=//p' "$lab/lab.env")"
ssh_cmd=(ssh -p 22022 -i "$lab/ssh/id_ed25519" -o "UserKnownHostsFile=$lab/ssh/known_hosts" -o BatchMode=yes
         -o LogLevel=ERROR "$(id -un)@127.0.0.1" "SLURM_CONF=$conf squeue -a -r")

wall() { # wall LABEL CMD...: seconds, to 0.01; the command's output is dropped, a failure said.
    local t0 t1 label="$1"
    shift
    t0=$(date +%s.%N)
    if ! ip netns exec "$netns" "$@" >/dev/null 2>/tmp/cli_vs_squeue.err; then
        echo "  $label FAILED: $(head -c 300 /tmp/cli_vs_squeue.err)" >&2
    fi
    t1=$(date +%s.%N)
    printf '%.2f' "$(echo "$t1 - $t0" | bc)"
}

declare -A times
for r in $(seq 1 "$rounds"); do
    line="round $r: squeue $(wall squeue "${ssh_cmd[@]}") s"
    times[squeue]+="$(echo "$line" | awk '{print $4}') "
    for b in "$@"; do
        t="$(wall "$b" "$b/app/strata" snapshot --format json "${flags[@]}")"
        times[$b]+="$t "
        line+=", $b $t s"
    done
    echo "$line"
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }
echo "medians over $rounds rounds: squeue $(median <<<"${times[squeue]}") s"
for b in "$@"; do echo "  $b: $(median <<<"${times[$b]}") s"; done
