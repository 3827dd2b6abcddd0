#pragma once

#include "bf16.h"
#include "fp8.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata::burn {

// The product every backend computes: C (M x N, fp32, row-major) = A (M x K, bf16, row-major)
// times B^T, B being N x K bf16 row-major ("TN"), accumulating in fp32.

// Seeded bf16 inputs in [-1, 1), the same on every backend for the same seed.
std::vector<Bf16Bits> makeGemmInput(std::size_t count, std::uint64_t seed);

// The CPU backend's product: bf16 inputs, fp32 accumulation in ascending k order.
void gemmBf16Reference(const Bf16Bits *a, const Bf16Bits *b, float *c, int m, int n, int k);

// The repeat check: the same inputs must give the same bits, whatever the order of the
// accumulation, as long as the kernel is deterministic (ours and cuBLAS without split-K
// atomics are). One word, shared with the device's mismatch kernel.
STRATA_HD unsigned wordMismatch(std::uint32_t first, std::uint32_t other)
{
    return first != other ? 1u : 0u;
}

// Words of `other` whose bits differ from `first`: the silent-data-corruption count.
std::int64_t countMismatches(const float *first, const float *other, std::size_t count);

// One element of C against a double-precision reference of the same bf16 inputs.
struct ElementCheck
{
    double reference = 0;  // the exact dot product (double is exact enough: 16-bit products)
    double absSum = 0;     // sum |a_p * b_p|
    double partialSum = 0; // sum over p of |a_0 b_0 + ... + a_p b_p|, the partial sums' sizes
    double error = 0;      // |c - reference|; infinity when c is not finite
    double bound = 0;      // the most fp32 accumulation may legitimately be off by
    bool withinBound() const { return error <= bound; }
};

// Unit roundoff of fp32 (round to nearest): 2^-24.
constexpr double fp32UnitRoundoff = 1.0 / 16777216.0;

// The error bound of a bf16-input, fp32-accumulate dot product, from the error model:
//  - A product of two bf16 values (8-bit significands) has at most 16 significant bits, so it
//    is exact in fp32: all error comes from the additions.
//  - Recursive fp32 summation in ascending p (the CPU backend, the host reference) satisfies
//    |c - ref| <= u * sum_p |s_p| to first order, s_p the partial sums (Higham, "Accuracy and
//    Stability of Numerical Algorithms", 2nd ed., eq. 4.4), u = 2^-24.
//  - mma.sync m16n8k16 adds 16 products to the fp32 accumulator per step, K/16 steps. NVIDIA's
//    tensor cores align the terms to the largest exponent and truncate (round toward zero)
//    instead of rounding (Fasi et al., "Numerical behavior of NVIDIA tensor cores", PeerJ CS
//    2021), which at most doubles the per-step error: <= 2u (|s_step| + sum of the step's
//    |products|). Summed over the K/16 steps that is about (u/8) sum_p |s_p| + 2u sum |a b|.
//  - cuBLAS may split K into chunks summed separately: each chunk's partial sums are smaller
//    than the running ones, so the same bound holds.
// Bound: 2u * sum_p |s_p| + 4u * sum_p |a_p b_p| covers the sequential order with a 2x margin
// and the tensor-core order with 16x on the first term and 2x on the second.
// Against the old 1/256 * sum|a b|: at K = 8192 with inputs in [-1, 1) that is ~8 on an element
// of size ~30, while this bound is ~0.03 (sum_p |s_p| grows like K^1.5/6, not K^2), so a flip
// is caught from fp32 mantissa bit ~15 up instead of bit 22, and a dropped k16 step (an error
// of ~1) is caught everywhere. The repeat check (bitwise) catches every bit of a transient flip.
constexpr double accumulationBound(double partialSum, double absSum)
{
    // The absolute floor covers underflow of tiny partial sums to fp32 subnormals.
    return 2.0 * fp32UnitRoundoff * partialSum + 4.0 * fp32UnitRoundoff * absSum + 1e-37;
}

// The full-matrix screen when two tensor-core engines (ours, cuBLAS) are compared element by
// element on the device, where the partial sums are not at hand: each step's error is at most
// 2u (|s_step| + step sum|a b|) <= 2u * sum|a b|, so one engine is within 2u (K/16 + 1) sum|a b|
// of the exact product and two engines within twice that: ~1.2e-4 of sum|a b| at K = 8192.
constexpr double tensorCoreRelBound(int k)
{
    return 2.0 * 2.0 * fp32UnitRoundoff * (k / 16.0 + 1.0);
}

// Recomputes C[i][j] in double and judges `got` against the bound above.
ElementCheck checkElement(const Bf16Bits *a, const Bf16Bits *b, float got, int i, int j, int k);

// The FP8 (E4M3 inputs, fp32 output) GEMM's bound, from the same error model with the FP8
// tensor cores' accumulator instead of fp32:
//  - A product of two E4M3 values (4-bit significands) has at most 8 significant bits: exact.
//  - Hopper's FP8 wgmma adds 32 products per step into an accumulator that keeps only about
//    14 significant bits (DeepSeek-V3 technical report, sec. 3.3.2, measured on H800), aligning
//    and truncating. We assume no fewer than 12: each step errs by at most
//    2^-11 (|s_step| + step sum|a b|).
//  - cuBLASLt with fast accumulation off (CUBLASLT_MATMUL_DESC_FAST_ACCUM 0, which the engine
//    sets) promotes that partial sum into fp32 periodically; CUTLASS's Hopper FP8 mainloop does
//    it every 4 wgmma (128 of k). Within one interval the error is then at most
//    2^-11 (4 + 1) interval sum|a b|, over all intervals 5 * 2^-11 sum|a b| (~2.4e-3), plus
//    fp32 adding the K/128 interval sums: 2u (K/128 + 1) sum|a b|.
// An accumulator kept in full fp32 (Blackwell) meets this bound with a wide margin; the figure
// sampledBoundRatio shows how close a device comes (gpu-check.sh reports it). The price of a
// worst-case bound: at K = 8192 it is ~5 on elements of ~14, so the reference check catches an
// FP8 output flip in the exponent or sign (bits 23-31) and leaves the mantissa to the bitwise
// repeat check; an emulated 12-bit accumulator stays under 1 % of the bound
// (tst_burnin_gemm_engine). A calibration on the device could tighten it once GPUs are lent.
constexpr int fp8WgmmaK = 32;
constexpr int fp8PromotionSteps = 4;
constexpr double fp8AccumulatorRoundoff = 1.0 / 2048.0; // 2^-11: 12 significant bits, truncating
constexpr double fp8RelBound(int k)
{
    return (fp8PromotionSteps + 1) * fp8AccumulatorRoundoff
        + 2.0 * fp32UnitRoundoff * (k / double(fp8WgmmaK * fp8PromotionSteps) + 1.0);
}

// The FP8 product's inputs: the BF16 inputs' random values, rounded to E4M3 instead.
std::vector<Fp8E4m3Bits> makeGemmInputFp8(std::size_t count, std::uint64_t seed);

// C[i][j] of the E4M3 product against its double reference and fp8RelBound(k) * sum|a b|.
ElementCheck checkElementFp8(const Fp8E4m3Bits *a, const Fp8E4m3Bits *b, float got, int i, int j, int k);

struct SampledCheck
{
    std::int64_t elements = 0;
    std::int64_t outOfBounds = 0;
    double worstRelError = 0;   // worst |c - ref| / sum|a*b|, the dot product's error scale
    double worstBoundRatio = 0; // worst |c - ref| / bound: above 1 is out of bounds
};

// Recomputes `samples` elements of C in double from the bf16 inputs and judges each with
// checkElement(). Every backend (CPU and CUDA) and the cuBLAS tool verify through this.
SampledCheck checkSampledElements(const Bf16Bits *a, const Bf16Bits *b, const float *c, int m,
                                  int n, int k, int samples, std::uint64_t seed);
// The same for the FP8 product, each element judged by checkElementFp8().
SampledCheck checkSampledElementsFp8(const Fp8E4m3Bits *a, const Fp8E4m3Bits *b, const float *c, int m,
                                     int n, int k, int samples, std::uint64_t seed);

} // namespace strata::burn
