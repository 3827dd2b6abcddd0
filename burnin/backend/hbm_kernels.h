#pragma once

#include "pattern.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace strata::burn {

// Bandwidth kernels over 16-byte words: grid-stride, several loads in flight per thread.
cudaError_t launchReadBandwidth(const void *src, std::size_t bytes, unsigned long long *sink,
                                int blocks, cudaStream_t stream);
cudaError_t launchWriteBandwidth(void *dst, std::size_t bytes, int blocks, cudaStream_t stream);
cudaError_t launchCopyBandwidth(const void *src, void *dst, std::size_t bytes, int blocks,
                                cudaStream_t stream);

// One word read back wrong; offset in bytes from the tested region's start.
struct DevicePatternError
{
    unsigned long long offset;
    unsigned long long expected;
    unsigned long long actual;
};

// Counters the check kernel fills; zero them before each check.
struct DevicePatternCounters
{
    unsigned long long bitErrors;
    unsigned long long wordErrors;
    unsigned int recorded; // may exceed the capacity: only the first `capacity` are stored
};

cudaError_t launchFillPattern(std::uint64_t *words, std::size_t count, PatternKind kind,
                              std::uint64_t seed, int blocks, cudaStream_t stream);
cudaError_t launchCheckPattern(const std::uint64_t *words, std::size_t count, PatternKind kind,
                               std::uint64_t seed, DevicePatternCounters *counters,
                               DevicePatternError *errors, unsigned capacity, int blocks,
                               cudaStream_t stream);

} // namespace strata::burn
