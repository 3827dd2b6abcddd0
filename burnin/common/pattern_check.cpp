#include "pattern_check.h"

#include <bit>

namespace strata::burn {

void fillPattern(std::uint64_t *words, std::size_t count, PatternKind kind, std::uint64_t seed)
{
    for (std::size_t i = 0; i < count; ++i)
        words[i] = patternWord(kind, seed, i);
}

PatternCheck checkPattern(const std::uint64_t *words, std::size_t count, PatternKind kind,
                          std::uint64_t seed, std::size_t maxErrors)
{
    PatternCheck check;
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t expected = patternWord(kind, seed, i);
        const std::uint64_t diff = words[i] ^ expected;
        if (diff == 0)
            continue;
        check.bitErrors += static_cast<std::uint64_t>(std::popcount(diff));
        ++check.wordErrors;
        if (check.errors.size() < maxErrors)
            check.errors.push_back({i * 8u, expected, words[i]});
    }
    return check;
}

} // namespace strata::burn
