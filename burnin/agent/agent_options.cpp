#include "agent_options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

namespace strata::burn {

namespace {

std::optional<double> parseNumber(std::string_view text)
{
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::optional<int> parseInt(std::string_view text)
{
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::vector<std::string_view> splitComma(std::string_view text)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::size_t end = comma == std::string_view::npos ? text.size() : comma;
        parts.push_back(text.substr(start, end - start));
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return parts;
}

} // namespace

std::optional<double> parseDuration(std::string_view text)
{
    double scale = 1.0;
    if (text.size() > 2 && text.substr(text.size() - 2) == "ms") {
        scale = 0.001;
        text.remove_suffix(2);
    } else if (!text.empty() && (text.back() == 's' || text.back() == 'm')) {
        scale = text.back() == 'm' ? 60.0 : 1.0;
        text.remove_suffix(1);
    }
    const std::optional<double> value = parseNumber(text);
    if (!value || *value < 0)
        return std::nullopt;
    return *value * scale;
}

ParsedOptions parseAgentOptions(const std::vector<std::string> &args)
{
    ParsedOptions parsed;
    AgentOptions &o = parsed.options;
    auto fail = [&parsed](std::string message) {
        parsed.error = std::move(message);
        return parsed;
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        std::string value;
        bool hasValue = false;
        if (const std::size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
            hasValue = true;
        }
        auto next = [&](std::string &out) {
            if (hasValue) {
                out = value;
                return true;
            }
            if (i + 1 >= args.size())
                return false;
            out = args[++i];
            return true;
        };
        auto number = [&](std::optional<double> &target) -> std::string {
            std::string v;
            if (!next(v))
                return arg + " needs a number";
            target = parseNumber(v);
            if (!target || *target < 0)
                return arg + ": '" + v + "' is not a non-negative number";
            return {};
        };
        std::string v;
        if (arg == "--help" || arg == "-h") {
            o.showHelp = true;
        } else if (arg == "--version") {
            o.showVersion = true;
        } else if (arg == "--json") {
            o.human = false;
        } else if (arg == "--human") {
            o.human = true;
        } else if (arg == "--backend") {
            if (!next(v) || (v != "cuda" && v != "cpu"))
                return fail("--backend takes cuda or cpu");
            o.backend = v;
        } else if (arg == "--tests") {
            if (!next(v))
                return fail("--tests needs a list, e.g. gemm,hbm,pcie,p2p");
            static const std::set<std::string_view> known{"gemm", "hbm", "pcie", "p2p"};
            o.tests.clear();
            for (std::string_view t : splitComma(v)) {
                if (!known.count(t))
                    return fail("unknown test '" + std::string(t) + "' (known: gemm, hbm, pcie, p2p)");
                if (std::find(o.tests.begin(), o.tests.end(), t) == o.tests.end())
                    o.tests.emplace_back(t);
            }
        } else if (arg == "--duration") {
            if (!next(v))
                return fail("--duration needs a value such as 60s or 2m");
            const std::optional<double> d = parseDuration(v);
            if (!d)
                return fail("--duration: '" + v + "' is not a duration (use 60s, 2m or 500ms)");
            o.durationSeconds = *d;
        } else if (arg == "--gpus") {
            if (!next(v))
                return fail("--gpus needs a list of indices, e.g. 0,1,2");
            std::vector<int> gpus;
            for (std::string_view g : splitComma(v)) {
                const std::optional<int> index = parseInt(g);
                if (!index || *index < 0)
                    return fail("--gpus: '" + std::string(g) + "' is not a GPU index");
                if (std::find(gpus.begin(), gpus.end(), *index) == gpus.end())
                    gpus.push_back(*index);
            }
            o.gpus = gpus;
        } else if (arg == "--cpu-gpus") {
            const std::optional<int> n = next(v) ? parseInt(v) : std::nullopt;
            if (!n || *n < 1 || *n > 1024)
                return fail("--cpu-gpus takes a count from 1 to 1024");
            o.cpuGpus = *n;
        } else if (arg == "--cpu-memory-mib") {
            const std::optional<int> n = next(v) ? parseInt(v) : std::nullopt;
            if (!n || *n < 1 || *n > 4096)
                return fail("--cpu-memory-mib takes a size from 1 to 4096");
            o.cpuMemoryBytes = static_cast<std::uint64_t>(*n) << 20;
        } else if (arg == "--gemm-size") {
            const std::optional<int> n = next(v) ? parseInt(v) : std::nullopt;
            if (!n || *n < 16 || *n > 65536)
                return fail("--gemm-size takes a matrix size from 16 to 65536");
            o.gemmSize = *n;
        } else if (arg == "--gemm-engine") {
            if (!next(v) || !parseGemmEngineRequest(v, &o.gemmEngine))
                return fail("--gemm-engine takes auto, own, cublaslt or fp8");
        } else if (arg == "--inject") {
            if (!next(v))
                return fail("--inject takes bitflip or slow, optionally :GPU");
            const std::size_t colon = v.find(':');
            const std::string kind = v.substr(0, colon);
            if (kind == "bitflip")
                o.injection = Injection::Bitflip;
            else if (kind == "slow")
                o.injection = Injection::Slow;
            else
                return fail("--inject: '" + kind + "' is not bitflip or slow");
            if (colon != std::string::npos) {
                const std::optional<int> gpu = parseInt(std::string_view(v).substr(colon + 1));
                if (!gpu || *gpu < 0)
                    return fail("--inject: '" + v.substr(colon + 1) + "' is not a GPU index");
                o.injectGpu = *gpu;
            }
        } else if (arg == "--floor-tflops") {
            if (std::string e = number(o.floorTflops); !e.empty())
                return fail(e);
        } else if (arg == "--floor-tbps") {
            if (std::string e = number(o.floorTBps); !e.empty())
                return fail(e);
        } else if (arg == "--spec-tflops") {
            if (std::string e = number(o.specTflops); !e.empty())
                return fail(e);
        } else if (arg == "--spec-tbps") {
            if (std::string e = number(o.specTBps); !e.empty())
                return fail(e);
        } else if (arg == "--hbm-dwell") {
            const std::optional<double> d = next(v) ? parseDuration(v) : std::nullopt;
            if (!d || *d > 3600)
                return fail("--hbm-dwell takes a duration up to 1h, such as 30s");
            o.dwellSeconds = *d;
        } else if (arg == "--telemetry-interval") {
            const std::optional<double> d = next(v) ? parseDuration(v) : std::nullopt;
            if (!d || *d < 0.05)
                return fail("--telemetry-interval takes a duration of at least 50ms");
            o.telemetryIntervalSeconds = *d;
        } else if (arg == "--metrics-port") {
            const std::optional<int> port = next(v) ? parseInt(v) : std::nullopt;
            if (!port || *port < 0 || *port > 65535)
                return fail("--metrics-port takes a port from 0 (any free one) to 65535");
            o.metricsPort = *port;
        } else if (arg == "--metrics-address") {
            if (!next(v) || v.empty())
                return fail("--metrics-address needs an address, e.g. 127.0.0.1");
            o.metricsAddress = v;
        } else if (arg == "--pushgateway") {
            if (!next(v) || v.rfind("http://", 0) != 0)
                return fail("--pushgateway takes a URL such as http://127.0.0.1:9091");
            o.pushgateway = v;
        } else {
            return fail("unknown argument '" + args[i] + "' (see --help)");
        }
    }
    if (o.tests.empty())
        return fail("--tests names no test");
    return parsed;
}

const char *agentUsage()
{
    return R"(Usage: strata-burn [options]
Burn-in test of every GPU of this node at once (one thread per GPU). Writes JSON lines
(protocol v1, see PROTOCOL.md) on stdout; exit status 0 only if every GPU passed.

  --backend cuda|cpu        default: cuda where a GPU is found; cpu runs the same tests on
                            host memory at small sizes (simulated devices)
  --tests LIST              any of gemm,hbm,pcie,p2p (default: all four)
  --duration D              per test: 60s (default), 2m, 500ms
  --gpus LIST               device indices to test, e.g. 0,1,2 (default: all)
  --cpu-gpus N              simulated devices of the cpu backend (default 8)
  --cpu-memory-mib N        memory of each simulated device (default 8)
  --gemm-size N             GEMM size M=N=K (cuda default 8192, cpu default 128)
  --gemm-engine E           cuda: auto (cuBLASLt BF16 where libcublasLt loads, else the own
                            kernel), own, cublaslt (BF16), fp8 (cuBLASLt E4M3, sm_89+); the
                            own kernel and cuBLASLt are compared element by element once
  --hbm-dwell D             memory test: let each pattern sit D before checking it
                            (retention faults; default 0, each pass then takes D longer)
  --json | --human          JSON lines (default) or a readable table
  --inject bitflip|slow[:GPU]
                            self-test: plant a bit flip (GEMM, memory, peer copy) or a slow GPU
  --floor-tflops X          fail a GPU whose GEMM TFLOPS is below X
  --floor-tbps X            fail a GPU whose HBM copy bandwidth (TB/s) is below X
  --spec-tflops X           spec peak for % of spec (default: built-in table by GPU name)
  --spec-tbps X             spec HBM bandwidth for % of spec
  --telemetry-interval D    NVML sampling interval (default 1s)
  --metrics-port PORT       expose strata_burnin_* metrics (0: any free port)
  --metrics-address ADDR    address of that endpoint (default 127.0.0.1)
  --pushgateway URL         push strata_burnin_* metrics to a Prometheus Pushgateway
  --version, --help

Exit status: 0 all passed, 1 a GPU failed, 2 bad arguments, 3 no usable backend or device,
4 interrupted (SIGTERM/SIGINT/SIGHUP: tests end early, the summary still comes).
)";
}

} // namespace strata::burn
