#pragma once

#include "bf16.h"

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

} // namespace strata::burn
