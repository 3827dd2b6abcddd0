#pragma once

#include <atomic>
#include <thread>
#include <vector>

namespace strata {

// Keeps every core busy while it lives (one spinning thread per core), so threads under test
// are preempted at random points, as on a loaded CI machine running ctest -j. Races that never
// show on an idle machine (the posted-event crash of issue 10) show under it.
class CpuHog
{
public:
    CpuHog();
    ~CpuHog();
    CpuHog(const CpuHog &) = delete;
    CpuHog &operator=(const CpuHog &) = delete;

private:
    std::atomic<bool> m_stop{false};
    std::vector<std::thread> m_threads;
};

} // namespace strata
