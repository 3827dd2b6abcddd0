#pragma once

#include "backend.h"
#include "result_judge.h"

#include <optional>
#include <string>
#include <vector>

namespace strata::burn {

// The events of protocol v1 (PROTOCOL.md), as the agent produces them; each sink renders them.

struct GpuEntry
{
    DeviceInfo info;
    std::string model;             // catalog model ("H200"); empty when unknown
    std::optional<double> specTflops;
    std::optional<double> specTBps;
};

struct StartEvent
{
    std::string agentVersion;
    std::string backend;
    std::string host;
    std::string time;              // UTC, ISO 8601
    std::vector<GpuEntry> gpus;
    std::vector<std::string> tests;
    double durationSeconds = 0;
    bool nvmlAvailable = false;
    std::string nvmlStatus;        // why telemetry is absent, or the driver version
    std::string injection;         // "bitflip:0", empty when none
    std::string metricsEndpoint;   // "127.0.0.1:PORT" when exposed
};

struct ProgressEvent
{
    int gpu = 0;
    std::string test;
    double fraction = 0;
    std::string figure;
    double value = 0;
};

struct TelemetrySample
{
    int gpu = 0;
    std::optional<double> tempC;
    std::optional<double> powerW;
    std::optional<double> smClockMHz;
    std::optional<double> memClockMHz;
    std::optional<unsigned long long> throttleMask;
    std::vector<std::string> throttleReasons;
};

// Telemetry over one test's run on one GPU.
struct TelemetrySummary
{
    int samples = 0;
    std::optional<double> maxTempC;
    std::optional<double> maxPowerW;
    std::optional<double> minSmClockMHz;
    std::optional<double> meanSmClockMHz;
    unsigned long long throttleMask = 0;
    std::vector<std::string> throttleReasons;
};

struct ResultEvent
{
    int gpu = 0;
    std::string uuid;
    std::string backend;
    TestResult result;
    Judgement judgement;
    std::optional<double> pctOfSpec;
    std::optional<TelemetrySummary> telemetry; // null where NVML is absent
};

struct ErrorEvent
{
    std::optional<int> gpu;
    std::string message;
};

struct GpuSummary
{
    int gpu = 0;
    std::string uuid;
    bool passed = true;
    std::vector<std::string> failedTests;
    std::vector<std::string> reasons;
};

struct SummaryEvent
{
    std::vector<GpuSummary> gpus;
    bool passed = true;
    int exitCode = 0;
    double seconds = 0;
};

} // namespace strata::burn
