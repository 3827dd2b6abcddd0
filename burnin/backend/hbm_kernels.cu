#include "hbm_kernels.h"

namespace strata::burn {

namespace {

constexpr int threads = 256;
constexpr int unroll = 4;

__global__ void readKernel(const uint4 *__restrict__ src, std::size_t count, unsigned long long *sink)
{
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    unsigned acc = 0;
    for (; i + (unroll - 1) * stride < count; i += unroll * stride) {
        uint4 v[unroll];
#pragma unroll
        for (int u = 0; u < unroll; ++u)
            v[u] = src[i + u * stride];
#pragma unroll
        for (int u = 0; u < unroll; ++u)
            acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
    for (; i < count; i += stride) {
        const uint4 v = src[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    // A store the compiler cannot prove dead keeps every load; it practically never happens.
    if (acc == 0x9e3779b9u)
        atomicAdd(sink, 1ull);
}

__global__ void writeKernel(uint4 *__restrict__ dst, std::size_t count)
{
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    const uint4 value = make_uint4(0xa5a5a5a5u, 0x5a5a5a5au, threadIdx.x, blockIdx.x);
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count; i += stride)
        dst[i] = value;
}

__global__ void copyKernel(const uint4 *__restrict__ src, uint4 *__restrict__ dst, std::size_t count)
{
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    for (; i + (unroll - 1) * stride < count; i += unroll * stride) {
        uint4 v[unroll];
#pragma unroll
        for (int u = 0; u < unroll; ++u)
            v[u] = src[i + u * stride];
#pragma unroll
        for (int u = 0; u < unroll; ++u)
            dst[i + u * stride] = v[u];
    }
    for (; i < count; i += stride)
        dst[i] = src[i];
}

__global__ void fillPatternKernel(std::uint64_t *words, std::size_t count, PatternKind kind,
                                  std::uint64_t seed)
{
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count; i += stride)
        words[i] = patternWord(kind, seed, i);
}

// Records a bad word in the first free error slot, if any is left.
__device__ __forceinline__ void recordError(DevicePatternCounters *counters, DevicePatternError *errors,
                                            unsigned capacity, std::uint64_t index,
                                            std::uint64_t expected, std::uint64_t actual)
{
    if (!slotsLeft(*static_cast<volatile unsigned *>(&counters->recorded), capacity))
        return;
    const unsigned slot = atomicAdd(&counters->recorded, 1u);
    if (slotsLeft(slot, capacity))
        errors[slot] = {index * 8ull, expected, actual};
}

// Block-wide saturating sum of the threads' tallies into blockTallies[blockIdx.x].
__device__ __forceinline__ void storeBlockTally(PatternTally mine, PatternTally *blockTallies)
{
    __shared__ PatternTally tallies[patternThreads];
    tallies[threadIdx.x] = mine;
    __syncthreads();
    for (int half = patternThreads / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            mergeTally(tallies[threadIdx.x], tallies[threadIdx.x + half]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        blockTallies[blockIdx.x] = tallies[0];
}

__global__ void __launch_bounds__(patternThreads) checkPatternKernel(
    const std::uint64_t *words, std::size_t count, PatternKind kind, std::uint64_t seed,
    PatternTally *blockTallies, DevicePatternCounters *counters, DevicePatternError *errors,
    unsigned capacity)
{
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    PatternTally tally;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count; i += stride) {
        const std::uint64_t expected = patternWord(kind, seed, i);
        const std::uint64_t actual = words[i];
        if (tallyWord(tally, expected, actual))
            recordError(counters, errors, capacity, i, expected, actual);
    }
    storeBlockTally(tally, blockTallies);
}

__global__ void __launch_bounds__(patternThreads) marchPhaseKernel(
    std::uint64_t *words, std::size_t count, std::uint64_t expected, std::uint64_t replacement,
    bool descending, PatternTally *blockTallies, DevicePatternCounters *counters,
    DevicePatternError *errors, unsigned capacity)
{
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    PatternTally tally;
    for (std::size_t n = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; n < count; n += stride) {
        const std::size_t i = marchWordIndex(n, count, descending);
        const std::uint64_t actual = words[i];
        if (tallyWord(tally, expected, actual))
            recordError(counters, errors, capacity, i, expected, actual);
        words[i] = replacement;
    }
    storeBlockTally(tally, blockTallies);
}

} // namespace

cudaError_t launchReadBandwidth(const void *src, std::size_t bytes, unsigned long long *sink,
                                int blocks, cudaStream_t stream)
{
    readKernel<<<blocks, threads, 0, stream>>>(static_cast<const uint4 *>(src), bytes / 16, sink);
    return cudaGetLastError();
}

cudaError_t launchWriteBandwidth(void *dst, std::size_t bytes, int blocks, cudaStream_t stream)
{
    writeKernel<<<blocks, threads, 0, stream>>>(static_cast<uint4 *>(dst), bytes / 16);
    return cudaGetLastError();
}

cudaError_t launchCopyBandwidth(const void *src, void *dst, std::size_t bytes, int blocks,
                                cudaStream_t stream)
{
    copyKernel<<<blocks, threads, 0, stream>>>(static_cast<const uint4 *>(src),
                                               static_cast<uint4 *>(dst), bytes / 16);
    return cudaGetLastError();
}

cudaError_t launchFillPattern(std::uint64_t *words, std::size_t count, PatternKind kind,
                              std::uint64_t seed, int blocks, cudaStream_t stream)
{
    fillPatternKernel<<<blocks, threads, 0, stream>>>(words, count, kind, seed);
    return cudaGetLastError();
}

cudaError_t launchCheckPattern(const std::uint64_t *words, std::size_t count, PatternKind kind,
                               std::uint64_t seed, PatternTally *blockTallies,
                               DevicePatternCounters *counters, DevicePatternError *errors,
                               unsigned capacity, int blocks, cudaStream_t stream)
{
    checkPatternKernel<<<blocks, patternThreads, 0, stream>>>(words, count, kind, seed, blockTallies,
                                                              counters, errors, capacity);
    return cudaGetLastError();
}

cudaError_t launchMarchPhase(std::uint64_t *words, std::size_t count, std::uint64_t expected,
                             std::uint64_t replacement, bool descending, PatternTally *blockTallies,
                             DevicePatternCounters *counters, DevicePatternError *errors,
                             unsigned capacity, int blocks, cudaStream_t stream)
{
    marchPhaseKernel<<<blocks, patternThreads, 0, stream>>>(words, count, expected, replacement, descending,
                                                            blockTallies, counters, errors, capacity);
    return cudaGetLastError();
}

} // namespace strata::burn
