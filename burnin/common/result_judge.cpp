#include "result_judge.h"

#include <cstdio>

namespace strata::burn {

namespace {

std::string format(const char *fmt, double a, double b = 0, double c = 0)
{
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, fmt, a, b, c);
    return buffer;
}

void judgeGemm(const GemmFigures &g, const JudgeLimits &limits, Judgement &j)
{
    if (g.mismatches > 0)
        j.reasons.push_back(format("%.0f mismatches in repeated GEMM: silent data corruption",
                                   static_cast<double>(g.mismatches)));
    if (g.sampledOutOfBounds > 0)
        j.reasons.push_back(format("%.0f sampled elements differ from the host reference by more "
                                   "than the tensor cores' bound (worst %.3g x the bound)",
                                   static_cast<double>(g.sampledOutOfBounds), g.sampledBoundRatio));
    if (g.referenceOutOfBounds > 0)
        j.reasons.push_back(format("%.0f of %.0f elements of the first product differ from the independent "
                                   "reference by more than the tensor cores' bound (worst %.3g x the bound)",
                                   static_cast<double>(g.referenceOutOfBounds),
                                   static_cast<double>(g.referenceCheckedElements), g.referenceWorstRatio));
    if (g.sliceOutOfBounds > 0)
        j.reasons.push_back(format("%.0f of %.0f elements checked in the stress loop's row slices differ from the "
                                   "reference beyond the bound (worst %.3g x the bound)",
                                   static_cast<double>(g.sliceOutOfBounds),
                                   static_cast<double>(g.sliceCheckedElements), g.sliceWorstRatio));
    if (limits.floorTflops && g.tflops < *limits.floorTflops)
        j.reasons.push_back(format("%.1f TFLOPS is below the floor of %.1f", g.tflops,
                                   *limits.floorTflops));
}

void judgeHbm(const HbmFigures &h, const JudgeLimits &limits, Judgement &j)
{
    if (h.bitErrors > 0)
        j.reasons.push_back(format("%.0f bit errors in %.0f words of the memory pattern test",
                                   static_cast<double>(h.bitErrors),
                                   static_cast<double>(h.wordErrors)));
    if (limits.floorTBps && h.copyTBps < *limits.floorTBps)
        j.reasons.push_back(format("copy bandwidth %.3f TB/s is below the floor of %.3f",
                                   h.copyTBps, *limits.floorTBps));
}

} // namespace

Judgement judgeResult(const TestResult &result, const JudgeLimits &limits)
{
    Judgement j;
    if (result.error) {
        j.reasons.push_back(*result.error);
    } else if (const auto *g = std::get_if<GemmFigures>(&result.figures)) {
        judgeGemm(*g, limits, j);
    } else if (const auto *h = std::get_if<HbmFigures>(&result.figures)) {
        judgeHbm(*h, limits, j);
    } else if (const auto *p = std::get_if<PcieFigures>(&result.figures)) {
        if (p->mismatchedWords > 0)
            j.reasons.push_back(format("%.0f words corrupted crossing PCIe (host -> GPU -> host)",
                                       static_cast<double>(p->mismatchedWords)));
    } else if (const auto *q = std::get_if<P2pFigures>(&result.figures)) {
        if (q->mismatchedWords > 0)
            j.reasons.push_back(format("%.0f words corrupted in peer-to-peer copies",
                                       static_cast<double>(q->mismatchedWords)));
    }
    j.passed = j.reasons.empty();
    return j;
}

} // namespace strata::burn
