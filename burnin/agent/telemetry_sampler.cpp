#include "telemetry_sampler.h"

#include "throttle_reasons.h"

#include <algorithm>
#include <chrono>

namespace strata::burn {

TelemetrySampler::TelemetrySampler(const NvmlLibrary *nvml, std::vector<Target> targets,
                                   EventSink &sink, double intervalSeconds)
    : m_nvml(nvml), m_sink(sink), m_interval(intervalSeconds)
{
    bool any = false;
    for (const Target &t : targets) {
        m_accumulators[t.gpu].device = t.nvmlDevice;
        any = any || t.nvmlDevice;
    }
    if (m_nvml && m_nvml->available() && any)
        m_thread = std::thread(&TelemetrySampler::run, this);
}

TelemetrySampler::~TelemetrySampler()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void TelemetrySampler::sampleOne(int gpu, Accumulator &acc, bool emit)
{
    if (!acc.device)
        return;
    const TelemetrySample s = m_nvml->sample(acc.device, gpu);
    TelemetrySummary &sum = acc.summary;
    ++sum.samples;
    auto maxOf = [](std::optional<double> &target, const std::optional<double> &v) {
        if (v)
            target = target ? std::max(*target, *v) : *v;
    };
    maxOf(sum.maxTempC, s.tempC);
    maxOf(sum.maxPowerW, s.powerW);
    if (s.smClockMHz) {
        sum.minSmClockMHz = sum.minSmClockMHz ? std::min(*sum.minSmClockMHz, *s.smClockMHz) : *s.smClockMHz;
        acc.smClockSum += *s.smClockMHz;
        ++acc.smClockSamples;
        sum.meanSmClockMHz = acc.smClockSum / acc.smClockSamples;
    }
    if (s.throttleMask) {
        sum.throttleMask |= *s.throttleMask;
        sum.throttleReasons = throttleReasonNames(sum.throttleMask);
    }
    if (emit)
        m_sink.telemetry(s);
}

void TelemetrySampler::run()
{
    std::unique_lock lock(m_mutex);
    while (!m_stop) {
        for (auto &[gpu, acc] : m_accumulators)
            sampleOne(gpu, acc, true);
        m_wake.wait_for(lock, std::chrono::duration<double>(m_interval), [this] { return m_stop; });
    }
}

void TelemetrySampler::beginTest(int gpu)
{
    const std::lock_guard lock(m_mutex);
    auto it = m_accumulators.find(gpu);
    if (it == m_accumulators.end())
        return;
    it->second.summary = TelemetrySummary{};
    it->second.smClockSum = 0;
    it->second.smClockSamples = 0;
}

std::optional<TelemetrySummary> TelemetrySampler::endTest(int gpu)
{
    const std::lock_guard lock(m_mutex);
    auto it = m_accumulators.find(gpu);
    if (!m_nvml || !m_nvml->available() || it == m_accumulators.end() || !it->second.device)
        return std::nullopt;
    // One sample at the end too, so a test shorter than the interval still has one under load.
    sampleOne(gpu, it->second, false);
    return it->second.summary;
}

} // namespace strata::burn
