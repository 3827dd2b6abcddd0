#!/usr/bin/env bash
# The parts of burnin/gpu-check.sh that need no GPU: its syntax, shellcheck where installed, and
# the helpers it sources (architecture choice, medians, goals, the PERF.md row).
set -euo pipefail
src=${1:?usage: tst_burnin_gpu_check_lib.sh SOURCE_DIR}
bash -n "$src/burnin/gpu-check.sh"
if command -v shellcheck >/dev/null; then
    (cd "$src/burnin" && shellcheck -x gpu-check.sh gpu-check-lib.sh)
else
    echo "shellcheck not installed: syntax checked only"
fi
# shellcheck source=../../burnin/gpu-check-lib.sh
. "$src/burnin/gpu-check-lib.sh"
failures=0
expect() { # expect NAME ACTUAL EXPECTED
    if [ "$2" != "$3" ]; then echo "FAIL $1: got '$2', expected '$3'"; failures=$((failures + 1)); else echo "ok   $1"; fi
}
expect "A100 8.0" "$(cuda_arch_for_cap 8.0)" 80
expect "L40S 8.9" "$(cuda_arch_for_cap 8.9)" 89
expect "H200 9.0 gets sm_90a" "$(cuda_arch_for_cap 9.0)" 90a
expect "B200 10.0" "$(cuda_arch_for_cap 10.0)" 100
expect "RTX PRO 6000 12.0" "$(cuda_arch_for_cap 12.0)" 120
expect "T4 7.5 refused" "$(cuda_arch_for_cap 7.5 2>&1 || true)" "compute capability 7.5 has no BF16 tensor cores (sm_80 or newer needed)"
expect "garbage refused" "$(cuda_arch_for_cap 'N/A' 2>&1 || true)" "not a compute capability: 'N/A'"
expect "median odd" "$(median 1980 1755 1830)" 1830
expect "median even (upper middle)" "$(median 4 1 3 2)" 3
expect "median one" "$(median 7)" 7
meets_goal 480 780 0.6 && r=yes || r=no
expect "0.62 meets 0.6" "$r" yes
meets_goal 450 780 0.6 && r=yes || r=no
expect "0.58 misses 0.6" "$r" no
meets_goal 1 0 0.6 && r=yes || r=no
expect "zero reference misses" "$r" no
sample='device: NVIDIA H200, sm_90, 132 SMs, 139.8 GiB
round 1: ours 480.0 TFLOPS, cuBLAS 780.0 TFLOPS
gemm 8192x8192x8192 bf16->fp32 (median of 3 interleaved rounds): ours 481.5 TFLOPS, cuBLAS 779.0 TFLOPS (ours at 62% of cuBLAS)
hbm copy 4.0 GiB: ours 3.950 TB/s, cudaMemcpy D2D 4.300 TB/s (ours at 92%)'
expect "PERF row" "$(perf_row 2026-12-03 'NVIDIA H200' 1830 <<<"$sample")" \
    "| 2026-12-03 | NVIDIA H200 | 1830 | 481.5 | 779.0 | 0.62 | 3.950 | 4.300 | 0.92 |"
expect "PERF row of a failed check" "$(perf_row d g c <<<'device: x' 2>&1 || true)" "incomplete cuBLAS check output"
runs='cublaslt-bf16 742.1
own-bf16 455.0
cublaslt-fp8-e4m3 1320.5
cublaslt-bf16 748.9
own-bf16 450.2
cublaslt-fp8-e4m3 1311.0
cublaslt-bf16 745.0
own-bf16 452.7
cublaslt-fp8-e4m3 1330.0'
expect "engine medians" "$(engine_medians <<<"$runs" | tr '\n' ';')" "cublaslt-bf16 745.0;own-bf16 452.7;cublaslt-fp8-e4m3 1320.5;"
expect "engine value" "$(engine_medians <<<"$runs" | engine_value own-bf16)" 452.7
engine_medians <<<"$runs" | engine_value tf32 >/dev/null && r=found || r=absent
expect "engine value of an engine that did not run" "$r" absent
expect "engine row" "$(engine_medians <<<"$runs" | engine_row 2026-12-03 'NVIDIA H200' 1830 779.0 0.31 0.042)" \
    "| 2026-12-03 | NVIDIA H200 | 1830 | 779.0 | 745.0 | 0.96 | 452.7 | 0.58 | 1320.5 | 0.31 | 0.042 |"
expect "engine row without FP8" "$(printf 'own-bf16 450\n' | engine_row d g c 780 - -)" "| d | g | c | 780 | - | - | 450 | 0.58 | - | - | - |"
version_at_least 3.22.1 3.24 && r=yes || r=no
expect "3.22.1 < 3.24" "$r" no
version_at_least 3.24 3.24 && r=yes || r=no
expect "3.24 >= 3.24" "$r" yes
version_at_least 3.31.6 3.24 && r=yes || r=no
expect "3.31.6 >= 3.24" "$r" yes
version_at_least 4.0 3.24 && r=yes || r=no
expect "4.0 >= 3.24" "$r" yes
expect "cmake new enough" "$(cmake_problem 'cmake version 3.28.3')" ""
expect "cmake of Ubuntu 22.04" "$(cmake_problem 'cmake version 3.22.1')" \
    "cmake 3.22.1 is older than 3.24: python3 -m pip install --user 'cmake>=3.24' (or Kitware's APT repository), then put ~/.local/bin first in PATH"
expect "cmake missing" "$(cmake_problem '')" \
    "cmake not found: install cmake >= 3.24 (python3 -m pip install --user 'cmake>=3.24', then put ~/.local/bin first in PATH)"
toolkit=$(mktemp -d)
trap 'rm -rf "$toolkit"' EXIT
mkdir -p "$toolkit/targets/x86_64-linux/lib" "$toolkit/bin"
find_cublaslt "$toolkit" >/dev/null && r=found || r=absent
expect "toolkit without cuBLASLt" "$r" absent
touch "$toolkit/targets/x86_64-linux/lib/libcublasLt.so.12.9.1.4" "$toolkit/targets/x86_64-linux/lib/libcublasLt.so.13.0.0.19"
ln -s libcublasLt.so.13.0.0.19 "$toolkit/targets/x86_64-linux/lib/libcublasLt.so.13"
expect "runfile toolkit's cuBLASLt (newest)" "$(find_cublaslt "$toolkit")" "$toolkit/targets/x86_64-linux/lib/libcublasLt.so.13.0.0.19"
mkdir -p "$toolkit/pip/lib" && touch "$toolkit/pip/lib/libcublasLt.so.13" && ln -s lib "$toolkit/pip/lib64"
expect "lib64 a link to lib (pip and conda layouts)" "$(find_cublaslt "$toolkit/pip")" "$toolkit/pip/lib64/libcublasLt.so.13"
printf '#!/bin/sh\n' >"$toolkit/bin/nvcc" && chmod +x "$toolkit/bin/nvcc"
expect "CUDA_HOME wins" "$(CUDA_HOME=$toolkit cuda_home)" "$toolkit"
table=$(printf 'build|PASS|sm_90a\nplanted bit flip|FAIL|missed\ncuBLAS comparison|SKIP|dry run\n' | verdict_table) && r=0 || r=$?
expect "verdict table fails on a FAIL" "$r" 1
expect "verdict table" "$(tr '\n' ';' <<<"$table")" \
    "check              verdict detail;build              PASS    sm_90a;planted bit flip   FAIL    missed;cuBLAS comparison  SKIP    dry run;"
printf 'build|PASS|x\n' | verdict_table >/dev/null && r=0 || r=$?
expect "verdict table passes" "$r" 0
[ "$failures" = 0 ] || { echo "$failures failed"; exit 1; }
echo "all passed"
