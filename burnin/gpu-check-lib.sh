# shellcheck shell=bash
# Pure helpers of gpu-check.sh (no GPU needed), sourced by it and by tst_burnin_gpu_check_lib.

# CUDA architecture to build for a compute capability as nvidia-smi prints it ("9.0"): Hopper
# gets sm_90a (its own instructions), every other GPU its plain sm_XY.
cuda_arch_for_cap() {
    local cap=$1
    if ! [[ $cap =~ ^([0-9]+)\.([0-9])$ ]]; then
        echo "not a compute capability: '$cap'" >&2
        return 1
    fi
    local arch="${BASH_REMATCH[1]}${BASH_REMATCH[2]}"
    if [ "$arch" -lt 80 ]; then
        echo "compute capability $cap has no BF16 tensor cores (sm_80 or newer needed)" >&2
        return 1
    fi
    [ "$arch" = 90 ] && arch=90a
    echo "$arch"
}

# Median of the numbers given as arguments (the middle one; the upper middle for an even count).
median() {
    [ $# -gt 0 ] || { echo "median of nothing" >&2; return 1; }
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int(NR / 2) + 1] }'
}

# Exit status 0 when ours / reference >= goal (all decimal numbers).
meets_goal() {
    awk -v a="$1" -v b="$2" -v g="$3" 'BEGIN { exit !(b > 0 && a / b >= g) }'
}

# One PERF.md table row from the cuBLAS check's output (stdin) and the SM clock median.
perf_row() {
    local date=$1 gpu=$2 clock=$3
    awk -v date="$date" -v gpu="$gpu" -v clock="$clock" '
        /^gemm .*median/ { for (i = 1; i <= NF; ++i) { if ($i == "ours") o = $(i + 1); if ($i == "cuBLAS") c = $(i + 1) } }
        /^hbm copy/ { for (i = 1; i <= NF; ++i) { if ($i == "ours") oc = $(i + 1); if ($i == "D2D") mc = $(i + 1) } }
        END {
            if (o == "" || c == "" || oc == "" || mc == "") { print "incomplete cuBLAS check output" > "/dev/stderr"; exit 1 }
            printf "| %s | %s | %s | %s | %s | %.2f | %s | %s | %.2f |\n", date, gpu, clock, o, c, o / c, oc, mc, oc / mc
        }'
}

# Median per engine from lines "ENGINE VALUE" (stdin): "ENGINE MEDIAN" per engine, in the order
# the engines first appear.
engine_medians() {
    local lines engine
    lines=$(cat)
    while read -r engine; do
        # shellcheck disable=SC2046 # one number per word
        echo "$engine $(median $(awk -v e="$engine" '$1 == e { print $2 }' <<<"$lines"))"
    done < <(awk '!seen[$1]++ { print $1 }' <<<"$lines")
}

# The value engine_medians gave ENGINE (stdin holds its output); exit 1 when the engine is absent.
engine_value() {
    awk -v e="$1" '$1 == e { print $2; found = 1 } END { exit !found }'
}

# One row of PERF.md's engine table: the agent's GEMM engines (medians, stdin as engine_medians
# prints them) against the cuBLAS BF16 figure of the comparison tool, with the reference checks'
# (full matrix and stress slices) and the FP8 bound's worst ratios.
engine_row() {
    local date=$1 gpu=$2 clock=$3 cublas=$4 cross=$5 fp8_ratio=$6 medians lt own fp8
    medians=$(cat)
    lt=$(engine_value cublaslt-bf16 <<<"$medians") || lt=-
    own=$(engine_value own-bf16 <<<"$medians") || own=-
    fp8=$(engine_value cublaslt-fp8-e4m3 <<<"$medians") || fp8=-
    awk -v d="$date" -v g="$gpu" -v c="$clock" -v ref="$cublas" -v lt="$lt" -v own="$own" -v fp8="$fp8" \
        -v cross="$cross" -v r8="$fp8_ratio" '
        function ratio(x) { return (x == "-" || ref <= 0) ? "-" : sprintf("%.2f", x / ref) }
        BEGIN { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", d, g, c, ref, lt, ratio(lt), own, ratio(own), fp8, cross, r8 }'
}

# Exit status 0 when version $1 (dotted, "3.22.1") is at least $2 ("3.24").
version_at_least() {
    awk -v have="$1" -v need="$2" 'BEGIN {
        n = split(have, h, "."); m = split(need, w, ".")
        for (i = 1; i <= (n > m ? n : m); ++i) {
            a = (i <= n ? h[i] : 0) + 0; b = (i <= m ? w[i] : 0) + 0
            if (a != b) exit !(a > b)
        }
        exit 0
    }'
}

# The problem with cmake's version $1 (as `cmake --version` prints it on its first line, or
# empty when cmake is missing) and its fix, or nothing when it is new enough (the agent's
# CMakeLists needs 3.24; Ubuntu 22.04 and DGX OS 6 ship 3.22).
cmake_problem() {
    local line=$1 version
    version=$(sed -n 's/^cmake version \([0-9][0-9.]*\).*/\1/p' <<<"$line")
    if [ -z "$version" ]; then
        echo "cmake not found: install cmake >= 3.24 (python3 -m pip install --user 'cmake>=3.24', then put ~/.local/bin first in PATH)"
    elif ! version_at_least "$version" 3.24; then
        echo "cmake $version is older than 3.24: python3 -m pip install --user 'cmake>=3.24' (or Kitware's APT repository), then put ~/.local/bin first in PATH"
    fi
}

# The CUDA toolkit's root: $CUDA_HOME / $CUDA_PATH, the nvcc in PATH, or /usr/local/cuda.
cuda_home() {
    local nvcc_path
    for candidate in "${CUDA_HOME:-}" "${CUDA_PATH:-}"; do
        [ -n "$candidate" ] && [ -x "$candidate/bin/nvcc" ] && { echo "$candidate"; return 0; }
    done
    if nvcc_path=$(command -v nvcc 2>/dev/null); then
        dirname "$(dirname "$(readlink -f "$nvcc_path")")"
        return 0
    fi
    [ -x /usr/local/cuda/bin/nvcc ] && { echo /usr/local/cuda; return 0; }
    return 1
}

# libcublasLt of the toolkit rooted at $1 (lib64, targets/<arch>/lib, lib; the newest soname
# first), for STRATA_BURN_CUBLASLT: a runfile or tarball toolkit is not on the loader's path,
# so the agent's dlopen would not find it on its own. Exit 1 when there is none.
find_cublaslt() {
    local root=$1 dir lib
    for dir in "$root/lib64" "$root"/targets/*/lib "$root/lib"; do
        [ -d "$dir" ] || continue
        lib=$(find -H "$dir" -maxdepth 1 -name 'libcublasLt.so*' \( -type f -o -type l \) 2>/dev/null | sort -V | tail -1)
        [ -n "$lib" ] && { echo "$lib"; return 0; }
    done
    return 1
}

# The verdict table from lines "CHECK|VERDICT|DETAIL" (stdin), VERDICT one of PASS, FAIL, SKIP;
# exit status 1 when any line is FAIL.
verdict_table() {
    awk -F'|' '
        { check[NR] = $1; verdict[NR] = $2; detail[NR] = $3; if (length($1) > w) w = length($1); if ($2 == "FAIL") failed = 1 }
        END {
            printf "%-" w "s  %-7s %s\n", "check", "verdict", "detail"
            for (i = 1; i <= NR; ++i) printf "%-" w "s  %-7s %s\n", check[i], verdict[i], detail[i]
            exit failed
        }'
}
