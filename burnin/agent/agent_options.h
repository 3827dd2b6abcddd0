#pragma once

#include "backend.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::burn {

struct AgentOptions
{
    std::string backend;                 // "cuda", "cpu", or empty: cuda where a GPU is found
    std::vector<std::string> tests{"gemm", "hbm", "pcie", "p2p"};
    double durationSeconds = 60;         // per test
    std::optional<std::vector<int>> gpus;
    int cpuGpus = 8;
    std::uint64_t cpuMemoryBytes = 8ull << 20;
    bool human = false;
    Injection injection = Injection::None;
    int injectGpu = 0;
    std::optional<double> floorTflops;
    std::optional<double> floorTBps;
    std::optional<double> specTflops;    // overrides the built-in table
    std::optional<double> specTBps;
    std::optional<int> metricsPort;
    std::string metricsAddress = "127.0.0.1";
    std::string pushgateway;             // http://host:port
    int gemmSize = 0;
    GemmEngineRequest gemmEngine = GemmEngineRequest::Auto;
    double dwellSeconds = 0;             // memory test: pattern sits this long before its check
    double telemetryIntervalSeconds = 1.0;
    bool showVersion = false;
    bool showHelp = false;
};

struct ParsedOptions
{
    AgentOptions options;
    std::string error; // empty when the arguments were valid
};

ParsedOptions parseAgentOptions(const std::vector<std::string> &args);

// "60s", "2m", "500ms", or plain seconds; nullopt when malformed or negative.
std::optional<double> parseDuration(std::string_view text);

const char *agentUsage();

} // namespace strata::burn
