#pragma once

#include "event_sink.h"

#include <cstdio>
#include <mutex>

namespace strata::burn {

// --human: a readable table for someone at a terminal. Not a protocol: never parse it.
class HumanSink final : public EventSink
{
public:
    explicit HumanSink(std::FILE *out) : m_out(out) {}

    void start(const StartEvent &event) override;
    void progress(const ProgressEvent &) override {}
    void telemetry(const TelemetrySample &) override {}
    void result(const ResultEvent &event) override;
    void error(const ErrorEvent &event) override;
    void summary(const SummaryEvent &event) override;

private:
    std::FILE *m_out;
    std::mutex m_mutex;
};

} // namespace strata::burn
