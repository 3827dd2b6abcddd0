#pragma once

#include "agent_events.h"

namespace strata::burn {

// Where the agent's events go: JSON lines, a human table, Prometheus metrics. Called from the
// per-GPU threads and the telemetry thread concurrently: implementations lock themselves.
class EventSink
{
public:
    virtual ~EventSink() = default;
    virtual void start(const StartEvent &event) = 0;
    virtual void progress(const ProgressEvent &event) = 0;
    virtual void telemetry(const TelemetrySample &sample) = 0;
    virtual void result(const ResultEvent &event) = 0;
    virtual void error(const ErrorEvent &event) = 0;
    virtual void summary(const SummaryEvent &event) = 0;
};

} // namespace strata::burn
