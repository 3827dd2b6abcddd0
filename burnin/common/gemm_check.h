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

// Words of `other` whose bits differ from `first`: the silent-data-corruption count.
std::int64_t countMismatches(const float *first, const float *other, std::size_t count);

struct SampledCheck
{
    std::int64_t elements = 0;
    std::int64_t outOfBounds = 0;
    double worstRelError = 0;
};

// Relative error bound for a bf16-input, fp32-accumulate product. Exact products of bf16 are
// representable in fp32, so errors come from accumulation order and tensor-core truncation:
// far below one bf16 ulp (2^-8). A corrupted element lands far above it.
constexpr double gemmRelErrorBound = 1.0 / 256.0;

// Recomputes `samples` elements of C in double from the bf16 inputs and compares them with `c`,
// as |c - ref| / sum|a_i * b_i| (the error scale of a dot product).
SampledCheck checkSampledElements(const Bf16Bits *a, const Bf16Bits *b, const float *c, int m,
                                  int n, int k, int samples, std::uint64_t seed);

} // namespace strata::burn
