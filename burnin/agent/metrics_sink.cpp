#include "metrics_sink.h"

#include <prometheus/exposer.h>
#include <prometheus/gateway.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <map>
#include <mutex>

namespace strata::burn {

namespace {

using prometheus::Gauge;
using prometheus::Labels;

class MetricsSink final : public EventSink
{
public:
    explicit MetricsSink(std::string host)
        : m_host(std::move(host)),
          m_registry(std::make_shared<prometheus::Registry>()),
          m_progress(family("strata_burnin_progress_ratio", "Fraction of the current test done")),
          m_tflops(family("strata_burnin_tflops", "BF16 GEMM TFLOPS, latest figure")),
          m_bandwidth(family("strata_burnin_bandwidth_tbps", "HBM bandwidth in TB/s by kind")),
          m_mismatches(family("strata_burnin_mismatches", "Mismatching words in repeated GEMM")),
          m_bitErrors(family("strata_burnin_bit_errors", "Bit errors in the memory pattern test")),
          m_passed(family("strata_burnin_test_passed", "1 when the test passed, 0 when it failed")),
          m_temperature(family("strata_burnin_gpu_temperature_celsius", "GPU temperature (NVML)")),
          m_power(family("strata_burnin_gpu_power_watts", "GPU power draw (NVML)")),
          m_smClock(family("strata_burnin_gpu_sm_clock_mhz", "SM clock (NVML)")),
          m_throttle(family("strata_burnin_gpu_throttle_mask", "NVML clocks event reasons bitmask")),
          m_running(family("strata_burnin_running", "1 while the agent runs, 0 once it finished")),
          m_runPassed(family("strata_burnin_run_passed", "1 when every GPU passed (set at the end)"))
    {
        m_running.Add({{"host", m_host}}).Set(1);
    }

    bool expose(const std::string &address, int port, std::string *endpoint, std::string *error)
    {
        try {
            m_exposer = std::make_unique<prometheus::Exposer>(address + ":" + std::to_string(port), 1);
        } catch (const std::exception &e) {
            *error = "cannot serve metrics on " + address + ":" + std::to_string(port) + ": " + e.what();
            return false;
        }
        m_exposer->RegisterCollectable(m_registry);
        const std::vector<int> ports = m_exposer->GetListeningPorts();
        *endpoint = address + ":" + std::to_string(ports.empty() ? port : ports.front());
        return true;
    }

    bool pushTo(const std::string &url, std::string *error)
    {
        // http://host:port[/...]; prometheus-cpp wants host and port apart.
        const std::string rest = url.substr(7);
        const std::size_t slash = rest.find('/');
        const std::string authority = rest.substr(0, slash);
        const std::size_t colon = authority.rfind(':');
        if (colon == std::string::npos || colon == 0) {
            *error = "--pushgateway: '" + url + "' has no port (use http://host:9091)";
            return false;
        }
        try {
            m_gateway = std::make_unique<prometheus::Gateway>(
                authority.substr(0, colon), authority.substr(colon + 1), "strata_burnin",
                Labels{{"instance", m_host}});
        } catch (const std::exception &e) {
            *error = "--pushgateway: " + std::string(e.what());
            return false;
        }
        m_gateway->RegisterCollectable(m_registry);
        m_gatewayUrl = url;
        return true;
    }

    void start(const StartEvent &e) override
    {
        {
            const std::lock_guard lock(m_mutex);
            for (const GpuEntry &g : e.gpus)
                m_uuids[g.info.index] = g.info.uuid;
        }
        push();
    }

    void progress(const ProgressEvent &e) override
    {
        const std::lock_guard lock(m_mutex);
        m_progress.Add(labels(e.gpu, {{"test", e.test}})).Set(e.fraction);
        if (e.figure == "tflops")
            m_tflops.Add(labels(e.gpu)).Set(e.value);
        else if (e.figure == "copyTBps")
            m_bandwidth.Add(labels(e.gpu, {{"kind", "copy"}})).Set(e.value);
    }

    void telemetry(const TelemetrySample &s) override
    {
        const std::lock_guard lock(m_mutex);
        if (s.tempC)
            m_temperature.Add(labels(s.gpu)).Set(*s.tempC);
        if (s.powerW)
            m_power.Add(labels(s.gpu)).Set(*s.powerW);
        if (s.smClockMHz)
            m_smClock.Add(labels(s.gpu)).Set(*s.smClockMHz);
        if (s.throttleMask)
            m_throttle.Add(labels(s.gpu)).Set(static_cast<double>(*s.throttleMask));
    }

    void result(const ResultEvent &e) override
    {
        {
            const std::lock_guard lock(m_mutex);
            m_progress.Add(labels(e.gpu, {{"test", e.result.test}})).Set(1.0);
            m_passed.Add(labels(e.gpu, {{"test", e.result.test}})).Set(e.judgement.passed ? 1 : 0);
            if (const auto *g = std::get_if<GemmFigures>(&e.result.figures)) {
                m_tflops.Add(labels(e.gpu)).Set(g->tflops);
                m_mismatches.Add(labels(e.gpu)).Set(static_cast<double>(g->mismatches));
            } else if (const auto *h = std::get_if<HbmFigures>(&e.result.figures)) {
                m_bandwidth.Add(labels(e.gpu, {{"kind", "read"}})).Set(h->readTBps);
                m_bandwidth.Add(labels(e.gpu, {{"kind", "write"}})).Set(h->writeTBps);
                m_bandwidth.Add(labels(e.gpu, {{"kind", "copy"}})).Set(h->copyTBps);
                m_bitErrors.Add(labels(e.gpu)).Set(static_cast<double>(h->bitErrors));
            }
        }
        push();
    }

    void error(const ErrorEvent &) override {}

    void summary(const SummaryEvent &e) override
    {
        {
            const std::lock_guard lock(m_mutex);
            m_running.Add({{"host", m_host}}).Set(0);
            m_runPassed.Add({{"host", m_host}}).Set(e.passed ? 1 : 0);
        }
        push();
    }

private:
    prometheus::Family<Gauge> &family(const char *name, const char *help)
    {
        return prometheus::BuildGauge().Name(name).Help(help).Register(*m_registry);
    }

    Labels labels(int gpu, Labels extra = {})
    {
        extra["host"] = m_host;
        extra["gpu"] = std::to_string(gpu);
        if (auto it = m_uuids.find(gpu); it != m_uuids.end())
            extra["uuid"] = it->second;
        return extra;
    }

    // Pushes are synchronous HTTP; a failed push is reported once on stderr and never stops a
    // burn-in, since the JSON lines on stdout stay the record.
    void push()
    {
        if (!m_gateway)
            return;
        const int status = m_gateway->Push();
        if (status >= 200 && status < 300)
            return;
        const std::lock_guard lock(m_mutex);
        if (!m_warned) {
            std::fprintf(stderr, "strata-burn: push to %s failed (HTTP status %d)\n",
                         m_gatewayUrl.c_str(), status);
            m_warned = true;
        }
    }

    std::string m_host;
    std::shared_ptr<prometheus::Registry> m_registry;
    prometheus::Family<Gauge> &m_progress, &m_tflops, &m_bandwidth, &m_mismatches, &m_bitErrors,
        &m_passed, &m_temperature, &m_power, &m_smClock, &m_throttle, &m_running, &m_runPassed;
    std::unique_ptr<prometheus::Exposer> m_exposer;
    std::unique_ptr<prometheus::Gateway> m_gateway;
    std::string m_gatewayUrl;
    std::map<int, std::string> m_uuids;
    std::mutex m_mutex;
    bool m_warned = false;
};

} // namespace

std::unique_ptr<EventSink> makeMetricsSink(const AgentOptions &options, const std::string &host,
                                           std::string *endpoint, std::string *error)
{
    auto sink = std::make_unique<MetricsSink>(host);
    if (options.metricsPort && !sink->expose(options.metricsAddress, *options.metricsPort, endpoint, error))
        return nullptr;
    if (!options.pushgateway.empty() && !sink->pushTo(options.pushgateway, error))
        return nullptr;
    return sink;
}

} // namespace strata::burn
