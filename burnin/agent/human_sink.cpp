#include "human_sink.h"

#include <algorithm>
#include <string>

namespace strata::burn {

namespace {

std::string optionalNumber(const std::optional<double> &value, const char *fmt)
{
    if (!value)
        return "-";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, fmt, *value);
    return buffer;
}

std::string figuresText(const ResultEvent &e)
{
    char buffer[512];
    if (e.result.skipReason)
        return "skipped: " + *e.result.skipReason;
    if (e.result.error)
        return "error: " + *e.result.error;
    if (const auto *g = std::get_if<GemmFigures>(&e.result.figures)) {
        std::snprintf(buffer, sizeof buffer,
                      "%9.4g TFLOPS  %s of spec  %lld mismatches  rel.err %.2g  beyond the bound: %lld sampled, "
                      "%lld full, %lld in slices (worst %.2g x)  (%dx%dx%d, %lld products, %s)",
                      g->tflops, optionalNumber(e.pctOfSpec, "%.0f%%").c_str(),
                      static_cast<long long>(g->mismatches), g->sampledRelError,
                      static_cast<long long>(g->sampledOutOfBounds), static_cast<long long>(g->referenceOutOfBounds),
                      static_cast<long long>(g->sliceOutOfBounds),
                      std::max({g->sampledBoundRatio, g->referenceWorstRatio, g->sliceWorstRatio}), g->m, g->n, g->k,
                      static_cast<long long>(g->iterations), g->engine.c_str());
    } else if (const auto *h = std::get_if<HbmFigures>(&e.result.figures)) {
        std::snprintf(buffer, sizeof buffer,
                      "read %.4g  write %.4g  copy %.4g TB/s  %s of spec  %llu bit errors  (%lld passes over %.0f MiB)",
                      h->readTBps, h->writeTBps, h->copyTBps,
                      optionalNumber(e.pctOfSpec, "%.0f%%").c_str(),
                      static_cast<unsigned long long>(h->bitErrors),
                      static_cast<long long>(h->patternPasses), h->patternBytes / 1048576.0);
        std::string text = buffer;
        for (const PatternError &err : h->errors) {
            std::snprintf(buffer, sizeof buffer, "\n%28s at +0x%llx: expected 0x%016llx, read 0x%016llx", "",
                          static_cast<unsigned long long>(err.offset),
                          static_cast<unsigned long long>(err.expected),
                          static_cast<unsigned long long>(err.actual));
            text += buffer;
        }
        return text;
    } else if (const auto *p = std::get_if<PcieFigures>(&e.result.figures)) {
        std::snprintf(buffer, sizeof buffer, "host->device %.2f GB/s  device->host %.2f GB/s%s",
                      p->hostToDeviceGBps, p->deviceToHostGBps, p->standIn ? "  (memcpy stand-in)" : "");
    } else if (const auto *q = std::get_if<P2pFigures>(&e.result.figures)) {
        std::string text;
        for (const PeerFigure &f : q->peers) {
            std::snprintf(buffer, sizeof buffer, "->%d %.2f GB/s  ", f.peer, f.GBps);
            text += buffer;
        }
        return text + (q->standIn ? "(memcpy stand-in)" : "");
    } else {
        return "no figures";
    }
    return buffer;
}

} // namespace

void HumanSink::start(const StartEvent &e)
{
    const std::lock_guard lock(m_mutex);
    std::fprintf(m_out, "strata-burn %s on %s, backend %s, %zu GPU(s), %.0f s per test%s%s\n",
                 e.agentVersion.c_str(), e.host.c_str(), e.backend.c_str(), e.gpus.size(),
                 e.durationSeconds, e.injection.empty() ? "" : ", injecting ",
                 e.injection.c_str());
    std::fprintf(m_out, "telemetry: %s\n", e.nvmlStatus.c_str());
    for (const GpuEntry &g : e.gpus)
        std::fprintf(m_out, "  GPU %d  %s  %s  %s  %.0f MiB\n", g.info.index, g.info.uuid.c_str(),
                     g.info.name.c_str(), g.model.empty() ? "(model unknown)" : g.model.c_str(),
                     g.info.memoryBytes / 1048576.0);
    std::fprintf(m_out, "\n%-5s %-5s %-5s %s\n", "GPU", "TEST", "PASS", "FIGURES");
    std::fflush(m_out);
}

void HumanSink::result(const ResultEvent &e)
{
    const std::lock_guard lock(m_mutex);
    const char *verdict = e.result.skipReason ? "skip" : (e.judgement.passed ? "ok" : "FAIL");
    std::fprintf(m_out, "%-5d %-5s %-5s %s\n", e.gpu, e.result.test.c_str(), verdict,
                 figuresText(e).c_str());
    if (e.telemetry)
        std::fprintf(m_out, "%18s max %s C, max %s W, min SM %s MHz%s%s\n", "",
                     optionalNumber(e.telemetry->maxTempC, "%.0f").c_str(),
                     optionalNumber(e.telemetry->maxPowerW, "%.0f").c_str(),
                     optionalNumber(e.telemetry->minSmClockMHz, "%.0f").c_str(),
                     e.telemetry->throttleReasons.empty() ? "" : ", throttled:",
                     [&] {
                         std::string s;
                         for (const std::string &r : e.telemetry->throttleReasons)
                             s += " " + r;
                         return s;
                     }().c_str());
    for (const std::string &reason : e.judgement.reasons)
        std::fprintf(m_out, "%18s %s\n", "", reason.c_str());
    std::fflush(m_out);
}

void HumanSink::error(const ErrorEvent &e)
{
    const std::lock_guard lock(m_mutex);
    if (e.gpu)
        std::fprintf(m_out, "error on GPU %d: %s\n", *e.gpu, e.message.c_str());
    else
        std::fprintf(m_out, "error: %s\n", e.message.c_str());
    std::fflush(m_out);
}

void HumanSink::summary(const SummaryEvent &e)
{
    const std::lock_guard lock(m_mutex);
    std::fprintf(m_out, "\nSUMMARY (%.1f s)\n", e.seconds);
    for (const GpuSummary &g : e.gpus) {
        std::string failed;
        for (const std::string &t : g.failedTests)
            failed += (failed.empty() ? "" : ",") + t;
        std::fprintf(m_out, "  GPU %d  %-40s %s%s%s\n", g.gpu, g.uuid.c_str(),
                     g.passed ? "PASS" : "FAIL", failed.empty() ? "" : "  failed: ", failed.c_str());
    }
    std::fprintf(m_out, "%s (exit %d)\n", e.passed ? "ALL PASSED" : "FAILED", e.exitCode);
    std::fflush(m_out);
}

} // namespace strata::burn
