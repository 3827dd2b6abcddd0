#!/usr/bin/env bash
# strata report against the lab's real accounting (issue 32): GPU-hours per user and per account
# over a fixed period equal what sacct itself records for the same period, clipped to it, within
# rounding (0.001 GPU-hours): two finished jobs (2 GPUs for ~6 s, 1 GPU for ~3 s) and one still
# running across the period's end. Also its CSV is one row per group plus a total.
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
STRATA="$STRATA_BINARY_DIR/app/strata"
mapfile -t connect < "$STRATA_LAB_DIR/connect.args"
work="$(mktemp -d)"
trap 'cleanup_jobs; rm -rf "$work"' EXIT

[ "${STRATA_LAB_ACCOUNTING:-}" = slurmdbd ] || fail "lab.env says accounting '${STRATA_LAB_ACCOUNTING:-}', not slurmdbd"
utc() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%S; }
start_s=$(($(date +%s) - 2))
two="$(sbatch --parsable -p train --gres=gpu:2 -A inference -J report-two --output=/dev/null --wrap 'sleep 6')"
one="$(sbatch --parsable -p train --gres=gpu:1 -J 'report =one,"x"' --output=/dev/null --wrap 'sleep 3')"
long="$(sbatch --parsable -p train --gres=gpu:1 -J report-long --output=/dev/null --wrap 'sleep 300')"
TEST_JOBS+=("$two" "$one" "$long")
ended() { [[ "$(sacct -X -n -P -j "$1" -o State,End 2>/dev/null)" == COMPLETED\|2* ]]; }
wait_until 60 "jobs $two and $one COMPLETED in sacct" eval "ended $two && ended $one"
wait_until 30 "job $long running" job_is "$long" RUNNING
sleep 2
end_s=$(date +%s)
pass "jobs $two (2 GPUs), $one (1 GPU) finished and $long runs across the period's end"

# What sacct records for the period, clipped to it: GPU-hours by user and by account.
TZ=UTC0 SLURM_TIME_FORMAT=%s sacct -X -a -n -P -S "$(utc "$start_s")" -E "$(utc "$end_s")" \
    -o User,Account,Start,End,AllocTRES > "$work/sacct.txt"
"$STRATA" report "${connect[@]}" --start "$(utc "$start_s")Z" --end "$(utc "$end_s")Z" --by user --jobs \
    --format json > "$work/report.json" 2> "$work/report.err" || fail "strata report: $(cat "$work/report.err")"
# Slurm keeps a name's double quotes as backquotes: the name to expect is the one sacct shows.
one_name="$(sacct -X -n -P -j "$one" -o JobName)"
"$PYTHON" - "$work/sacct.txt" "$work/report.json" "$start_s" "$end_s" "$one_name" "$two" "$one" "$long" <<'PY' || fail "report and sacct differ (above)"
import collections, json, re, sys
rows, report, S, E = open(sys.argv[1]).read().splitlines(), json.load(open(sys.argv[2])), int(sys.argv[3]), int(sys.argv[4])
one_name, ours = sys.argv[5], sys.argv[6:]
by_user, by_account = collections.Counter(), collections.Counter()
for row in rows:
    user, account, start, end, tres = row.split("|")
    m = re.search(r"gres/gpu=(\d+)", tres)
    if not m or not start.isdigit():
        continue
    end = int(end) if end.isdigit() else E
    seconds = max(0, min(end, E) - max(int(start), S))
    by_user[user] += int(m.group(1)) * seconds / 3600
    by_account[account] += int(m.group(1)) * seconds / 3600
assert report["schema"] == "strata.report/1", report["schema"]
groups = {g["key"]: g["gpuHoursAllocated"] for g in report["groups"]}
accounts = collections.Counter()
for j in report["jobs"]:
    accounts[j["account"]] += j["gpuHoursAllocated"]
ok = True
for name, want, got in [("user", by_user, groups), ("account", by_account, accounts)]:
    for key in set(want) | set(k for k, v in got.items() if v > 0):
        print(f"# {name} {key}: sacct {want.get(key, 0):.4f} GPU-h, report {got.get(key, 0):.4f}")
        ok &= abs(want.get(key, 0) - got.get(key, 0)) < 0.001
jobs = {j["id"]: j for j in report["jobs"]}
for job in ours:
    ok &= job in jobs
print(f"# our jobs: {[(j, round(jobs[j]['gpuHoursAllocated'], 4), jobs[j]['basis']) for j in ours if j in jobs]}")
print(f"# job {ours[1]}'s name: {jobs.get(ours[1], {}).get('name')!r}, sacct's {one_name!r}")
ok &= one_name.startswith("report =one,") and jobs.get(ours[1], {}).get("name") == one_name
sys.exit(0 if ok else 1)
PY
pass "GPU-hours per user and per account equal sacct's for the period (within 0.001)"

"$STRATA" report "${connect[@]}" --start "$(utc "$start_s")Z" --end "$(utc "$end_s")Z" --by account --format csv \
    > "$work/report.csv" 2> "$work/report.err" || fail "strata report csv: $(cat "$work/report.err")"
head -n 1 "$work/report.csv" | grep -q '^grouped_by,key,jobs,' || fail "csv header: $(head -n 1 "$work/report.csv")"
tail -n 1 "$work/report.csv" | grep -q '^"total",' || fail "csv has no total row: $(tail -n 1 "$work/report.csv")"
grep -q '^"account","inference",' "$work/report.csv" || fail "csv has no inference row: $(cat "$work/report.csv")"
pass "CSV: one row per account and a total"
echo "all $CHECKS checks passed"
