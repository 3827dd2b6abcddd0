#include "link_schedule.h"

namespace strata::burn {

std::vector<std::vector<LinkPair>> ringRounds(const std::vector<int> &gpus)
{
    const int n = static_cast<int>(gpus.size());
    std::vector<std::vector<LinkPair>> rounds;
    for (int r = 1; r < n; ++r) {
        std::vector<LinkPair> round;
        for (int i = 0; i < n; ++i)
            round.push_back({gpus[static_cast<std::size_t>(i)], gpus[static_cast<std::size_t>((i + r) % n)]});
        rounds.push_back(round);
    }
    return rounds;
}

LinkPair ringPairOf(const std::vector<int> &gpus, int gpu, int round)
{
    const int n = static_cast<int>(gpus.size());
    for (int i = 0; i < n; ++i)
        if (gpus[static_cast<std::size_t>(i)] == gpu && round >= 1 && round < n)
            return {gpu, gpus[static_cast<std::size_t>((i + round) % n)]};
    return {};
}

void fillLinkPattern(std::uint64_t *words, std::size_t count, std::uint64_t seed)
{
    for (std::size_t i = 0; i < count; ++i)
        words[i] = patternWord(PatternKind::Random, seed, i);
}

std::uint64_t countLinkMismatches(const std::uint64_t *words, std::size_t count, std::uint64_t seed)
{
    PatternTally tally;
    for (std::size_t i = 0; i < count; ++i)
        tallyWord(tally, patternWord(PatternKind::Random, seed, i), words[i]);
    return tally.wordErrors;
}

} // namespace strata::burn
