#pragma once

#include "pattern.h"
#include "test_result.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace strata::burn {

// Host versions of the pattern pass; the CUDA kernels compute the same patternWord() per word.
void fillPattern(std::uint64_t *words, std::size_t count, PatternKind kind, std::uint64_t seed);

struct PatternCheck
{
    std::uint64_t bitErrors = 0;  // saturating: tallySaturated means "at least this many"
    std::uint64_t wordErrors = 0;
    std::vector<PatternError> errors; // at most maxErrors, lowest offsets first
};

PatternCheck checkPattern(const std::uint64_t *words, std::size_t count, PatternKind kind,
                          std::uint64_t seed, std::size_t maxErrors);

// A planted fault: one bit that reads `value` whatever was written (a stuck cell). Tests and
// the CPU backend's --inject bitflip use it to prove the march catches what it should.
struct StuckBit
{
    std::size_t word = 0;
    unsigned bit = 0;
    bool value = false;
};

// Moving inversions over the words (pattern_tally.h): fill, dwell, ascending read-p-write-~p,
// descending read-~p-write-p, final read-p. `dwell` runs after the fill (retention faults);
// `stuck` (optional) is re-applied after every write, as a faulty cell would.
PatternCheck movingInversions(std::uint64_t *words, std::size_t count, std::uint64_t seed,
                              std::size_t maxErrors, const StuckBit *stuck = nullptr,
                              const std::function<void()> &dwell = {});

// How many error addresses a result carries; more would only bloat one JSON line.
constexpr std::size_t maxReportedErrors = 16;

} // namespace strata::burn
