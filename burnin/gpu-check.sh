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
#      own verification (sampled double reference, bitwise repeats, full matrix and stress-loop
#      slices against the independent fp64 reference, burnin/VERIFICATION.md);
#      checks the path without libcublasLt (auto falls back and says why, cublaslt refuses);
#   5. proves planted flips are caught (--inject bitflip: exit 1; a transient flip by the repeats,
#      a stuck bit by the sampled, full-matrix and slice checks each, a memory bit error);
#   6. proves a slowed GPU shows (--inject slow: its TFLOPS well below the clean run's).
# One shot on a bare machine with the CUDA toolkit and cmake (no Qt): builds only this GPU's
# architecture, times each engine for >= 2 s in 3 interleaved rounds (ours, cuBLAS, ...) and
# reports medians with the SM clock, exits non-zero below the goals (own GEMM >= 0.6 x cuBLAS,
# the agent's cuBLASLt load >= 0.9 x cuBLAS, HBM copy >= 0.9 x cudaMemcpy D2D, every check of
# every engine clean) and writes the PERF.md rows to $OUT/PERF-row.md and
# $OUT/PERF-engines-row.md. Aimed at under 4 minutes on one H200.
# Prerequisites first (cmake >= 3.24, nvcc, the driver, python3), each missing one with its fix;
# STRATA_BURN_CUBLASLT set to the toolkit's libcublasLt unless already set (a runfile or tarball
# toolkit is not on the loader's path). Ends with one verdict table (PASS/FAIL/SKIP per check)
# and exits non-zero if any check failed (2: a prerequisite or the build). Logs and the agent's
# JSON lines go to $OUT (the device tool's output folder) or /tmp/strata-burn-gpu-check-out.
#
# --dry-run: everything but the GPU, on any machine: the agent's CPU backend stands in for the
# GPUs (GPU_CHECK_AGENT=path skips the build; CI passes the agent it built), the steps that need
# a GPU or cuBLAS are reported SKIP, and the verification steps (every check of the product,
# the planted stuck bit and transient flip, the slowed device) run and are judged as on a GPU.
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
dry=0
case "${1:-}" in
    --dry-run) dry=1 ;;
    "") ;;
    *) echo "usage: gpu-check.sh [--dry-run]" >&2; exit 2 ;;
esac
mkdir -p "$out"
failures=()
verdicts=()
fail() { failures+=("$1"); echo "FAILED: $1"; }
step() { echo; echo "== $*"; }
# One row of the verdict table: record CHECK PASS|FAIL|SKIP DETAIL.
record() { verdicts+=("$1|$2|$3"); }
finish() {
    step "verdict"
    printf '%s\n' "${verdicts[@]}" | verdict_table
    if [ ${#failures[@]} -eq 0 ]; then
        echo "GPU CHECK PASSED$([ "$dry" = 1 ] && echo " (dry run: no GPU used)")"
        exit 0
    fi
    printf 'GPU CHECK FAILED:\n'; printf '  %s\n' "${failures[@]}"
    exit "${1:-1}"
}
# The agent on the GPUs, or on the CPU backend's two simulated devices in a dry run.
run_agent() {
    if [ "$dry" = 1 ]; then
        "$agent" --backend cpu --cpu-gpus 2 "$@"
    else
        "$agent" "$@"
    fi
}

step "prerequisites"
problems=()
[ -n "${GPU_CHECK_AGENT:-}" ] || problem=$(cmake_problem "$(cmake --version 2>/dev/null | head -1)")
[ -n "${problem:-}" ] && problems+=("$problem")
command -v python3 >/dev/null || problems+=("python3 not found: apt-get install python3 (the checks' JSON is read with it)")
if toolkit=$(cuda_home); then
    echo "CUDA toolkit: $toolkit ($("$toolkit/bin/nvcc" --version 2>/dev/null | tail -1))"
    if [ -z "${STRATA_BURN_CUBLASLT:-}" ] && lib=$(find_cublaslt "$toolkit"); then
        export STRATA_BURN_CUBLASLT=$lib
    fi
elif [ "$dry" = 0 ]; then
    problems+=("nvcc not found: install the CUDA toolkit (12.8 or newer for sm_100) and put its bin/ in PATH or set CUDA_HOME")
fi
echo "libcublasLt for the agent: ${STRATA_BURN_CUBLASLT:-not found, so the cuBLASLt and FP8 engines will refuse}"
if [ "$dry" = 0 ] && ! nvidia-smi -L >/dev/null 2>&1; then
    problems+=("nvidia-smi fails: install the NVIDIA driver (and reboot), or check that this container sees the GPUs (--gpus all)")
fi
if [ ${#problems[@]} -gt 0 ]; then
    printf '  %s\n' "${problems[@]}"
    for p in "${problems[@]}"; do fail "prerequisite: $p"; done
    record prerequisites FAIL "${#problems[@]} missing (fixes above)"
    finish 2
fi
record prerequisites PASS "${toolkit:-no CUDA toolkit (dry run)}"

step "GPU"
if [ "$dry" = 1 ]; then
    cap=${GPU_CHECK_DRY_CAP:-9.0}
    gpu_name="dry run (CPU backend)"
    echo "dry run: no GPU; building for compute capability $cap"
    record GPU SKIP "dry run"
else
    nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm,compute_cap --format=csv 2>&1 | tee "$out/nvidia-smi.txt"
    cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' ')
    gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
    record GPU PASS "$gpu_name, compute capability $cap"
fi
arch=$(cuda_arch_for_cap "$cap") || { fail "unsupported compute capability $cap"; record GPU FAIL "compute capability $cap"; finish 2; }

if [ -n "${GPU_CHECK_AGENT:-}" ]; then
    agent=$GPU_CHECK_AGENT
    record build SKIP "agent given: $agent"
else
    cuda=ON tools=ON targets=(strata-burn strata-burn-cublas-check)
    [ "$dry" = 1 ] && { cuda=OFF; tools=OFF; targets=(strata-burn); }
    step "build (standalone burnin/, CUDA $cuda, tools $tools, sm_$arch only)"
    generator=()
    command -v ninja >/dev/null && generator=(-G Ninja)
    if ! cmake -S "$here" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
            -DSTRATA_BURN_CUDA=$cuda -DSTRATA_BURN_TOOLS=$tools -DSTRATA_BURN_CUDA_ARCHITECTURES="$arch-real" \
            >"$out/build.log" 2>&1 ||
       ! cmake --build "$build" --target "${targets[@]}" -j"$(nproc)" >>"$out/build.log" 2>&1; then
        tail -40 "$out/build.log"
        echo "build failed; see $out/build.log"
        fail "build"
        record build FAIL "see $out/build.log"
        finish 2
    fi
    agent="$build/strata-burn"
    record build PASS "sm_$arch, CUDA $cuda"
fi
"$agent" --version

if [ "$dry" = 1 ]; then
    record "embedded GPU code" SKIP "dry run"
    record "GEMM and copy vs cuBLAS" SKIP "dry run (needs a GPU and cuBLAS)"
    engines=(cpu)
    row=""
    sm_clock="?"
else
step "embedded GPU code"
if python3 "$here/tools/fatbin_list.py" --expect "sm_$arch" "$agent"; then
    record "embedded GPU code" PASS "sm_$arch"
else
    fail "the agent lacks sm_$arch"
    record "embedded GPU code" FAIL "no sm_$arch"
fi

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
    verdict=PASS
    meets_goal "$ours" "$theirs" "$gemm_goal" || { verdict=FAIL; fail "own GEMM $ours TFLOPS is below $gemm_goal x cuBLAS ($theirs)"; }
    meets_goal "$our_copy" "$memcpy_copy" "$copy_goal" ||
        { verdict=FAIL; fail "HBM copy $our_copy TB/s is below $copy_goal x cudaMemcpy D2D ($memcpy_copy)"; }
    record "GEMM and copy vs cuBLAS" "$verdict" "own $ours / cuBLAS $theirs TFLOPS, copy $our_copy / $memcpy_copy TB/s"
else
    fail "no figures from the cuBLAS check"
    record "GEMM and copy vs cuBLAS" FAIL "no figures"
fi
engines=(cublaslt own)
case "$arch" in 89|90a|100|103|110|120|121) engines+=(fp8) ;; esac
fi

step "agent GEMM engines on GPU 0 (3 interleaved rounds, 3 s each)"
engine_seconds=3s
[ "$dry" = 1 ] && engine_seconds=300ms
: >"$out/engine-runs.txt"
for round in 1 2 3; do
    for engine in "${engines[@]}"; do
        if [ "$engine" = cpu ]; then
            run_agent --gpus 0 --tests gemm --duration "$engine_seconds" >"$out/engine-$engine-$round.jsonl" 2>>"$out/agents.stderr"
        else
            run_agent --gpus 0 --tests gemm --duration "$engine_seconds" --gemm-engine "$engine" \
                >"$out/engine-$engine-$round.jsonl" 2>>"$out/agents.stderr"
        fi
        echo "round $round engine $engine: exit status $?"
    done
done
if python3 - "$out" "${engines[@]}" >"$out/engine-runs.txt" <<'PY'; then record "GEMM engines verify" PASS "${engines[*]}: every check clean, 3 rounds"; else fail "an engine run did not verify (see $out/engine-runs.txt)"; record "GEMM engines verify" FAIL "see $out/engine-runs.txt"; fi
import json, sys
out, engines = sys.argv[1], sys.argv[2:]
ok, worst_reference, worst_fp8 = True, 0.0, 0.0
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
        # Every check ran and is clean: the repeats, the sampled, the full-matrix reference and
        # the stress loop's slices (at least one full rotation of them).
        clean = (r["passed"] and f["mismatches"] == 0 and f["sampledOutOfBounds"] == 0
                 and f.get("referenceOutOfBounds", 1) == 0 and f.get("sliceOutOfBounds", 1) == 0)
        full = f.get("referenceCheckedElements", 0) == f["m"] * f["n"] and f.get("sliceCheckedElements", 0) >= f["m"] * f["n"]
        ok = ok and clean and full
        worst_reference = max(worst_reference, f.get("referenceWorstRatio", 0), f.get("sliceWorstRatio", 0))
        if f["engine"].startswith("cublaslt-fp8"):
            worst_fp8 = max(worst_fp8, f["sampledBoundRatio"])
        print(f"# {f['engine']} round {rnd}: {f['tflops']:.1f} TFLOPS, {f['mismatches']} mismatches, sampled "
              f"{f['sampledOutOfBounds']}/{f['sampledElements']} out of bounds (worst {f['sampledBoundRatio']:.3g} x bound), "
              f"full matrix {f.get('referenceOutOfBounds')}/{f.get('referenceCheckedElements')} (worst {f.get('referenceWorstRatio', 0):.3g}), "
              f"stress slices {f.get('sliceOutOfBounds')}/{f.get('sliceCheckedElements')} (worst {f.get('sliceWorstRatio', 0):.3g})"
              + ("" if clean else f" NOT CLEAN: {r['reasons']}") + ("" if full else " NOT EVERY ELEMENT CHECKED"))
print(f"# worst {worst_reference:.3g} {worst_fp8:.3g}")
sys.exit(0 if ok else 1)
PY
grep '^#' "$out/engine-runs.txt" | sed 's/^# //'
grep -v '^#' "$out/engine-runs.txt" | engine_medians | tee "$out/engine-medians.txt"
if [ "$dry" = 1 ]; then
    record "engine speed vs cuBLAS" SKIP "dry run"
    record "without libcublasLt" SKIP "dry run"
else
cublas=$(echo "${row:-}" | awk -F'|' '{ gsub(/ /, "", $6); print $6 }')
lt=$(engine_value cublaslt-bf16 <"$out/engine-medians.txt") || lt=0
own=$(engine_value own-bf16 <"$out/engine-medians.txt") || own=0
verdict=PASS
meets_goal "$lt" "${cublas:-0}" "$load_goal" || { verdict=FAIL; fail "the agent's cuBLASLt load $lt TFLOPS is below $load_goal x cuBLAS (${cublas:-?})"; }
meets_goal "$own" "${cublas:-0}" "$gemm_goal" || { verdict=FAIL; fail "the agent's own kernel $own TFLOPS is below $gemm_goal x cuBLAS (${cublas:-?})"; }
record "engine speed vs cuBLAS" "$verdict" "cuBLASLt $lt, own $own, cuBLAS ${cublas:-?} TFLOPS"
read -r _ _ worst_reference worst_fp8 < <(grep '^# worst' "$out/engine-runs.txt")
[ "${#engines[@]}" = 3 ] || worst_fp8=-
engine_row "$(date -u +%F)" "$gpu_name" "$sm_clock" "${cublas:-?}" "${worst_reference:-?}" "${worst_fp8:-?}" \
    <"$out/engine-medians.txt" | tee "$out/PERF-engines-row.md"

step "without libcublasLt: auto falls back to the own kernel and says why; cublaslt refuses"
STRATA_BURN_CUBLASLT=/nonexistent/libcublasLt.so.13 "$agent" --gpus 0 --tests gemm --duration 1s \
    >"$out/engine-absent-auto.jsonl" 2>>"$out/agents.stderr"
STRATA_BURN_CUBLASLT=/nonexistent/libcublasLt.so.13 "$agent" --gpus 0 --tests gemm --duration 1s --gemm-engine cublaslt \
    >"$out/engine-absent-cublaslt.jsonl" 2>>"$out/agents.stderr"
if python3 - "$out" <<'PY'; then record "without libcublasLt" PASS "auto falls back, cublaslt refuses"; else fail "the agent without libcublasLt did not fall back or refuse as it should"; record "without libcublasLt" FAIL "see above"; fi
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
fi

[ "$dry" = 1 ] && duration=${GPU_CHECK_DURATION:-300ms}
flip_seconds=3s slow_seconds=3s
[ "$dry" = 1 ] && { flip_seconds=300ms; slow_seconds=300ms; }
step "agent run: gemm,hbm,pcie,p2p for $duration each"
run_agent --tests gemm,hbm,pcie,p2p --duration "$duration" >"$out/agent-run.jsonl" 2>>"$out/agents.stderr"
rc=$?
echo "exit status $rc"
if [ "$rc" = 0 ]; then
    record "agent run (all tests)" PASS "exit 0"
else
    fail "the clean agent run exited $rc"
    record "agent run (all tests)" FAIL "exit $rc"
fi

step "agent run with a planted bit flip on GPU 0"
run_agent --tests gemm,hbm --duration "$flip_seconds" --inject bitflip:0 >"$out/agent-bitflip.jsonl" 2>>"$out/agents.stderr"
rc=$?
echo "exit status $rc (1 expected)"
if [ "$rc" = 1 ]; then
    record "planted flip: agent exit status" PASS "exit 1"
else
    fail "the planted bit flip did not make the agent exit 1"
    record "planted flip: agent exit status" FAIL "exit $rc"
fi

step "agent run with GPU 0 slowed"
run_agent --tests gemm --duration "$slow_seconds" --inject slow:0 >"$out/agent-slow.jsonl" 2>>"$out/agents.stderr"

step "summary"
rm -f "$out/verdicts.txt"
python3 - "$out" <<'PY' || { fail "the agent's output does not show what it should"; record "agent output" FAIL "see the summary above"; }
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
gf, hf = g["figures"] or {}, h["figures"] or {}
# The transient flip: the repeat check. The stuck bit: the sampled, full-matrix and slice checks.
seen = {"repeat": gf.get("mismatches", 0) > 0, "sampled": gf.get("sampledOutOfBounds", 0) > 0,
        "full matrix": gf.get("referenceOutOfBounds", 0) > 0, "stress slices": gf.get("sliceOutOfBounds", 0) > 0,
        "memory": hf.get("bitErrors", 0) > 0}
print(f"planted flips: " + ", ".join(f"{k} {'CAUGHT' if v else 'MISSED'}" for k, v in seen.items())
      + f" (hbm errors at {[e['offset'] for e in hf.get('errorAddresses', [])]})")
with open(f"{out}/verdicts.txt", "a") as v:
    for k, caught in seen.items():
        v.write(f"planted flip: {k}|{'PASS' if caught else 'FAIL'}|{'caught' if caught else 'missed'}\n")
ok = ok and all(seen.values())

_, slow = results("agent-slow.jsonl")
clean = next(r for r in run if r["gpu"] == 0 and r["test"] == "gemm")["figures"]["tflops"]
slowed = next(r for r in slow if r["gpu"] == 0 and r["test"] == "gemm")["figures"]["tflops"]
shows = slowed < 0.5 * clean
print(f"slowed GPU 0: {slowed:.3g} TFLOPS against {clean:.3g} clean -> {'SHOWS' if shows else 'DOES NOT SHOW'}")
with open(f"{out}/verdicts.txt", "a") as v:
    v.write(f"slowed GPU shows|{'PASS' if shows else 'FAIL'}|{slowed:.3g} against {clean:.3g} TFLOPS\n")
ok = ok and shows
sys.exit(0 if ok else 1)
PY
while IFS= read -r line; do verdicts+=("$line"); done < <(cat "$out/verdicts.txt" 2>/dev/null)
if [ "$dry" = 0 ]; then
    grep -E "^gemm|^hbm" "$out/cublas-check.txt"
    cat "$out/engine-medians.txt"
fi
finish
