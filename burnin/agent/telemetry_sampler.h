#pragma once

#include "event_sink.h"
#include "nvml_library.h"

#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace strata::burn {

// Samples NVML for every tested GPU on its own thread, writes each sample to the sink, and
// keeps a running summary per GPU for the test that GPU is running. Owned by the runner;
// beginTest/endTest are called from the GPU threads.
class TelemetrySampler
{
public:
    struct Target
    {
        int gpu = 0;
        void *nvmlDevice = nullptr;
    };

    // nvml may be null (the cpu backend): then there is no thread and no telemetry.
    TelemetrySampler(const NvmlLibrary *nvml, std::vector<Target> targets, EventSink &sink,
                     double intervalSeconds);
    ~TelemetrySampler();
    TelemetrySampler(const TelemetrySampler &) = delete;
    TelemetrySampler &operator=(const TelemetrySampler &) = delete;

    void beginTest(int gpu);
    // The summary since beginTest; nullopt where NVML is absent or knows no such GPU.
    std::optional<TelemetrySummary> endTest(int gpu);

private:
    struct Accumulator
    {
        void *device = nullptr;
        TelemetrySummary summary;
        double smClockSum = 0;
        int smClockSamples = 0;
    };

    void run();
    void sampleOne(int gpu, Accumulator &acc, bool emit);

    const NvmlLibrary *m_nvml;
    EventSink &m_sink;
    double m_interval;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    std::map<int, Accumulator> m_accumulators;
    std::thread m_thread;
};

} // namespace strata::burn
