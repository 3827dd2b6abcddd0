#!/usr/bin/env bash
# GPU check of strata-burn, for a machine with an NVIDIA GPU (written for one H200; any sm_80+
# GPU works). Builds the agent standalone (no Qt needed) plus the cuBLAS comparison tool, then
# in one run, about 3-5 minutes:
#   1. lists the embedded GPU code (sm_80, sm_90a, sm_100, compute_80 PTX must be there);
#   2. checks our BF16 GEMM against cuBLAS element by element and times both, and our HBM
#      copy kernel against cudaMemcpy device to device;
#   3. runs the agent (gemm, hbm, pcie, p2p) on every GPU;
#   4. times the agent's GEMM engines (cuBLASLt BF16, the own 64x64-warp-tile kernel, cuBLASLt
#      FP8 E4M3 where the GPU has it) in 3 interleaved rounds of >= 2 s each, every run with its
#      own verification (sampled double reference, bitwise repeats, own-vs-cuBLASLt full matrix);
#      checks the path without libcublasLt (auto falls back and says why, cublaslt refuses);
#   5. proves a planted bit flip is caught (--inject bitflip: exit 1, mismatches, bit errors);
#   6. proves a slowed GPU shows (--inject slow: its TFLOPS well below the clean run's).
# One shot on a bare machine with the CUDA toolkit and cmake (no Qt): builds only this GPU's
# architecture, times each engine for >= 2 s in 3 interleaved rounds (ours, cuBLAS, ...) and
# reports medians with the SM clock, exits non-zero below the goals (own GEMM >= 0.6 x cuBLAS,
# the agent's cuBLASLt load >= 0.9 x cuBLAS, HBM copy >= 0.9 x cudaMemcpy D2D, every check of
# every engine clean) and writes the PERF.md rows to $OUT/PERF-row.md and
# $OUT/PERF-engines-row.md. Aimed at under 4 minutes on one H200.
# Prints a summary at the end and exits non-zero if any check failed. Logs and the agent's
# JSON lines go to $OUT (the device tool's output folder) or /tmp/strata-burn-gpu-check-out.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=gpu-check-lib.sh
. "$here/gpu-check-lib.sh"
out=${OUT:-/tmp/strata-burn-gpu-check-out}
build=${GPU_CHECK_BUILD:-/tmp/strata-burn-gpu-check}
duration=${GPU_CHECK_DURATION:-5s}
gemm_goal=0.6
load_goal=0.9
copy_goal=0.9
mkdir -p "$out"
failures=()
fail() { failures+=("$1"); echo "FAILED: $1"; }
step() { echo; echo "== $*"; }

step "GPU"
nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm,compute_cap --format=csv 2>&1 | tee "$out/nvidia-smi.txt"
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' ')
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
arch=$(cuda_arch_for_cap "$cap") || exit 2

step "build (standalone burnin/, CUDA on, tools on, sm_$arch only)"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if ! cmake -S "$here" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DSTRATA_BURN_CUDA=ON -DSTRATA_BURN_TOOLS=ON -DSTRATA_BURN_CUDA_ARCHITECTURES="$arch-real" \
        >"$out/build.log" 2>&1 ||
   ! cmake --build "$build" --target strata-burn strata-burn-cublas-check -j"$(nproc)" >>"$out/build.log" 2>&1; then
    tail -40 "$out/build.log"
    echo "build failed; see $out/build.log"
    exit 2
fi
agent="$build/strata-burn"
"$agent" --version

step "embedded GPU code"
python3 "$here/tools/fatbin_list.py" --expect "sm_$arch" "$agent" || fail "the agent lacks sm_$arch"

step "our GEMM and copy kernels against cuBLAS and cudaMemcpy (3 interleaved rounds, >= 2 s each)"
clock_log=$(mktemp)
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader,nounits -i 0 -lms 500 >"$clock_log" 2>&1 &
clock_pid=$!
"$build/strata-burn-cublas-check" --size 8192 --reps 10 --rounds 3 --seconds 2 2>&1 | tee "$out/cublas-check.txt"
[ "${PIPESTATUS[0]}" = 0 ] || fail "our GEMM disagrees with cuBLAS (or the check could not run)"
kill "$clock_pid" 2>/dev/null
wait "$clock_pid" 2>/dev/null
# shellcheck disable=SC2046 # one number per line
sm_clock=$(median $(grep -E '^[0-9]+$' "$clock_log")) || sm_clock="?"
rm -f "$clock_log"
echo "median SM clock during the comparison: $sm_clock MHz"
if row=$(perf_row "$(date -u +%F)" "$gpu_name" "$sm_clock" <"$out/cublas-check.txt"); then
    echo "$row" | tee "$out/PERF-row.md"
    ours=$(echo "$row" | awk -F'|' '{ print $5 }')
    theirs=$(echo "$row" | awk -F'|' '{ print $6 }')
    our_copy=$(echo "$row" | awk -F'|' '{ print $8 }')
    memcpy_copy=$(echo "$row" | awk -F'|' '{ print $9 }')
    meets_goal "$ours" "$theirs" "$gemm_goal" || fail "own GEMM $ours TFLOPS is below $gemm_goal x cuBLAS ($theirs)"
    meets_goal "$our_copy" "$memcpy_copy" "$copy_goal" ||
        fail "HBM copy $our_copy TB/s is below $copy_goal x cudaMemcpy D2D ($memcpy_copy)"
else
    fail "no figures from the cuBLAS check"
fi

step "agent GEMM engines on GPU 0 (3 interleaved rounds, 3 s each)"
engines=(cublaslt own)
case "$arch" in 89|90a|100|103|110|120|121) engines+=(fp8) ;; esac
: >"$out/engine-runs.txt"
for round in 1 2 3; do
    for engine in "${engines[@]}"; do
        "$agent" --gpus 0 --tests gemm --duration 3s --gemm-engine "$engine" \
            >"$out/engine-$engine-$round.jsonl" 2>>"$out/agents.stderr"
        echo "round $round --gemm-engine $engine: exit status $?"
    done
done
python3 - "$out" "${engines[@]}" >"$out/engine-runs.txt" <<'PY' || fail "an engine run did not verify (see $out/engine-runs.txt)"
import json, sys
out, engines = sys.argv[1], sys.argv[2:]
ok, worst_cross, worst_fp8 = True, 0.0, 0.0
for engine in engines:
    for rnd in (1, 2, 3):
        lines = [json.loads(l) for l in open(f"{out}/engine-{engine}-{rnd}.jsonl") if l.strip()]
        r = next((l for l in lines if l["type"] == "result" and l["test"] == "gemm"), None)
        if r is None or r["error"] or not r["figures"]:
            print(f"# {engine} round {rnd}: {r and r['error'] or 'no result'}")
            ok = False
            continue
        f = r["figures"]
        print(f"{f['engine']} {f['tflops']:.1f}")
        clean = r["passed"] and f["mismatches"] == 0 and f["sampledOutOfBounds"] == 0 and f.get("crossCheckOutOfBounds", 0) == 0
        ok = ok and clean and f.get("crossCheckedElements", 0) > 0
        worst_cross = max(worst_cross, f.get("crossCheckWorstRatio", 0))
        if f["engine"].startswith("cublaslt-fp8"):
            worst_fp8 = max(worst_fp8, f["sampledBoundRatio"])
        print(f"# {f['engine']} round {rnd}: {f['tflops']:.1f} TFLOPS, {f['mismatches']} mismatches, sampled "
              f"{f['sampledOutOfBounds']}/{f['sampledElements']} out of bounds (worst {f['sampledBoundRatio']:.3g} x bound), "
              f"cross-check {f.get('crossCheckOutOfBounds')}/{f.get('crossCheckedElements')} (worst {f.get('crossCheckWorstRatio', 0):.3g})"
              + ("" if clean else f" NOT CLEAN: {r['reasons']}"))
print(f"# worst {worst_cross:.3g} {worst_fp8:.3g}")
sys.exit(0 if ok else 1)
PY
grep '^#' "$out/engine-runs.txt" | sed 's/^# //'
grep -v '^#' "$out/engine-runs.txt" | engine_medians | tee "$out/engine-medians.txt"
cublas=$(echo "${row:-}" | awk -F'|' '{ gsub(/ /, "", $6); print $6 }')
lt=$(engine_value cublaslt-bf16 <"$out/engine-medians.txt") || lt=0
meets_goal "$lt" "${cublas:-0}" "$load_goal" || fail "the agent's cuBLASLt load $lt TFLOPS is below $load_goal x cuBLAS (${cublas:-?})"
own=$(engine_value own-bf16 <"$out/engine-medians.txt") || own=0
meets_goal "$own" "${cublas:-0}" "$gemm_goal" || fail "the agent's own kernel $own TFLOPS is below $gemm_goal x cuBLAS (${cublas:-?})"
read -r _ _ worst_cross worst_fp8 < <(grep '^# worst' "$out/engine-runs.txt")
[ "${#engines[@]}" = 3 ] || worst_fp8=-
engine_row "$(date -u +%F)" "$gpu_name" "$sm_clock" "${cublas:-?}" "${worst_cross:-?}" "${worst_fp8:-?}" \
    <"$out/engine-medians.txt" | tee "$out/PERF-engines-row.md"

step "without libcublasLt: auto falls back to the own kernel and says why; cublaslt refuses"
STRATA_BURN_CUBLASLT=/nonexistent/libcublasLt.so.13 "$agent" --gpus 0 --tests gemm --duration 1s \
    >"$out/engine-absent-auto.jsonl" 2>>"$out/agents.stderr"
STRATA_BURN_CUBLASLT=/nonexistent/libcublasLt.so.13 "$agent" --gpus 0 --tests gemm --duration 1s --gemm-engine cublaslt \
    >"$out/engine-absent-cublaslt.jsonl" 2>>"$out/agents.stderr"
python3 - "$out" <<'PY' || fail "the agent without libcublasLt did not fall back or refuse as it should"
import json, sys
out = sys.argv[1]
def gemm(name):
    return next(l for l in (json.loads(x) for x in open(f"{out}/{name}") if x.strip()) if l["type"] == "result")
auto, forced = gemm("engine-absent-auto.jsonl"), gemm("engine-absent-cublaslt.jsonl")
fell_back = (auto["figures"] or {}).get("engine") == "own-bf16" and "not loadable" in (auto["figures"] or {}).get("engineNote", "")
refused = bool(forced["error"]) and "not loadable" in forced["error"]
print(f"auto: {(auto['figures'] or {}).get('engine')} ({(auto['figures'] or {}).get('engineNote')}); cublaslt: {forced['error']}")
sys.exit(0 if fell_back and refused else 1)
PY

step "agent run: gemm,hbm,pcie,p2p for $duration each"
"$agent" --tests gemm,hbm,pcie,p2p --duration "$duration" >"$out/agent-run.jsonl" 2>>"$out/agents.stderr"
rc=$?
echo "exit status $rc"
[ "$rc" = 0 ] || fail "the clean agent run exited $rc"

step "agent run with a planted bit flip on GPU 0"
"$agent" --tests gemm,hbm --duration 3s --inject bitflip:0 >"$out/agent-bitflip.jsonl" 2>>"$out/agents.stderr"
rc=$?
echo "exit status $rc (1 expected)"
[ "$rc" = 1 ] || fail "the planted bit flip did not make the agent exit 1"

step "agent run with GPU 0 slowed"
"$agent" --tests gemm --duration 3s --inject slow:0 >"$out/agent-slow.jsonl" 2>>"$out/agents.stderr"

step "summary"
python3 - "$out" <<'PY' || fail "the agent's output does not show what it should"
import json, sys
out = sys.argv[1]

def results(name):
    lines = [json.loads(l) for l in open(f"{out}/{name}") if l.strip()]
    assert all(l.get("v") == 1 for l in lines), f"{name}: a line without v=1"
    return lines, [l for l in lines if l["type"] == "result"]

ok = True
lines, run = results("agent-run.jsonl")
start = next(l for l in lines if l["type"] == "start")
print(f"agent {start['version']} backend {start['backend']} on {start['host']}: "
      f"{len(start['gpus'])} GPU(s), telemetry: {start['nvmlStatus']}")
for r in run:
    if r["error"] or r["skipped"]:
        print(f"GPU {r['gpu']} {r['test']}: " + (f"error: {r['error']}" if r["error"] else f"skipped: {r['skipped']}"))
        ok = ok and not r["error"]
        continue
    f = r["figures"] or {}
    t = r.get("telemetry") or {}
    tel = (f"  max {t.get('maxTempC')} C, {t.get('maxPowerW')} W, mean SM {t.get('meanSmClockMHz')} MHz, "
           f"throttle {t.get('throttleReasons')}") if t else "  no telemetry"
    if r["test"] == "gemm":
        print(f"GPU {r['gpu']} gemm {f['m']}^3 {f.get('engine')}: {f['tflops']:.1f} TFLOPS ({f['pctOfSpec'] or 0:.0f}% of spec), "
              f"{f['mismatches']} mismatches, sampled rel.err {f['sampledRelError']:.2g}" + tel)
    elif r["test"] == "hbm":
        print(f"GPU {r['gpu']} hbm: read {f['readTBps']:.2f} write {f['writeTBps']:.2f} copy {f['copyTBps']:.2f} TB/s "
              f"({f['pctOfSpec'] or 0:.0f}% of spec), {f['bitErrors']} bit errors over "
              f"{f['patternBytes'] / 2**30:.1f} GiB x {f['patternPasses']} passes" + tel)
    elif r["test"] == "pcie":
        print(f"GPU {r['gpu']} pcie: H2D {f['h2dGBps']:.1f} GB/s, D2H {f['d2hGBps']:.1f} GB/s")
    else:
        print(f"GPU {r['gpu']} p2p: " + (r["skipped"] or str(f.get("peers"))))
    if not r["passed"] and not r["skipped"]:
        ok = False
        print(f"  not passed: {r['reasons']}")

_, flip = results("agent-bitflip.jsonl")
g = next(r for r in flip if r["gpu"] == 0 and r["test"] == "gemm")
h = next(r for r in flip if r["gpu"] == 0 and r["test"] == "hbm")
caught = (g["figures"] or {}).get("mismatches", 0) > 0 and (h["figures"] or {}).get("bitErrors", 0) > 0
print(f"planted bit flip: gemm mismatches {(g['figures'] or {}).get('mismatches')}, hbm bit errors "
      f"{(h['figures'] or {}).get('bitErrors')} at {[e['offset'] for e in (h['figures'] or {}).get('errorAddresses', [])]}"
      f" -> {'CAUGHT' if caught else 'MISSED'}")
ok = ok and caught

_, slow = results("agent-slow.jsonl")
clean = next(r for r in run if r["gpu"] == 0 and r["test"] == "gemm")["figures"]["tflops"]
slowed = next(r for r in slow if r["gpu"] == 0 and r["test"] == "gemm")["figures"]["tflops"]
shows = slowed < 0.5 * clean
print(f"slowed GPU 0: {slowed:.1f} TFLOPS against {clean:.1f} clean -> {'SHOWS' if shows else 'DOES NOT SHOW'}")
ok = ok and shows
sys.exit(0 if ok else 1)
PY
grep -E "^gemm|^hbm" "$out/cublas-check.txt"
cat "$out/engine-medians.txt"

echo
if [ ${#failures[@]} -eq 0 ]; then
    echo "GPU CHECK PASSED"
else
    printf 'GPU CHECK FAILED:\n'; printf '  %s\n' "${failures[@]}"
    exit 1
fi
