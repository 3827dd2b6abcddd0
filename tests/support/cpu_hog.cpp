#include "cpu_hog.h"

#include <algorithm>

namespace strata {

CpuHog::CpuHog()
{
    const unsigned count = std::max(2u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < count; ++i)
        m_threads.emplace_back([this] {
            volatile unsigned long spins = 0;
            while (!m_stop.load(std::memory_order_relaxed))
                spins = spins + 1;
        });
}

CpuHog::~CpuHog()
{
    m_stop = true;
    for (std::thread &t : m_threads)
        t.join();
}

} // namespace strata
