#include "reference_kernels.h"

#include "bf16.h"
#include "fp8.h"

namespace strata::burn {

namespace {

constexpr int tile = 16;  // 16 x 16 elements of C per block, one per thread
constexpr int tileK = 32; // k values staged in shared memory per pass

STRATA_HD float decode(std::uint16_t v) { return floatFromBf16(v); }
STRATA_HD float decode(std::uint8_t v) { return floatFromFp8E4m3(v); }

// One thread per element; rows of A and B staged through shared memory as exact fp32 values.
// M, N need not be multiples of the tile; K is walked in order, as the hardware's steps are.
template <typename T>
__global__ void __launch_bounds__(tile * tile)
    referenceKernel(const T *__restrict__ a, const T *__restrict__ b, StoredReference *__restrict__ out, int m, int n,
                    int k, AccumulationModel model)
{
    __shared__ float sa[tile][tileK + 1];
    __shared__ float sb[tile][tileK + 1];
    const int tx = threadIdx.x % tile, ty = threadIdx.x / tile;
    const int row = blockIdx.y * tile + ty;
    const int col = blockIdx.x * tile + tx;
    ReferenceDot dot;
    for (int k0 = 0; k0 < k; k0 += tileK) {
        for (int i = threadIdx.x; i < tile * tileK; i += tile * tile) {
            const int r = i / tileK, p = i % tileK;
            const int ar = blockIdx.y * tile + r, br = blockIdx.x * tile + r;
            sa[r][p] = ar < m && k0 + p < k ? decode(a[std::size_t(ar) * k + k0 + p]) : 0.0f;
            sb[r][p] = br < n && k0 + p < k ? decode(b[std::size_t(br) * k + k0 + p]) : 0.0f;
        }
        __syncthreads();
        const int count = k - k0 < tileK ? k - k0 : tileK;
        for (int p = 0; p < count; ++p)
            dot.add(static_cast<double>(sa[ty][p]) * static_cast<double>(sb[tx][p]), model);
        __syncthreads();
    }
    if (row < m && col < n)
        out[std::size_t(row) * n + col] = storeReference(dot, model);
}

__global__ void compareWithReferenceKernel(const float *__restrict__ c, const StoredReference *__restrict__ references,
                                           std::size_t begin, std::size_t end, unsigned long long *outOfBoundsCount,
                                           unsigned *worstRatioBits)
{
    unsigned long long local = 0;
    float worst = 0.0f;
    for (std::size_t i = begin + blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < end;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const StoredReference r = references[i];
        if (outOfBounds(c[i], r.reference, r.bound))
            ++local;
        worst = fmaxf(worst, static_cast<float>(boundRatio(c[i], r.reference, r.bound)));
    }
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        local += __shfl_down_sync(0xffffffffu, local, offset);
        worst = fmaxf(worst, __shfl_down_sync(0xffffffffu, worst, offset));
    }
    if (threadIdx.x % 32 == 0) {
        if (local)
            atomicAdd(outOfBoundsCount, local);
        atomicMax(worstRatioBits, __float_as_uint(worst));
    }
}

template <typename T>
cudaError_t launchReference(const T *a, const T *b, StoredReference *out, int m, int n, int k,
                            const AccumulationModel &model, cudaStream_t stream)
{
    if (m <= 0 || n <= 0 || k <= 0)
        return cudaErrorInvalidValue;
    const dim3 grid((n + tile - 1) / tile, (m + tile - 1) / tile);
    referenceKernel<T><<<grid, tile * tile, 0, stream>>>(a, b, out, m, n, k, model);
    return cudaGetLastError();
}

} // namespace

cudaError_t launchReferenceBf16(const std::uint16_t *a, const std::uint16_t *b, StoredReference *out, int m, int n,
                                int k, cudaStream_t stream)
{
    return launchReference(a, b, out, m, n, k, bf16Accumulation, stream);
}

cudaError_t launchReferenceFp8(const std::uint8_t *a, const std::uint8_t *b, StoredReference *out, int m, int n,
                               int k, cudaStream_t stream)
{
    return launchReference(a, b, out, m, n, k, fp8Accumulation, stream);
}

cudaError_t launchCompareWithReference(const float *c, const StoredReference *references, std::size_t begin,
                                       std::size_t end, unsigned long long *outOfBoundsCount, unsigned *worstRatioBits,
                                       cudaStream_t stream)
{
    if (end <= begin)
        return cudaSuccess;
    compareWithReferenceKernel<<<1024, 256, 0, stream>>>(c, references, begin, end, outOfBoundsCount, worstRatioBits);
    return cudaGetLastError();
}

} // namespace strata::burn
