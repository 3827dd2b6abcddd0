#include "burn_runner.h"

#include "gpu_model_table.h"
#include "health_judge.h"
#include "nvml_health_source.h"
#include "result_judge.h"
#include "telemetry_sampler.h"
#include "throttle_reasons.h"

#include <algorithm>
#include <barrier>
#include <chrono>
#include <ctime>
#include <map>
#include <memory>
#include <set>
#include <thread>

namespace strata::burn {

namespace {

using Clock = std::chrono::steady_clock;

struct DeviceRun
{
    GpuEntry entry;
    GpuSummary summary;
};

std::string injectionText(const AgentOptions &o)
{
    if (o.injection == Injection::None)
        return {};
    return std::string(o.injection == Injection::Bitflip ? "bitflip:" : "slow:") + std::to_string(o.injectGpu);
}

} // namespace

std::string utcTimestamp()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer;
}

BurnRunner::BurnRunner(Backend &backend, const NvmlLibrary *nvml, EventSink &sink,
                       const AgentOptions &options, std::string host, std::string agentVersion,
                       const std::atomic<bool> *stop)
    : m_backend(backend), m_nvml(nvml), m_sink(sink), m_options(options),
      m_host(std::move(host)), m_agentVersion(std::move(agentVersion)), m_stop(stop)
{
}

int BurnRunner::run(const std::string &metricsEndpoint)
{
    const Clock::time_point started = Clock::now();
    const std::vector<DeviceInfo> &all = m_backend.devices();
    std::vector<int> selected;
    if (m_options.gpus) {
        for (int index : *m_options.gpus) {
            if (index >= static_cast<int>(all.size())) {
                m_sink.error({std::nullopt, "--gpus names GPU " + std::to_string(index) + " but the "
                                  + m_backend.name() + " backend has " + std::to_string(all.size())
                                  + " device(s)"});
                m_sink.summary({{}, false, 3, 0});
                return 3;
            }
            selected.push_back(index);
        }
    } else {
        for (const DeviceInfo &d : all)
            selected.push_back(d.index);
    }
    if (selected.empty()) {
        m_sink.error({std::nullopt, "the " + m_backend.name() + " backend found no device to test"});
        m_sink.summary({{}, false, 3, 0});
        return 3;
    }

    std::vector<DeviceRun> runs;
    for (int index : selected) {
        DeviceRun r;
        r.entry.info = all[static_cast<std::size_t>(index)];
        if (m_backend.name() == "cuda") {
            if (const std::optional<GpuModelSpec> spec = gpuModelForName(r.entry.info.name)) {
                r.entry.model = spec->model;
                r.entry.specTflops = spec->bf16Tflops;
                r.entry.specTBps = spec->hbmTBps;
            }
        }
        if (m_options.specTflops)
            r.entry.specTflops = m_options.specTflops;
        if (m_options.specTBps)
            r.entry.specTBps = m_options.specTBps;
        r.summary.gpu = index;
        r.summary.uuid = r.entry.info.uuid;
        runs.push_back(r);
    }

    StartEvent start;
    start.agentVersion = m_agentVersion;
    start.backend = m_backend.name();
    start.host = m_host;
    start.time = utcTimestamp();
    for (const DeviceRun &r : runs)
        start.gpus.push_back(r.entry);
    start.tests = m_options.tests;
    start.durationSeconds = m_options.durationSeconds;
    start.nvmlAvailable = m_nvml && m_nvml->available();
    start.nvmlStatus = m_nvml ? m_nvml->status() : "the cpu backend has no telemetry";
    start.injection = injectionText(m_options);
    start.metricsEndpoint = metricsEndpoint;

    std::vector<TelemetrySampler::Target> targets;
    std::map<int, void *> handles;
    for (const DeviceRun &r : runs) {
        targets.push_back({r.summary.gpu, m_nvml ? m_nvml->deviceFor(r.entry.info.uuid, r.entry.info.pciBusId) : nullptr});
        handles[r.summary.gpu] = targets.back().nvmlDevice;
    }
    // ECC, retired pages, row remapping, XIDs and the PCIe link before and after each test.
    std::unique_ptr<NvmlHealthSource> health;
    if (m_nvml && m_nvml->available())
        health = std::make_unique<NvmlHealthSource>(*m_nvml, handles);
    if (health && !health->xidStatus().empty())
        start.nvmlStatus += "; " + health->xidStatus();
    m_sink.start(start);
    TelemetrySampler sampler(m_nvml, targets, m_sink, m_options.telemetryIntervalSeconds);

    const JudgeLimits limits{m_options.floorTflops, m_options.floorTBps};
    // One barrier per link test across the GPUs of the run (TestParams::syncPhase). A GPU leaves
    // it (arrive_and_drop) when its test ends or is never run, so one that fails early or stops
    // never holds the others.
    std::map<std::string, std::unique_ptr<std::barrier<>>> phases;
    for (const std::string &test : m_options.tests)
        if (test == "pcie" || test == "p2p")
            phases[test] = std::make_unique<std::barrier<>>(static_cast<std::ptrdiff_t>(runs.size()));
    auto runDevice = [&](DeviceRun &run) {
        std::set<std::string> left; // barriers this GPU has dropped out of
        auto leave = [&](const std::string &test) {
            const auto it = phases.find(test);
            if (it != phases.end() && left.insert(test).second)
                it->second->arrive_and_drop();
        };
        const int gpu = run.summary.gpu;
        std::vector<int> peers;
        for (const DeviceRun &other : runs)
            if (other.summary.gpu != gpu)
                peers.push_back(other.summary.gpu);
        for (const std::string &test : m_options.tests) {
            if (m_stop && m_stop->load())
                break;
            TestParams params;
            params.stop = m_stop;
            params.duration = std::chrono::duration<double>(m_options.durationSeconds);
            params.gemmSize = m_options.gemmSize;
            params.gemmEngine = m_options.gemmEngine;
            params.dwell = std::chrono::duration<double>(m_options.dwellSeconds);
            params.injection = gpu == m_options.injectGpu ? m_options.injection : Injection::None;
            params.progress = [this, gpu, &test](double fraction, const char *figure, double value) {
                m_sink.progress({gpu, test, fraction, figure, value});
            };
            if (const auto phase = phases.find(test); phase != phases.end() && runs.size() > 1)
                params.syncPhase = [b = phase->second.get()] { b->arrive_and_wait(); };
            sampler.beginTest(gpu);
            HealthWatch watch(health.get(), gpu);
            watch.begin();
            TestResult result;
            try {
                if (test == "gemm")
                    result = m_backend.runGemm(gpu, params);
                else if (test == "hbm")
                    result = m_backend.runHbm(gpu, params);
                else if (test == "pcie")
                    result = m_backend.runPcie(gpu, params);
                else
                    result = m_backend.runP2p(gpu, peers, params);
            } catch (const std::exception &e) {
                result = TestResult{};
                result.error = "the " + test + " test stopped: " + e.what();
            }
            leave(test);
            result.test = test;

            ResultEvent event;
            event.gpu = gpu;
            event.uuid = run.entry.info.uuid;
            event.backend = m_backend.name();
            event.telemetry = sampler.endTest(gpu);
            if (auto *g = std::get_if<GemmFigures>(&result.figures)) {
                g->specTflops = run.entry.specTflops;
                if (g->specTflops && *g->specTflops > 0)
                    event.pctOfSpec = 100.0 * g->tflops / *g->specTflops;
            } else if (auto *h = std::get_if<HbmFigures>(&result.figures)) {
                h->specTBps = run.entry.specTBps;
                if (h->specTBps && *h->specTBps > 0)
                    event.pctOfSpec = 100.0 * h->copyTBps / *h->specTBps;
            }
            event.result = result;
            event.judgement = judgeResult(result, limits);
            if (event.telemetry)
                if (const std::optional<std::string> fault = throttleFault(event.telemetry->throttleMask))
                    event.judgement.reasons.push_back(*fault);
            // Read right after the pcie test's copies, the link is still trained up.
            HealthContext context;
            context.linkUnderLoad = test == "pcie";
            if (const auto *p = std::get_if<PcieFigures>(&result.figures); p && !p->standIn) {
                context.hostToDeviceGBps = p->hostToDeviceGBps;
                context.deviceToHostGBps = p->deviceToHostGBps;
            }
            for (const HealthFinding &finding : watch.end(context))
                event.judgement.reasons.push_back(finding.reason);
            event.judgement.passed = event.judgement.reasons.empty();
            if (result.error)
                m_sink.error({gpu, *result.error});
            m_sink.result(event);
            if (!event.judgement.passed) {
                run.summary.passed = false;
                run.summary.failedTests.push_back(test);
                for (const std::string &reason : event.judgement.reasons)
                    run.summary.reasons.push_back(test + ": " + reason);
            }
        }
        for (const auto &phase : phases) // tests skipped after a stop
            leave(phase.first);
    };

    std::vector<std::thread> threads;
    for (DeviceRun &r : runs)
        threads.emplace_back(runDevice, std::ref(r));
    for (std::thread &t : threads)
        t.join();

    SummaryEvent summary;
    for (const DeviceRun &r : runs) {
        summary.gpus.push_back(r.summary);
        summary.passed = summary.passed && r.summary.passed;
    }
    summary.exitCode = summary.passed ? 0 : 1;
    if (m_stop && m_stop->load()) {
        m_sink.error({std::nullopt, "interrupted by a signal: tests ended early, results are partial"});
        summary.passed = false;
        summary.exitCode = 4;
    }
    summary.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    m_sink.summary(summary);
    return summary.exitCode;
}

} // namespace strata::burn
