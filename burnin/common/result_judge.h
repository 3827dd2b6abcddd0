#pragma once

#include "test_result.h"

#include <optional>
#include <string>
#include <vector>

namespace strata::burn {

// The agent's own verdict: correctness always, absolute floors only when the caller gave them.
// Judging against the catalog and against peer GPUs is the console's job (core/burnin).
struct JudgeLimits
{
    std::optional<double> floorTflops;
    std::optional<double> floorTBps; // applied to the HBM copy bandwidth
};

struct Judgement
{
    bool passed = true;
    std::vector<std::string> reasons; // why it failed; empty when it passed
};

Judgement judgeResult(const TestResult &result, const JudgeLimits &limits);

} // namespace strata::burn
