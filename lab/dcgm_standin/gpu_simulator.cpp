#include "gpu_simulator.h"

#include <algorithm>
#include <QByteArray>

#include <cstdint>
#include <limits>
#include <cstdio>

namespace strata::lab {

namespace {

std::uint64_t fnv1a(const QByteArray &bytes)
{
    std::uint64_t h = 1469598103934665603ULL;
    for (char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ULL;
    }
    return h;
}

std::uint64_t mix(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

// A value in [0, 1) fixed for (node, GPU, field, time slot).
double jitter(const QString &node, int index, DcgmField field, qint64 slot)
{
    const std::uint64_t seed = fnv1a(node.toUtf8()) ^ (std::uint64_t(index) << 8) ^
                               (std::uint64_t(field) << 16) ^ (std::uint64_t(slot) << 24);
    return double(mix(seed) >> 11) / double(1ULL << 53);
}

double between(double low, double high, double r)
{
    return low + (high - low) * r;
}

constexpr qint64 kSlotMs = 2000;
constexpr int kPciBuses[] = {0x53, 0x64, 0x75, 0x86, 0x97, 0xA8, 0xB9, 0xCA};

} // namespace

std::string GpuSimulator::uuidFor(const QString &node, int index)
{
    const std::uint64_t a = mix(fnv1a(node.toUtf8()) ^ std::uint64_t(index));
    const std::uint64_t b = mix(a ^ 0x5354524154414C42ULL);
    char buf[64];
    std::snprintf(buf, sizeof buf, "GPU-%08x-%04x-%04x-%04x-%012llx", unsigned(a >> 32),
                  unsigned((a >> 16) & 0xFFFF), unsigned(a & 0xFFFF), unsigned(b >> 48),
                  static_cast<unsigned long long>(b & 0xFFFFFFFFFFFFULL));
    return buf;
}

std::string GpuSimulator::pciBusIdFor(int index)
{
    char buf[32];
    const int bus = index < 8 ? kPciBuses[index] : 0x10 + index;
    std::snprintf(buf, sizeof buf, "00000000:%02X:00.0", bus);
    return buf;
}

void GpuSimulator::splitIntoMigInstances(const GpuSample &gpu, const std::vector<std::string> &profiles, bool busy,
                                         std::vector<GpuSample> &out)
{
    // Per instance: its engine activity, copy/DRAM activity and memory; the GPU's own fields
    // (temperature, power, clocks, XID, rows, counters) repeated on each. No GPU_UTIL.
    const DcgmField perInstance[] = {DcgmField::GrEngineActive, DcgmField::PipeTensorActive, DcgmField::MemCopyUtil,
                                     DcgmField::DramActive};
    for (std::size_t k = 0; k < profiles.size(); ++k) {
        GpuSample inst = gpu;
        inst.migInstance = migInstanceId(k);
        inst.migProfile = profiles[k];
        const bool used = busy && k == 0;
        if (!used) {
            inst.holderLabels.clear();
            for (DcgmField f : perInstance)
                at(inst.values, f) = 0;
        }
        at(inst.values, DcgmField::GpuUtil) = std::numeric_limits<double>::quiet_NaN();
        const double total = migProfileMiB(profiles[k]);
        at(inst.values, DcgmField::FbUsed) = used ? int(total * 0.9) : 0;
        at(inst.values, DcgmField::FbFree) = total - at(inst.values, DcgmField::FbUsed);
        out.push_back(std::move(inst));
    }
}

std::vector<GpuSample> GpuSimulator::sample(const NodeSpec &node, const GpuHolders &holders,
                                            const std::vector<GpuFault> &faults, qint64 nowMs)
{
    const GpuModelSpec &model = *node.model;
    const qint64 slot = nowMs / kSlotMs;
    std::vector<GpuSample> samples;
    for (int i = 0; i < node.gpuCount; ++i) {
        bool missing = false;
        for (const GpuFault &f : faults)
            missing |= f.node == node.name && f.gpu == i && f.kind == GpuFault::Kind::Missing;
        if (missing)
            continue;

        const auto holder = holders.find(GpuKey{node.name, i});
        const bool busy = holder != holders.end();
        auto r = [&](DcgmField field) { return jitter(node.name, i, field, slot); };

        GpuSample s;
        s.index = i;
        s.uuid = uuidFor(node.name, i);
        for (const GpuFault &f : faults) {
            if (f.node == node.name && f.gpu == i && f.kind == GpuFault::Kind::MovedFrom)
                s.uuid = uuidFor(f.fromNode, f.fromGpu);
        }
        s.pciBusId = pciBusIdFor(i);
        s.device = "nvidia" + std::to_string(i);
        if (busy && node.style.kubernetesWorkload && holder->second.kubernetesPod)
            s.holderLabels = holder->second.labels;
        else if (busy && node.style.kubernetesWorkload)
            s.holderLabels = {{"pod", holder->second.jobId}, {"container", "main"}};
        else if (busy && node.style.hpcJobLabel)
            s.holderLabels = {{"hpc_job", holder->second.jobId}};
        else if (busy)
            s.holderLabels = holder->second.labels;

        DcgmValues &v = s.values;
        const double usable = model.framebufferMiB - model.reservedMiB;
        if (busy) {
            at(v, DcgmField::GpuUtil) = int(between(85, 100.99, r(DcgmField::GpuUtil)));
            at(v, DcgmField::MemCopyUtil) = int(between(30, 60, r(DcgmField::MemCopyUtil)));
            at(v, DcgmField::FbUsed) = int(usable * between(0.82, 0.97, r(DcgmField::FbUsed)));
            at(v, DcgmField::GpuTemp) = int(between(60, 75.99, r(DcgmField::GpuTemp)));
            at(v, DcgmField::PowerUsage) = between(550, 650, r(DcgmField::PowerUsage));
            at(v, DcgmField::SmClock) = model.maxSmClockMHz - 15 * int(between(0, 8, r(DcgmField::SmClock)));
            at(v, DcgmField::GrEngineActive) = between(0.85, 0.99, r(DcgmField::GrEngineActive));
            at(v, DcgmField::PipeTensorActive) = between(0.6, 0.9, r(DcgmField::PipeTensorActive));
            at(v, DcgmField::DramActive) = between(0.3, 0.6, r(DcgmField::DramActive));
            at(v, DcgmField::PcieTxBytes) = int(between(2e8, 6e8, r(DcgmField::PcieTxBytes)));
            at(v, DcgmField::PcieRxBytes) = int(between(2e8, 6e8, r(DcgmField::PcieRxBytes)));
            if (const int asked = holder->second.utilPercent; asked >= 0) {
                // The job's known utilisation (strata-lab-gpu-util=N): N within +-2, and the
                // power, temperature and engine activity of that share; memory stays held.
                const double share = asked / 100.0;
                at(v, DcgmField::GpuUtil) = std::clamp(asked - 2 + int(between(0, 4.99, r(DcgmField::GpuUtil))), 0, 100);
                at(v, DcgmField::GrEngineActive) = share;
                at(v, DcgmField::PipeTensorActive) = 0.6 * share;
                at(v, DcgmField::MemCopyUtil) = int(40 * share);
                at(v, DcgmField::PowerUsage) = 70 + 530 * share + between(-5, 5, r(DcgmField::PowerUsage));
                at(v, DcgmField::GpuTemp) = int(34 + 34 * share + between(0, 3.99, r(DcgmField::GpuTemp)));
            }
        } else {
            at(v, DcgmField::FbUsed) = 0;
            at(v, DcgmField::GpuTemp) = int(between(30, 38.99, r(DcgmField::GpuTemp)));
            at(v, DcgmField::PowerUsage) = between(66, 74, r(DcgmField::PowerUsage));
            at(v, DcgmField::SmClock) = model.idleSmClockMHz;
            at(v, DcgmField::PcieTxBytes) = int(between(1e5, 5e5, r(DcgmField::PcieTxBytes)));
            at(v, DcgmField::PcieRxBytes) = int(between(1e5, 5e5, r(DcgmField::PcieRxBytes)));
        }
        at(v, DcgmField::FbFree) = usable - at(v, DcgmField::FbUsed);
        at(v, DcgmField::MemoryTemp) =
            at(v, DcgmField::GpuTemp) + int(between(2, 8.99, r(DcgmField::MemoryTemp)));
        at(v, DcgmField::MemClock) = model.memClockMHz;

        if (node.style.blankValues) {
            // An old exporter on a GPU without these fields: DCGM's "not supported" codes.
            at(v, DcgmField::MemoryTemp) = 2147483647.0;
            at(v, DcgmField::RowRemapFailure) = 9223372036854775794.0;
            at(v, DcgmField::UncorrectableRemappedRows) = 9223372036854775794.0;
            at(v, DcgmField::PipeTensorActive) = 140737488355330.0;
        }
        for (const GpuFault &f : faults) {
            if (f.node != node.name || f.gpu != i)
                continue;
            switch (f.kind) {
            case GpuFault::Kind::Xid:
                at(v, DcgmField::XidErrors) = f.value;
                break;
            case GpuFault::Kind::Hot:
                at(v, DcgmField::GpuTemp) = f.value;
                at(v, DcgmField::MemoryTemp) = f.value + 5;
                break;
            case GpuFault::Kind::RemapFailure:
                at(v, DcgmField::RowRemapFailure) = 1;
                break;
            case GpuFault::Kind::Uncorrectable:
                at(v, DcgmField::UncorrectableRemappedRows) = f.value;
                break;
            case GpuFault::Kind::Slow:
                if (busy) {
                    const double share = std::clamp(f.value, 0.0, 100.0) / 100.0;
                    at(v, DcgmField::GpuUtil) = int(f.value);
                    at(v, DcgmField::GrEngineActive) = share;
                    at(v, DcgmField::PipeTensorActive) = 0.6 * share;
                    at(v, DcgmField::PowerUsage) = 120 + 480 * share;
                }
                break;
            case GpuFault::Kind::Missing:
            case GpuFault::Kind::ExporterDown:
            case GpuFault::Kind::NvlinkErrors: // a counter: below, with the others
            case GpuFault::Kind::MovedFrom:    // the UUID: above
                break;
            }
        }

        Counters &c = m_counters[GpuKey{node.name, i}];
        double replaysPerSecond = -1;
        for (const GpuFault &f : faults)
            if (f.node == node.name && f.gpu == i && f.kind == GpuFault::Kind::NvlinkErrors)
                replaysPerSecond = std::max(0.0, f.value);
        if (replaysPerSecond >= 0 && c.nvlinkReplays < 0)
            c.nvlinkReplays = 0; // the counter appears at 0 with the fault, and rises from the next sample
        else if (replaysPerSecond >= 0 && nowMs > c.lastMs && c.lastMs > 0)
            c.nvlinkReplays += replaysPerSecond * double(nowMs - c.lastMs) / 1000.0;
        at(v, DcgmField::NvlinkReplayErrorCountTotal) =
            c.nvlinkReplays < 0 ? std::numeric_limits<double>::quiet_NaN() : double(qint64(c.nvlinkReplays));
        if (c.lastMs == 0) {
            // Counters start where a GPU up for a few days would be, not at zero.
            c.energyMilliJoule = 3.0e10 + 1.0e9 * jitter(node.name, i, DcgmField::TotalEnergyConsumption, 0);
            c.nvlinkBytes = 5.0e14 * jitter(node.name, i, DcgmField::NvlinkBandwidthTotal, 0);
        } else if (nowMs > c.lastMs) {
            const double seconds = double(nowMs - c.lastMs) / 1000.0;
            c.energyMilliJoule += at(v, DcgmField::PowerUsage) * seconds * 1000.0;
            if (busy)
                c.nvlinkBytes += seconds * between(1.0e11, 3.0e11, r(DcgmField::NvlinkBandwidthTotal));
        }
        c.lastMs = nowMs;
        at(v, DcgmField::TotalEnergyConsumption) = double(qint64(c.energyMilliJoule));
        at(v, DcgmField::NvlinkBandwidthTotal) = double(qint64(c.nvlinkBytes));
        if (const auto mig = node.style.migProfiles.find(i); mig != node.style.migProfiles.end())
            splitIntoMigInstances(s, mig->second, busy, samples);
        else
            samples.push_back(std::move(s));
    }
    return samples;
}

} // namespace strata::lab
