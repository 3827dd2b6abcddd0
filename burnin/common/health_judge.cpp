#include "health_judge.h"

#include <cstdio>

namespace strata::burn {

namespace {

template <typename T>
std::optional<T> grew(const std::optional<HealthReading> &before, const std::optional<HealthReading> &after,
                      std::optional<T> HealthReading::*field)
{
    if (!before || !after || !((*before).*field) || !((*after).*field))
        return std::nullopt;
    const T b = *((*before).*field), a = *((*after).*field);
    if (a <= b)
        return std::nullopt;
    return a - b;
}

std::string u(std::uint64_t v) { return std::to_string(v); }

} // namespace

void HealthWatch::begin()
{
    if (!m_source)
        return;
    m_source->takeXids(m_gpu); // those belong to an earlier test (already judged) or none
    m_before = m_source->read(m_gpu);
}

std::vector<HealthFinding> HealthWatch::end(const HealthContext &context)
{
    if (!m_source)
        return {};
    const std::optional<HealthReading> after = m_source->read(m_gpu);
    return judgeHealth(m_before, after, m_source->takeXids(m_gpu), context);
}

std::string xidDescription(unsigned long long xid)
{
    // NVIDIA's XID catalog (docs.nvidia.com/deploy/xid-errors), the ones a burn-in can meet.
    const char *meaning = nullptr;
    switch (xid) {
    case 13: meaning = "graphics engine exception"; break;
    case 31: meaning = "GPU memory page fault"; break;
    case 43: meaning = "GPU stopped processing"; break;
    case 45: meaning = "preemptive cleanup"; break;
    case 48: meaning = "double-bit ECC error"; break;
    case 61: meaning = "internal micro-controller breakpoint"; break;
    case 62: meaning = "internal micro-controller halt"; break;
    case 63: meaning = "ECC page retirement or row remapping recorded"; break;
    case 64: meaning = "ECC page retirement or row remapping failed"; break;
    case 74: meaning = "NVLink error"; break;
    case 79: meaning = "GPU has fallen off the bus"; break;
    case 92: meaning = "high single-bit ECC error rate"; break;
    case 94: meaning = "contained ECC error"; break;
    case 95: meaning = "uncontained ECC error"; break;
    case 119: meaning = "GSP RPC timeout"; break;
    case 120: meaning = "GSP error"; break;
    case 140: meaning = "unrecovered ECC error"; break;
    default: break;
    }
    return meaning ? std::to_string(xid) + " (" + meaning + ")" : std::to_string(xid);
}

double pcieLinkGBps(unsigned generation, unsigned width)
{
    double lane = 0;
    switch (generation) {
    case 1: lane = 2.5 * 8.0 / 10.0 / 8.0; break;
    case 2: lane = 5.0 * 8.0 / 10.0 / 8.0; break;
    case 3: lane = 8.0 * 128.0 / 130.0 / 8.0; break;
    case 4: lane = 16.0 * 128.0 / 130.0 / 8.0; break;
    case 5: lane = 32.0 * 128.0 / 130.0 / 8.0; break;
    case 6: lane = 64.0 * 242.0 / 256.0 / 8.0; break;
    default: break;
    }
    return lane * width;
}

std::vector<HealthFinding> judgeHealth(const std::optional<HealthReading> &before,
                                       const std::optional<HealthReading> &after,
                                       const std::vector<XidEvent> &xids, const HealthContext &context)
{
    std::vector<HealthFinding> f;
    if (auto n = grew(before, after, &HealthReading::eccVolatileUncorrected))
        f.push_back({HealthIssue::EccUncorrected, u(*n) + " uncorrectable ECC errors during the test"});
    if (auto n = grew(before, after, &HealthReading::eccVolatileCorrected); n && *n > correctedEccLimit)
        f.push_back({HealthIssue::EccCorrectedBurst, u(*n) + " correctable ECC errors during the test (more than "
                                                         + u(correctedEccLimit) + ")"});
    if (after && after->retirementPending.value_or(false))
        f.push_back({HealthIssue::RetirementPending, "a retired page is pending: reset the GPU before use"});
    const auto dbe = grew(before, after, &HealthReading::retiredPagesDoubleBit);
    const auto sbe = grew(before, after, &HealthReading::retiredPagesMultipleSingleBit);
    if (dbe || sbe)
        f.push_back({HealthIssue::RetiredPagesGrew, u(dbe.value_or(0) + sbe.value_or(0))
                                                        + " pages retired during the test (" + u(dbe.value_or(0))
                                                        + " double-bit, " + u(sbe.value_or(0)) + " single-bit)"});
    if (after && after->remapFailed.value_or(false))
        f.push_back({HealthIssue::RemapFailed, "row remapping failed: no spare rows left, replace the GPU"});
    if (after && after->remapPending.value_or(false))
        f.push_back({HealthIssue::RemapPending, "a row remapping is pending: reset the GPU before use"});
    if (auto n = grew(before, after, &HealthReading::remappedRowsUncorrectable))
        f.push_back({HealthIssue::RemappedRowsGrew, u(*n) + " rows remapped for uncorrectable errors during the test"});
    if (!xids.empty()) {
        std::string list;
        for (const XidEvent &x : xids)
            list += (list.empty() ? "" : ", ") + xidDescription(x.xid);
        f.push_back({HealthIssue::Xid, "XID " + list + " during the test"});
    }
    if (after && after->pcieWidth && after->pcieMaxWidth && *after->pcieWidth < *after->pcieMaxWidth)
        f.push_back({HealthIssue::PcieLinkDegraded, "PCIe link width x" + std::to_string(*after->pcieWidth)
                                                        + ", the device supports x" + std::to_string(*after->pcieMaxWidth)});
    if (context.linkUnderLoad && after && after->pcieGen && after->pcieMaxGen && *after->pcieGen < *after->pcieMaxGen)
        f.push_back({HealthIssue::PcieLinkDegraded, "PCIe link at Gen" + std::to_string(*after->pcieGen)
                                                        + " under load, the device supports Gen"
                                                        + std::to_string(*after->pcieMaxGen)});
    if (auto n = grew(before, after, &HealthReading::pcieReplays); n && *n > pcieReplayLimit)
        f.push_back({HealthIssue::PcieReplays, u(*n) + " PCIe replays during the test (more than "
                                                   + u(pcieReplayLimit) + ")"});
    if (after && after->pcieMaxGen && after->pcieMaxWidth) {
        const double link = pcieLinkGBps(*after->pcieMaxGen, *after->pcieMaxWidth);
        auto judge = [&](const std::optional<double> &gbps, const char *direction) {
            if (!gbps || link <= 0 || *gbps >= pcieBandwidthFraction * link)
                return;
            char text[256];
            std::snprintf(text, sizeof text, "PCIe %s %.1f GB/s is below %.0f %% of the Gen%u x%u link's %.1f GB/s",
                          direction, *gbps, pcieBandwidthFraction * 100, *after->pcieMaxGen, *after->pcieMaxWidth,
                          link);
            f.push_back({HealthIssue::PcieBandwidthLow, text});
        };
        judge(context.hostToDeviceGBps, "host to GPU");
        judge(context.deviceToHostGBps, "GPU to host");
    }
    return f;
}

} // namespace strata::burn
