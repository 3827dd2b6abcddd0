#pragma once

#include "pattern.h"
#include "test_result.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata::burn {

// Host versions of the pattern pass; the CUDA kernels compute the same patternWord() per word.
void fillPattern(std::uint64_t *words, std::size_t count, PatternKind kind, std::uint64_t seed);

struct PatternCheck
{
    std::uint64_t bitErrors = 0;
    std::uint64_t wordErrors = 0;
    std::vector<PatternError> errors; // at most maxErrors, lowest offsets first
};

PatternCheck checkPattern(const std::uint64_t *words, std::size_t count, PatternKind kind,
                          std::uint64_t seed, std::size_t maxErrors);

// How many error addresses a result carries; more would only bloat one JSON line.
constexpr std::size_t maxReportedErrors = 16;

} // namespace strata::burn
