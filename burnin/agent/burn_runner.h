#pragma once

#include "agent_options.h"
#include "backend.h"
#include "event_sink.h"
#include "nvml_library.h"

#include <atomic>
#include <string>

namespace strata::burn {

// Runs the requested tests on every selected device at once, one thread per device, and
// reports through the sink. Owned by main; lives for one run.
class BurnRunner
{
public:
    // `stop` (may be null) is set by a signal handler: tests end early, the summary says so.
    BurnRunner(Backend &backend, const NvmlLibrary *nvml, EventSink &sink,
               const AgentOptions &options, std::string host, std::string agentVersion,
               const std::atomic<bool> *stop = nullptr);

    // The exit status: 0 when every GPU passed, 1 when one failed, 3 when nothing could run,
    // 4 when interrupted.
    int run(const std::string &metricsEndpoint);

private:
    Backend &m_backend;
    const NvmlLibrary *m_nvml;
    EventSink &m_sink;
    const AgentOptions &m_options;
    std::string m_host;
    std::string m_agentVersion;
    const std::atomic<bool> *m_stop;
};

std::string utcTimestamp();

} // namespace strata::burn
