#pragma once

#include "event_sink.h"

#include <cstdio>
#include <mutex>
#include <string>

namespace strata::burn {

// Protocol v1: one JSON object per line, flushed at once so a reader streaming over SSH sees
// each event as it happens.
class JsonLinesSink final : public EventSink
{
public:
    explicit JsonLinesSink(std::FILE *out) : m_out(out) {}

    void start(const StartEvent &event) override;
    void progress(const ProgressEvent &event) override;
    void telemetry(const TelemetrySample &sample) override;
    void result(const ResultEvent &event) override;
    void error(const ErrorEvent &event) override;
    void summary(const SummaryEvent &event) override;

    // The rendering, separate from writing, so tests can check a line without a pipe.
    static std::string startLine(const StartEvent &event);
    static std::string progressLine(const ProgressEvent &event);
    static std::string telemetryLine(const TelemetrySample &sample);
    static std::string resultLine(const ResultEvent &event);
    static std::string errorLine(const ErrorEvent &event);
    static std::string summaryLine(const SummaryEvent &event);

    static constexpr int protocolVersion = 1;

private:
    void write(const std::string &line);
    std::FILE *m_out;
    std::mutex m_mutex;
};

} // namespace strata::burn
