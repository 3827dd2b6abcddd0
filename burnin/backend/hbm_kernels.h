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

// The bounded slot index of the error addresses; zero it before each pass. It stops growing
// once the slots are full (slotsLeft() in pattern_tally.h), so it cannot wrap.
struct DevicePatternCounters
{
    unsigned int recorded;
};

// Threads per block of the pattern kernels; blockTallies holds one PatternTally per block.
constexpr int patternThreads = 256;

cudaError_t launchFillPattern(std::uint64_t *words, std::size_t count, PatternKind kind,
                              std::uint64_t seed, int blocks, cudaStream_t stream);
// Each block writes its own saturating tally to blockTallies[blockIdx.x] (no same-address
// atomics); the host merges them with mergeTally().
cudaError_t launchCheckPattern(const std::uint64_t *words, std::size_t count, PatternKind kind,
                               std::uint64_t seed, PatternTally *blockTallies,
                               DevicePatternCounters *counters, DevicePatternError *errors,
                               unsigned capacity, int blocks, cudaStream_t stream);

// One moving-inversions phase: every word (descending order when asked) is read against
// `expected` and overwritten with `replacement`; tallies and error slots as above.
cudaError_t launchMarchPhase(std::uint64_t *words, std::size_t count, std::uint64_t expected,
                             std::uint64_t replacement, bool descending, PatternTally *blockTallies,
                             DevicePatternCounters *counters, DevicePatternError *errors,
                             unsigned capacity, int blocks, cudaStream_t stream);

} // namespace strata::burn
