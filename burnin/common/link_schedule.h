#pragma once

#include "pattern.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata::burn {

// One copy of the link test: from GPU `from` into GPU `to`'s memory.
struct LinkPair
{
    int from = -1;
    int to = -1;
    bool operator==(const LinkPair &o) const { return from == o.from && to == o.to; }
};

// The ring schedule over the run's GPUs (sorted, distinct): round r (1 .. N-1) sends GPU i to
// GPU (i + r) mod N, so in every round each GPU sends once and receives once, and over the
// N-1 rounds every ordered pair is covered exactly once. Run round by round with all of a
// round's pairs at once it loads every link and the switch evenly (no GPU receives from seven
// at a time); run pair by pair it gives each link's own bandwidth.
std::vector<std::vector<LinkPair>> ringRounds(const std::vector<int> &gpus);

// The pair a GPU sends over in round r (1 .. N-1), or nullopt-like {-1, -1} when not in gpus.
LinkPair ringPairOf(const std::vector<int> &gpus, int gpu, int round);

// Link data check: the sender fills its buffer with the seeded Random pattern, the receiver's
// copy is compared word by word (same patternWord() as the memory test, on host and device).
void fillLinkPattern(std::uint64_t *words, std::size_t count, std::uint64_t seed);
std::uint64_t countLinkMismatches(const std::uint64_t *words, std::size_t count, std::uint64_t seed);

// Seed of one copy, distinct per pair and round, so a stale buffer from an earlier copy fails.
constexpr std::uint64_t linkSeed(int from, int to, int round)
{
    return (static_cast<std::uint64_t>(from) << 40) ^ (static_cast<std::uint64_t>(to) << 20)
        ^ static_cast<std::uint64_t>(round) ^ 0x11bca11ull;
}

} // namespace strata::burn
