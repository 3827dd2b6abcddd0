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

// Flips one bit of one word: the --inject bitflip self-test.
cudaError_t launchFlipBit(void *words32, std::size_t index, unsigned bit, cudaStream_t stream);

// Keeps the GPU busy-waiting for `ns` nanoseconds: the --inject slow self-test.
cudaError_t launchSpin(unsigned long long ns, cudaStream_t stream);

} // namespace strata::burn
