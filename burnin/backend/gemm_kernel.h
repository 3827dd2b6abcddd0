#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace strata::burn {

// Our own tensor-core BF16 GEMM (mma.sync m16n8k16 through inline PTX, sm_80 and newer):
// C (M x N, fp32, row-major) = A (M x K, bf16, row-major) * B^T, B being N x K bf16 row-major,
// the same product gemmBf16Reference() computes on the host.
constexpr int gemmTileM = 128;
constexpr int gemmTileN = 128;
constexpr int gemmTileK = 32;

// M and N must be multiples of 128, K of 32. Returns the launch error, if any.
cudaError_t launchBf16Gemm(const std::uint16_t *a, const std::uint16_t *b, float *c, int m, int n,
                           int k, cudaStream_t stream);

// Adds to *mismatches the number of 32-bit words of `other` that differ from `first`.
cudaError_t launchCountMismatches(const float *first, const float *other, std::size_t count,
                                  unsigned long long *mismatches, cudaStream_t stream);

// dst = |src| for count bf16 values (the sign bit cleared: exact).
cudaError_t launchAbsBf16(const std::uint16_t *src, std::uint16_t *dst, std::size_t count, cudaStream_t stream);

// The full-matrix comparison of two engines' products x and y of the same inputs: counts into
// *outOfBounds the elements where |x - y| exceeds relBound * scale (scale = sum |a b| of that
// element, the product of |A| and |B|; NaN counts too) and raises *worstRatioBits (a float's
// bits; the ratios are not negative, so their bits order like them) to the worst
// |x - y| / (relBound * scale).
cudaError_t launchCompareProducts(const float *x, const float *y, const float *scale, std::size_t count,
                                  float relBound, unsigned long long *outOfBounds, unsigned *worstRatioBits,
                                  cudaStream_t stream);

// Flips one bit of one word: the --inject bitflip self-test.
cudaError_t launchFlipBit(void *words32, std::size_t index, unsigned bit, cudaStream_t stream);

// Keeps the GPU busy-waiting for `ns` nanoseconds: the --inject slow self-test.
cudaError_t launchSpin(unsigned long long ns, cudaStream_t stream);

} // namespace strata::burn
