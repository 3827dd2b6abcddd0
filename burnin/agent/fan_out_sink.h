#pragma once

#include "event_sink.h"

#include <vector>

namespace strata::burn {

// Hands every event to several sinks (the protocol or table, plus metrics).
class FanOutSink final : public EventSink
{
public:
    explicit FanOutSink(std::vector<EventSink *> sinks) : m_sinks(std::move(sinks)) {}

    void start(const StartEvent &e) override { for (EventSink *s : m_sinks) s->start(e); }
    void progress(const ProgressEvent &e) override { for (EventSink *s : m_sinks) s->progress(e); }
    void telemetry(const TelemetrySample &e) override { for (EventSink *s : m_sinks) s->telemetry(e); }
    void result(const ResultEvent &e) override { for (EventSink *s : m_sinks) s->result(e); }
    void error(const ErrorEvent &e) override { for (EventSink *s : m_sinks) s->error(e); }
    void summary(const SummaryEvent &e) override { for (EventSink *s : m_sinks) s->summary(e); }

private:
    std::vector<EventSink *> m_sinks;
};

} // namespace strata::burn
