#pragma once

#include <QString>

#include <optional>

namespace strata {

// What the application inside a job reports of its own work, beside its GPUs (AppMetricsQuery
// reads it from Prometheus). Serving: requests, tokens/s and latencies; training: step time,
// throughput and loss. Missing values stay empty, never zero: a TGI server has no
// time-to-first-token metric, a training job without a loss gauge has no loss.
struct AppMetrics
{
    QString server; // whose names the values came from: "vllm", "tgi", "triton", "training"; empty: none

    std::optional<double> requestsRunning;
    std::optional<double> requestsWaiting;
    std::optional<double> requestsPerSecond;
    std::optional<double> tokensPerSecond;           // generated (serving) or trained (training) tokens
    std::optional<double> timeToFirstTokenSeconds;   // mean over the rate window
    std::optional<double> timePerOutputTokenSeconds; // mean over the rate window
    std::optional<double> requestLatencySeconds;     // mean end-to-end (Triton)

    std::optional<double> stepSeconds;       // the slowest rank's last step
    std::optional<double> samplesPerSecond;
    std::optional<double> loss;

    bool isEmpty() const { return server.isEmpty(); }
};

} // namespace strata
