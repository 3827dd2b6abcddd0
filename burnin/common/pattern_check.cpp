#include "pattern_check.h"

#include <algorithm>

namespace strata::burn {

void fillPattern(std::uint64_t *words, std::size_t count, PatternKind kind, std::uint64_t seed)
{
    for (std::size_t i = 0; i < count; ++i)
        words[i] = patternWord(kind, seed, i);
}

namespace {

// Reads one word against its expected value, the same per-word logic as the device kernels.
void checkWord(PatternTally &tally, PatternCheck &check, std::size_t maxErrors, std::uint64_t index,
               std::uint64_t expected, std::uint64_t actual)
{
    if (tallyWord(tally, expected, actual) && slotsLeft(static_cast<unsigned>(check.errors.size()),
                                                        static_cast<unsigned>(maxErrors)))
        check.errors.push_back({index * 8u, expected, actual});
}

void finish(PatternCheck &check, const PatternTally &tally)
{
    check.bitErrors = tally.bitErrors;
    check.wordErrors = tally.wordErrors;
    std::sort(check.errors.begin(), check.errors.end(),
              [](const PatternError &x, const PatternError &y) { return x.offset < y.offset; });
}

} // namespace

PatternCheck checkPattern(const std::uint64_t *words, std::size_t count, PatternKind kind,
                          std::uint64_t seed, std::size_t maxErrors)
{
    PatternCheck check;
    PatternTally tally;
    for (std::size_t i = 0; i < count; ++i)
        checkWord(tally, check, maxErrors, i, patternWord(kind, seed, i), words[i]);
    finish(check, tally);
    return check;
}

PatternCheck movingInversions(std::uint64_t *words, std::size_t count, std::uint64_t seed,
                              std::size_t maxErrors, const StuckBit *stuck,
                              const std::function<void()> &dwell)
{
    const std::uint64_t p = movingInversionWord(seed);
    auto write = [&](std::size_t i, std::uint64_t value) {
        words[i] = value;
        if (stuck && stuck->word == i)
            words[i] = (value & ~(1ull << stuck->bit)) | (std::uint64_t(stuck->value) << stuck->bit);
    };
    PatternCheck check;
    PatternTally tally;
    for (std::size_t i = 0; i < count; ++i)
        write(i, p);
    if (dwell)
        dwell();
    struct Phase { std::uint64_t expected, replacement; bool descending; };
    const Phase phases[] = {{p, ~p, false}, {~p, p, true}, {p, p, false}};
    for (const Phase &phase : phases) {
        for (std::uint64_t n = 0; n < count; ++n) {
            const std::size_t i = static_cast<std::size_t>(marchWordIndex(n, count, phase.descending));
            checkWord(tally, check, maxErrors, i, phase.expected, words[i]);
            write(i, phase.replacement);
        }
    }
    finish(check, tally);
    return check;
}

} // namespace strata::burn
