#pragma once

#include "bf16.h"
#include "fp8.h"
#include "reference_dot.h"

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

// One element of C against the exact dot product of the same inputs (reference_dot.h).
struct ElementCheck
{
    double reference = 0;  // the exact dot product (double is exact enough: 16-bit products)
    double absSum = 0;     // sum |a_p * b_p|
    double partialSum = 0; // sum over p of |a_0 b_0 + ... + a_p b_p|, the partial sums' sizes
    double error = 0;      // |c - reference|; infinity when c is not finite
    double bound = 0;      // the most a correct tensor core may be off by (ReferenceDot::bound)
    bool withinBound() const { return error <= bound; }
};

// Unit roundoff of fp32 (round to nearest): 2^-24.
constexpr double fp32UnitRoundoff = 1.0 / 16777216.0;

// The loose screen burnin/tools/cublas_check uses between two tensor-core engines, where no
// reference is at hand: each k16 step errs by at most 2u (|s_step| + step sum|a b|) <= 2u *
// sum|a b|, two engines twice that. The agent itself checks each engine against the
// independent reference instead (reference_dot.h), ~100x tighter.
constexpr double tensorCoreRelBound(int k)
{
    return 2.0 * 2.0 * fp32UnitRoundoff * (k / 16.0 + 1.0);
}

// Element `index` of makeGemmInput(..., seed) / makeGemmInputFp8(), without generating the
// rest: lets tests work at the agent's size on a few rows.
Bf16Bits gemmInputAt(std::uint64_t seed, std::size_t index);
Fp8E4m3Bits gemmInputFp8At(std::uint64_t seed, std::size_t index);

// C[i][j] against the exact product and the BF16 bound of reference_dot.h (bf16Accumulation).
ElementCheck checkElement(const Bf16Bits *a, const Bf16Bits *b, float got, int i, int j, int k);

// The element's noise floor: the lowest fp32 bit from which every bit's flip surely leaves the
// bound (a change of at least twice the bound, so even a correct result already at its bound's
// edge is pushed out, or a value no longer finite). 32 when even the sign's flip stays inside
// (a value within its bound of zero).
int noiseFloorBit(float value, double bound);

// The full-matrix and stress-loop checks' host side, the same per-element code as the device
// kernels in backend/reference_kernels.cu (reference_dot.h): the stored references of rows
// [rowBegin, rowEnd) of the product of a (rows x k) and b (n x k), row-major.
std::vector<StoredReference> storedReferences(const Bf16Bits *a, const Bf16Bits *b, int n, int k, int rowBegin,
                                              int rowEnd);
std::vector<StoredReference> storedReferencesFp8(const Fp8E4m3Bits *a, const Fp8E4m3Bits *b, int n, int k,
                                                 int rowBegin, int rowEnd);

struct RegionCheck
{
    std::int64_t elements = 0;
    std::int64_t outOfBounds = 0;
    double worstRatio = 0; // worst |c - ref| / bound
};

// Rows [rowBegin, rowEnd) of c (n columns) against references stored for rows from
// referenceRow0 on: what the device's compareWithReference kernel does per element.
RegionCheck checkRegion(const float *c, const StoredReference *references, int referenceRow0, int n,
                        int rowBegin, int rowEnd);

// The FP8 product's inputs: the BF16 inputs' random values, rounded to E4M3 instead.
std::vector<Fp8E4m3Bits> makeGemmInputFp8(std::size_t count, std::uint64_t seed);

// C[i][j] of the E4M3 product against its exact value and the FP8 bound (fp8Accumulation).
ElementCheck checkElementFp8(const Fp8E4m3Bits *a, const Fp8E4m3Bits *b, float got, int i, int j, int k);

// Sample s of a check seeded with `seed`: the element it recomputes.
struct MatrixPosition
{
    int row = 0;
    int column = 0;
};
MatrixPosition sampledPosition(std::uint64_t seed, int s, int m, int n);

// The element --inject bitflip corrupts in every product (a stuck bit): the first one the
// sampled check looks at (seed sampledSeed), so all three reference checks must report it.
constexpr std::uint64_t sampledSeed = 0x5a3b1e;
constexpr int sampledCount = 256;
std::size_t stuckBitElement(int m, int n);

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
