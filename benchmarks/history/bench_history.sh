#!/usr/bin/env bash
# benchmarks/history/bench_history.sh: `strata report --since 30d` over JOBS finished jobs (default
# 50,000) in the scale lab's slurmdbd, against one plain sacct of the same period (issue 32).
#   unshare --net benchmarks/history/bench_history.sh [BUILD_DIR] [JOBS] [RUNS]
# Starts the scale lab (lab/lab up --scale 2048, 22.05) in BUILD_DIR/lab-state-history, fills the
# accounting's job table in one SQL statement (jobs every 30 days / JOBS seconds, 5 min to 12 h,
# 1-8 GPUs, one per cloud node, COMPLETED / FAILED / CANCELLED / TIMEOUT, two accounts and
# partitions), times sacct and the report (wall and peak RSS, /usr/bin/time) RUNS times each,
# with and without Prometheus, and takes the lab down. Run it in a network namespace of its own
# (as above) so it never meets another lab's ports; it adds 127.0.0.2 to that namespace's lo
# (Slurm's address lookups want an address beyond 127.0.0.1). Needs root. Figures: docs/PERF.md.
set -uo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
B="$(realpath -m "${1:-$REPO/build}")"
JOBS="${2:-50000}"
RUNS="${3:-3}"
D="$B/lab-state-history"
STRATA="${STRATA_BIN:-$B/app/strata}"   # a copy of the binary, when another build may relink it meanwhile
[ -x "$STRATA" ] || { echo "bench_history: no $STRATA (build it first)" >&2; exit 1; }
ip link set lo up 2>/dev/null || true
ip addr add 127.0.0.2/8 dev lo 2>/dev/null || true
L() { "$REPO/lab/lab" "$@" --dir "$D" --strata-build "$B"; }
elapsed() { echo "$(date +%s.%N) - $1" | bc; }
trap 'L down >/dev/null 2>&1' EXIT
s=$(date +%s.%N); L up --scale 2048 >"$D.up.log" 2>&1 || { tail -n 20 "$D.up.log"; exit 1; }
echo "lab up (--scale 2048): $(elapsed "$s") s"
eval "$(L env)"
sql() { mariadb --no-defaults --socket="$STRATA_LAB_MARIADB_SOCKET" -u root -N "$STRATA_LAB_ACCOUNTING_DB" -e "$1"; }
assoc() { sql "SELECT id_assoc FROM \`strata-lab_assoc_table\` WHERE user='$(id -un)' AND acct='$1'"; }
gpu=$(sql "SELECT id FROM tres_table WHERE type='gres' AND name='gpu'")
h100=$(sql "SELECT id FROM tres_table WHERE type='gres' AND name='gpu:h100'")
h200=$(sql "SELECT id FROM tres_table WHERE type='gres' AND name='gpu:h200'")
step=$((30 * 86400 / JOBS))
s=$(date +%s.%N)
sql "SET @now = UNIX_TIMESTAMP();
INSERT INTO \`strata-lab_job_table\` (mod_time, account, cpus_req, exit_code, job_name, id_assoc, id_job, id_qos, id_resv,
  id_wckey, id_user, id_group, het_job_id, het_job_offset, state_reason_prev, mem_req, nodelist, nodes_alloc, node_inx,
  \`partition\`, priority, state, timelimit, time_submit, time_eligible, time_start, time_end, work_dir, submit_line, tres_alloc, tres_req)
SELECT @now, IF(seq % 3 = 0, 'inference', 'ml-research'), 2 * g, IF(st = 5, 768, 0),
  CONCAT(ELT(seq % 4 + 1, 'train-llama', 'finetune', 'eval', 'infer'), '-', seq),
  IF(seq % 3 = 0, $(assoc inference), $(assoc ml-research)), 1000000 + seq, 1, 0, 0, $(id -u), 0, 0, 4294967294, 0,
  20000, CONCAT('gpu-cloud', LPAD(n, 4, '0')), 1, n - 1, IF(seq % 3 = 0 AND n > 1026, 'inference', 'train'), 1, st, 4294967294,
  sub, sub, sub + 30, LEAST(sub + 330 + (seq * 7919) % 43200, @now - 60), '/tmp', 'sbatch job.sh',
  CONCAT('1=', 2 * g, ',2=20000,4=1,5=', 2 * g, ',$gpu=', g, IF(n <= 1026, ',$h100=', ',$h200='), g),
  CONCAT('1=', 2 * g, ',2=20000,4=1,5=', 2 * g, ',$gpu=', g)
FROM (SELECT seq, 5 + (seq * 37) % 2044 AS n, 1 + seq % 8 AS g,
             CASE WHEN seq % 10 = 0 THEN 5 WHEN seq % 17 = 0 THEN 4 WHEN seq % 23 = 0 THEN 6 ELSE 3 END AS st,
             UNIX_TIMESTAMP() - 30 * 86400 + seq * $step AS sub
      FROM seq_1_to_$JOBS) j" || exit 1
echo "filled $JOBS jobs in $(elapsed "$s") s"
since=$(date -u -d '30 days ago' +%Y-%m-%dT%H:%M:%S)
delim="$(printf '\037')abcdef012345"
out="$(mktemp -d)"
for _ in $(seq 1 "$RUNS"); do
    /usr/bin/time -o "$out/t" -f "%e s wall, %M KB peak" env TZ=UTC0 SLURM_TIME_FORMAT=standard sacct -X -a -n -p \
        "--delimiter=$delim" -S "$since" -E now \
        --format=JobID,User,Account,Partition,State,ExitCode,Submit,Start,End,NodeList,AllocTRES,JobName >"$out/sacct"
    echo "sacct: $(cat "$out/t"), $(wc -l <"$out/sacct") rows, $(wc -c <"$out/sacct") bytes"
done
mapfile -t with_prom <"$D/connect.args"
mapfile -t without_prom < <(grep -v -x -e --prometheus -e "$STRATA_LAB_PROMETHEUS_URL" "$D/connect.args")
for _ in $(seq 1 "$RUNS"); do
    /usr/bin/time -o "$out/t" -f "%e s wall, %M KB peak" "$STRATA" report "${without_prom[@]}" --since 30d >/dev/null 2>&1
    echo "strata report --since 30d, no Prometheus: rc $? $(cat "$out/t")"
done
for _ in $(seq 1 "$RUNS"); do
    /usr/bin/time -o "$out/t" -f "%e s wall, %M KB peak" "$STRATA" report "${with_prom[@]}" --since 30d >"$out/report" 2>/dev/null
    echo "strata report --since 30d: rc $? $(cat "$out/t")"
done
head -n 1 "$out/report"
rm -rf "$out"
