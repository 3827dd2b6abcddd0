#pragma once

#include "host_device.h"
#include "pattern_tally.h"

#include <cstdint>

namespace strata::burn {

// Memory test patterns over 64-bit words. `index` is the word's position in the tested
// region, so an error's address is index * 8 from the region's start.
enum class PatternKind : int {
    WalkingOnes = 0,
    WalkingZeros = 1,
    AddressAsData = 2,
    AddressComplement = 3,
    Random = 4,
    MovingInversions = 5, // a march of read-and-invert phases; patternWord() is its fill value
};

constexpr int patternKindCount = 6;

inline const char *patternName(PatternKind kind)
{
    switch (kind) {
    case PatternKind::WalkingOnes: return "walking_ones";
    case PatternKind::WalkingZeros: return "walking_zeros";
    case PatternKind::AddressAsData: return "address";
    case PatternKind::AddressComplement: return "address_complement";
    case PatternKind::Random: return "random";
    case PatternKind::MovingInversions: return "moving_inversions";
    }
    return "unknown";
}

STRATA_HD std::uint64_t splitMix64(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// The word expected at `index` for one pass. `seed` changes the walking position and the random
// stream from pass to pass, so every bit of every word sees both values over a few passes.
STRATA_HD std::uint64_t patternWord(PatternKind kind, std::uint64_t seed, std::uint64_t index)
{
    switch (kind) {
    case PatternKind::WalkingOnes: return 1ull << ((index + seed) & 63u);
    case PatternKind::WalkingZeros: return ~(1ull << ((index + seed) & 63u));
    case PatternKind::AddressAsData: return index * 8u;
    case PatternKind::AddressComplement: return ~(index * 8u);
    case PatternKind::Random: return splitMix64(seed ^ (index * 0xd1b54a32d192ed03ull));
    case PatternKind::MovingInversions: return movingInversionWord(seed);
    }
    return 0;
}

} // namespace strata::burn
