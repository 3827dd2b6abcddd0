#pragma once

#include "reference_dot.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace strata::burn {

// The independent reference of the GEMM checks: plain fp64 arithmetic on the CUDA cores, no
// tensor core and no code shared with the kernel under test, so the full-matrix and the
// stress-loop checks do not trust what they check. For each element of C = A * B^T (a: m x k,
// b: n x k, row-major) it runs reference_dot.h's ReferenceDot, the same code as the host's
// sampled check, and stores the exact value (as fp32) and the element's bound.
cudaError_t launchReferenceBf16(const std::uint16_t *a, const std::uint16_t *b, StoredReference *out, int m, int n,
                                int k, cudaStream_t stream);
cudaError_t launchReferenceFp8(const std::uint8_t *a, const std::uint8_t *b, StoredReference *out, int m, int n,
                               int k, cudaStream_t stream);

// Elements [begin, end) of c against their stored references (outOfBounds() of
// reference_dot.h): adds the elements beyond their bound (NaN counts) to *outOfBoundsCount and
// raises *worstRatioBits (a non-negative float's bits, which order like it) to the worst
// |c - ref| / bound.
cudaError_t launchCompareWithReference(const float *c, const StoredReference *references, std::size_t begin,
                                       std::size_t end, unsigned long long *outOfBoundsCount, unsigned *worstRatioBits,
                                       cudaStream_t stream);

} // namespace strata::burn
