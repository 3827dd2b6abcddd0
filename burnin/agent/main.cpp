#include "agent_options.h"
#include "burn_runner.h"
#include "fan_out_sink.h"
#include "human_sink.h"
#include "json_lines_sink.h"
#include "metrics_sink.h"
#include "nvml_library.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <unistd.h>

#ifndef STRATA_BURN_VERSION
#error "STRATA_BURN_VERSION must be defined by the build"
#endif

using namespace strata::burn;

namespace {

// The one process-wide flag: a signal handler can reach nothing else. Lock-free, so setting it
// is async-signal-safe.
std::atomic<bool> stopRequested{false};

void requestStop(int) { stopRequested.store(true); }

// scancel sends SIGTERM (then SIGKILL after KillWait): end the tests and still write a summary.
void handleStopSignals()
{
    struct sigaction action = {};
    action.sa_handler = requestStop;
    sigemptyset(&action.sa_mask);
    for (int signal : {SIGTERM, SIGINT, SIGHUP})
        sigaction(signal, &action, nullptr);
}

// Slurm runs the agent on a node whose hostname may differ from the node's Slurm name.
std::string hostName()
{
    if (const char *node = std::getenv("SLURMD_NODENAME"); node && *node)
        return node;
    char buffer[256] = {};
    if (gethostname(buffer, sizeof buffer - 1) != 0)
        return "unknown";
    return buffer;
}

// Fatal before any test ran: still a complete protocol stream (error, then summary).
int fail(EventSink &sink, int exitCode, const std::string &message)
{
    std::fprintf(stderr, "strata-burn: %s\n", message.c_str());
    sink.error({std::nullopt, message});
    sink.summary({{}, false, exitCode, 0});
    return exitCode;
}

} // namespace

int main(int argc, char **argv)
{
    const ParsedOptions parsed = parseAgentOptions(std::vector<std::string>(argv + 1, argv + argc));
    const AgentOptions &options = parsed.options;
    JsonLinesSink jsonSink(stdout);
    HumanSink humanSink(stdout);
    EventSink &output = options.human ? static_cast<EventSink &>(humanSink) : jsonSink;
    if (!parsed.error.empty())
        return fail(output, 2, parsed.error + " (see --help)");
    if (options.showHelp) {
        std::fputs(agentUsage(), stdout);
        return 0;
    }
    if (options.showVersion) {
        std::printf("strata-burn %s (protocol v%d, backends: cpu%s, metrics: %s)\n",
                    STRATA_BURN_VERSION, JsonLinesSink::protocolVersion,
                    STRATA_BURN_HAVE_CUDA ? ", cuda" : "",
                    STRATA_BURN_HAVE_PROMETHEUS ? "prometheus-cpp" : "none");
        return 0;
    }

    // CUDA numbers GPUs fastest first by default; nvidia-smi, NVML and DCGM's `gpu` label
    // number them by PCI bus. Same order here, so "GPU 3" means one device everywhere (a
    // CUDA_DEVICE_ORDER the caller set is kept). Must precede the first CUDA call.
    setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 0);

    const std::string host = hostName();
    std::unique_ptr<Backend> backend;
    if (options.backend == "cpu") {
        backend = makeCpuBackend({options.cpuGpus, options.cpuMemoryBytes, host});
    } else {
        std::string why;
        backend = makeCudaBackend(&why);
        if (!backend) {
            const std::string hint = options.backend.empty()
                ? "; pass --backend cpu to run the same tests on host memory" : "";
            return fail(output, 3, "no CUDA GPU to test: " + why + hint);
        }
    }
    if (options.injection != Injection::None) {
        const int n = static_cast<int>(backend->devices().size());
        const bool tested = options.gpus
            ? std::find(options.gpus->begin(), options.gpus->end(), options.injectGpu) != options.gpus->end()
            : options.injectGpu < n;
        if (!tested)
            return fail(output, 2, "--inject names GPU " + std::to_string(options.injectGpu)
                                      + ", which this run does not test");
    }

    std::unique_ptr<NvmlLibrary> nvml;
    if (backend->name() == "cuda")
        nvml = std::make_unique<NvmlLibrary>();

    std::unique_ptr<EventSink> metrics;
    std::string endpoint;
    if (options.metricsPort || !options.pushgateway.empty()) {
        std::string error;
        metrics = makeMetricsSink(options, host, &endpoint, &error);
        if (!metrics)
            return fail(output, 3, error);
    }
    std::vector<EventSink *> sinks{&output};
    if (metrics)
        sinks.push_back(metrics.get());
    FanOutSink sink(sinks);
    handleStopSignals();
    BurnRunner runner(*backend, nvml.get(), sink, options, host, STRATA_BURN_VERSION, &stopRequested);
    return runner.run(endpoint);
}
