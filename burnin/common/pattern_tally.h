#pragma once

#include "host_device.h"

#include <cstdint>

namespace strata::burn {

// Error counts of a memory pattern pass. Each GPU block (each host chunk) keeps its own and
// adds with saturation, so a badly failing memory neither serialises every thread on one
// same-address atomic nor wraps a counter: at worst a count sticks at its maximum, which the
// verdict reads as "at least this many".
struct PatternTally
{
    std::uint64_t bitErrors = 0;
    std::uint64_t wordErrors = 0;
};

constexpr std::uint64_t tallySaturated = ~0ull;

STRATA_HD std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b)
{
    const std::uint64_t sum = a + b;
    return sum < a ? tallySaturated : sum;
}

STRATA_HD int popcount64(std::uint64_t x)
{
#if defined(__CUDA_ARCH__)
    return __popcll(x);
#else
    return __builtin_popcountll(x);
#endif
}

// Counts one word read back; true when it is wrong.
STRATA_HD bool tallyWord(PatternTally &t, std::uint64_t expected, std::uint64_t actual)
{
    const std::uint64_t diff = expected ^ actual;
    if (diff == 0)
        return false;
    t.bitErrors = saturatingAdd(t.bitErrors, static_cast<std::uint64_t>(popcount64(diff)));
    t.wordErrors = saturatingAdd(t.wordErrors, 1);
    return true;
}

STRATA_HD void mergeTally(PatternTally &into, const PatternTally &from)
{
    into.bitErrors = saturatingAdd(into.bitErrors, from.bitErrors);
    into.wordErrors = saturatingAdd(into.wordErrors, from.wordErrors);
}

// The bounded slot index for the first error addresses: a slot is claimed only while the
// counter is below the capacity, so the counter stops growing soon after the slots are full
// (it can pass the capacity by at most the threads claiming at that moment, never wrap) and a
// stored error is never overwritten.
STRATA_HD bool slotsLeft(unsigned claimed, unsigned capacity) { return claimed < capacity; }

// Moving inversions (van de Goor's MATS+-style march, as memtest86 and cuda_memtest run it):
// fill with p; ascending, read p and write ~p; descending, read ~p and write p; read p. A cell
// stuck at either value, or coupled to a neighbour written before or after it, reads wrong in
// one of the phases. p changes from pass to pass (seeded), so every bit sees 0 and 1.
STRATA_HD std::uint64_t movingInversionWord(std::uint64_t seed)
{
    std::uint64_t x = seed + 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// One march phase over `count` words: index i of the phase touches word wordOf(i).
STRATA_HD std::uint64_t marchWordIndex(std::uint64_t i, std::uint64_t count, bool descending)
{
    return descending ? count - 1 - i : i;
}

} // namespace strata::burn
