#include "json_lines_sink.h"

#include "gemm_check.h"
#include "json_builder.h"

#include <cinttypes>

namespace strata::burn {

namespace {

JsonBuilder header(const char *type)
{
    JsonBuilder b;
    b.field("v", JsonLinesSink::protocolVersion).field("type", type);
    return b;
}

std::string hex(std::uint64_t value)
{
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%" PRIx64, value);
    return buffer;
}

std::string gemmFigures(const GemmFigures &g, const std::optional<double> &pct)
{
    JsonBuilder b;
    b.field("m", g.m).field("n", g.n).field("k", g.k).field("iterations", g.iterations)
        .field("tflops", g.tflops).field("specTflops", g.specTflops).field("pctOfSpec", pct)
        .field("mismatches", g.mismatches).field("sampledRelError", g.sampledRelError)
        .field("sampledBoundRatio", g.sampledBoundRatio).field("sampledElements", g.sampledElements)
        .field("sampledOutOfBounds", g.sampledOutOfBounds).field("engine", g.engine);
    if (!g.engineNote.empty())
        b.field("engineNote", g.engineNote);
    if (g.referenceCheckedElements > 0)
        b.field("referenceCheckedElements", g.referenceCheckedElements).field("referenceOutOfBounds", g.referenceOutOfBounds)
            .field("referenceWorstRatio", g.referenceWorstRatio);
    if (g.sliceCheckedElements > 0)
        b.field("sliceCheckedElements", g.sliceCheckedElements).field("sliceOutOfBounds", g.sliceOutOfBounds)
            .field("sliceWorstRatio", g.sliceWorstRatio);
    return b.str();
}

std::string hbmFigures(const HbmFigures &h, const std::optional<double> &pct)
{
    std::vector<std::string> errors;
    for (const PatternError &e : h.errors) {
        JsonBuilder eb;
        eb.field("offset", hex(e.offset)).field("expected", hex(e.expected)).field("actual", hex(e.actual));
        errors.push_back(eb.str());
    }
    JsonBuilder b;
    b.field("readTBps", h.readTBps).field("writeTBps", h.writeTBps).field("copyTBps", h.copyTBps)
        .field("specTBps", h.specTBps).field("pctOfSpec", pct)
        .field("bandwidthBytes", h.bandwidthBytes).field("patternBytes", h.patternBytes)
        .field("patternPasses", h.patternPasses).field("patterns", h.patterns)
        .field("bitErrors", h.bitErrors).field("wordErrors", h.wordErrors)
        .raw("errorAddresses", JsonBuilder::array(errors));
    return b.str();
}

std::string pcieFigures(const PcieFigures &p)
{
    JsonBuilder b;
    b.field("h2dGBps", p.hostToDeviceGBps).field("d2hGBps", p.deviceToHostGBps)
        .field("h2dTogetherGBps", p.hostToDeviceTogetherGBps).field("d2hTogetherGBps", p.deviceToHostTogetherGBps)
        .field("bytes", p.bytes).field("mismatchedWords", p.mismatchedWords).field("standIn", p.standIn);
    return b.str();
}

std::string p2pFigures(const P2pFigures &p)
{
    std::vector<std::string> peers;
    for (const PeerFigure &f : p.peers) {
        JsonBuilder pb;
        pb.field("peer", f.peer).field("GBps", f.GBps).field("togetherGBps", f.togetherGBps).field("round", f.round);
        peers.push_back(pb.str());
    }
    std::vector<std::string> unreachable;
    for (int peer : p.unreachable)
        unreachable.push_back(std::to_string(peer));
    JsonBuilder b;
    b.raw("peers", JsonBuilder::array(peers)).raw("unreachable", JsonBuilder::array(unreachable))
        .field("bytes", p.bytes).field("mismatchedWords", p.mismatchedWords).field("standIn", p.standIn);
    return b.str();
}

std::string telemetrySummary(const TelemetrySummary &t)
{
    JsonBuilder b;
    b.field("samples", t.samples).field("maxTempC", t.maxTempC).field("maxPowerW", t.maxPowerW)
        .field("minSmClockMHz", t.minSmClockMHz).field("meanSmClockMHz", t.meanSmClockMHz)
        .field("throttleMask", static_cast<std::uint64_t>(t.throttleMask))
        .field("throttleReasons", t.throttleReasons);
    return b.str();
}

} // namespace

std::string JsonLinesSink::startLine(const StartEvent &e)
{
    std::vector<std::string> gpus;
    for (const GpuEntry &g : e.gpus) {
        JsonBuilder gb;
        gb.field("index", g.info.index).field("uuid", g.info.uuid).field("name", g.info.name);
        if (g.model.empty())
            gb.null("model");
        else
            gb.field("model", g.model);
        if (g.info.pciBusId.empty())
            gb.null("pciBusId");
        else
            gb.field("pciBusId", g.info.pciBusId);
        gb.field("memoryBytes", g.info.memoryBytes).field("specTflops", g.specTflops)
            .field("specTBps", g.specTBps);
        gpus.push_back(gb.str());
    }
    JsonBuilder b = header("start");
    b.field("agent", "strata-burn").field("version", e.agentVersion).field("backend", e.backend)
        .field("host", e.host).field("time", e.time).raw("gpus", JsonBuilder::array(gpus))
        .field("tests", e.tests).field("durationS", e.durationSeconds)
        .field("nvml", e.nvmlAvailable).field("nvmlStatus", e.nvmlStatus);
    if (e.injection.empty())
        b.null("inject");
    else
        b.field("inject", e.injection);
    if (e.metricsEndpoint.empty())
        b.null("metrics");
    else
        b.field("metrics", e.metricsEndpoint);
    return b.str();
}

std::string JsonLinesSink::progressLine(const ProgressEvent &e)
{
    JsonBuilder b = header("progress");
    b.field("gpu", e.gpu).field("test", e.test).field("fraction", e.fraction)
        .field("figure", e.figure).field("value", e.value);
    return b.str();
}

std::string JsonLinesSink::telemetryLine(const TelemetrySample &s)
{
    JsonBuilder b = header("telemetry");
    b.field("gpu", s.gpu).field("tempC", s.tempC).field("powerW", s.powerW)
        .field("smClockMHz", s.smClockMHz).field("memClockMHz", s.memClockMHz);
    if (s.throttleMask)
        b.field("throttleMask", static_cast<std::uint64_t>(*s.throttleMask));
    else
        b.null("throttleMask");
    b.field("throttleReasons", s.throttleReasons);
    return b.str();
}

std::string JsonLinesSink::resultLine(const ResultEvent &e)
{
    JsonBuilder b = header("result");
    b.field("gpu", e.gpu).field("uuid", e.uuid).field("test", e.result.test)
        .field("backend", e.backend).field("passed", e.judgement.passed)
        .field("reasons", e.judgement.reasons).field("seconds", e.result.seconds)
        .field("skipped", e.result.skipReason).field("error", e.result.error);
    if (const auto *g = std::get_if<GemmFigures>(&e.result.figures))
        b.raw("figures", gemmFigures(*g, e.pctOfSpec));
    else if (const auto *h = std::get_if<HbmFigures>(&e.result.figures))
        b.raw("figures", hbmFigures(*h, e.pctOfSpec));
    else if (const auto *p = std::get_if<PcieFigures>(&e.result.figures))
        b.raw("figures", pcieFigures(*p));
    else if (const auto *q = std::get_if<P2pFigures>(&e.result.figures))
        b.raw("figures", p2pFigures(*q));
    else
        b.null("figures");
    if (e.telemetry)
        b.raw("telemetry", telemetrySummary(*e.telemetry));
    else
        b.null("telemetry");
    return b.str();
}

std::string JsonLinesSink::errorLine(const ErrorEvent &e)
{
    JsonBuilder b = header("error");
    if (e.gpu)
        b.field("gpu", *e.gpu);
    else
        b.null("gpu");
    b.field("message", e.message);
    return b.str();
}

std::string JsonLinesSink::summaryLine(const SummaryEvent &e)
{
    std::vector<std::string> gpus;
    for (const GpuSummary &g : e.gpus) {
        JsonBuilder gb;
        gb.field("gpu", g.gpu).field("uuid", g.uuid).field("passed", g.passed)
            .field("failedTests", g.failedTests).field("reasons", g.reasons);
        gpus.push_back(gb.str());
    }
    JsonBuilder b = header("summary");
    b.raw("gpus", JsonBuilder::array(gpus)).field("passed", e.passed)
        .field("exitCode", e.exitCode).field("seconds", e.seconds);
    return b.str();
}

void JsonLinesSink::write(const std::string &line)
{
    const std::lock_guard lock(m_mutex);
    std::fputs(line.c_str(), m_out);
    std::fputc('\n', m_out);
    std::fflush(m_out);
}

void JsonLinesSink::start(const StartEvent &event) { write(startLine(event)); }
void JsonLinesSink::progress(const ProgressEvent &event) { write(progressLine(event)); }
void JsonLinesSink::telemetry(const TelemetrySample &sample) { write(telemetryLine(sample)); }
void JsonLinesSink::result(const ResultEvent &event) { write(resultLine(event)); }
void JsonLinesSink::error(const ErrorEvent &event) { write(errorLine(event)); }
void JsonLinesSink::summary(const SummaryEvent &event) { write(summaryLine(event)); }

} // namespace strata::burn
