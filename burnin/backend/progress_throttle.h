#pragma once

#include "backend.h"

#include <algorithm>
#include <chrono>

namespace strata::burn {

// Reports a test's progress at most once per interval, so a long test does not flood the
// protocol. Shared by the backends; the CPU backend reports more often (its tests are short).
class ProgressThrottle
{
public:
    ProgressThrottle(const TestParams &params, double intervalSeconds)
        : m_params(params), m_interval(intervalSeconds)
    {
    }
    void report(double fraction, const char *figure, double value)
    {
        const auto now = std::chrono::steady_clock::now();
        if (!m_params.progress || std::chrono::duration<double>(now - m_last).count() < m_interval)
            return;
        m_last = now;
        m_params.progress(std::clamp(fraction, 0.0, 1.0), figure, value);
    }

private:
    const TestParams &m_params;
    const double m_interval;
    std::chrono::steady_clock::time_point m_last = std::chrono::steady_clock::now();
};

} // namespace strata::burn
