#include "heatmap_metric.h"

#include "model/gpu_catalog.h"
#include "unit_formatter.h"

namespace strata {

namespace {

constexpr double kTempLowC = 20, kTempHighC = 95;

} // namespace

QList<HeatmapMetric::Kind> HeatmapMetric::all()
{
    return {Kind::NodeState, Kind::Allocation, Kind::Utilisation, Kind::Temperature, Kind::Power, Kind::Memory};
}

QString HeatmapMetric::id(Kind kind)
{
    switch (kind) {
    case Kind::NodeState: return QStringLiteral("state");
    case Kind::Allocation: return QStringLiteral("allocation");
    case Kind::Utilisation: return QStringLiteral("utilisation");
    case Kind::Temperature: return QStringLiteral("temperature");
    case Kind::Power: return QStringLiteral("power");
    case Kind::Memory: return QStringLiteral("memory");
    }
    return QStringLiteral("utilisation");
}

HeatmapMetric::Kind HeatmapMetric::fromId(const QString &id)
{
    for (Kind k : all())
        if (HeatmapMetric::id(k) == id)
            return k;
    return Kind::Utilisation;
}

QString HeatmapMetric::label(Kind kind)
{
    switch (kind) {
    case Kind::NodeState: return QStringLiteral("Node state");
    case Kind::Allocation: return QStringLiteral("Allocation");
    case Kind::Utilisation: return QStringLiteral("Utilisation (%)");
    case Kind::Temperature: return QStringLiteral("Temperature (°C)");
    case Kind::Power: return QStringLiteral("Power (% of board limit)");
    case Kind::Memory: return QStringLiteral("Memory used (%)");
    }
    return {};
}

QString HeatmapMetric::lowLabel(Kind kind)
{
    switch (kind) {
    case Kind::Temperature: return QStringLiteral("%1 °C").arg(kTempLowC);
    case Kind::Allocation: return QStringLiteral("free");
    default: return QStringLiteral("0 %");
    }
}

QString HeatmapMetric::highLabel(Kind kind)
{
    switch (kind) {
    case Kind::Temperature: return QStringLiteral("%1 °C").arg(kTempHighC);
    case Kind::Allocation: return QStringLiteral("in use");
    default: return QStringLiteral("100 %");
    }
}

double HeatmapMetric::powerLimitW(const QString &gpuModel)
{
    // The catalog has no board power; these are the SXM limits of the models it lists.
    if (gpuModel == QStringLiteral("B200"))
        return 1000;
    if (gpuModel == QStringLiteral("B300"))
        return 1100;
    return 700;
}

std::optional<double> HeatmapMetric::value(const Node &node, const Gpu &gpu, Kind kind)
{
    const GpuMetrics &m = gpu.metrics;
    switch (kind) {
    case Kind::NodeState: return std::nullopt; // a class, not a value: StateColouring
    case Kind::Allocation: return gpu.jobId.isEmpty() ? 0.0 : 1.0;
    case Kind::Utilisation: return m.utilPercent;
    case Kind::Temperature: return m.tempC;
    case Kind::Power:
        if (!m.powerW)
            return std::nullopt;
        return *m.powerW / powerLimitW(gpu.model.isEmpty() ? node.gpuModel : gpu.model) * 100;
    case Kind::Memory: {
        if (!m.memUsedMiB)
            return std::nullopt;
        if (m.memFreeMiB && *m.memUsedMiB + *m.memFreeMiB > 0)
            return *m.memUsedMiB / (*m.memUsedMiB + *m.memFreeMiB) * 100;
        const GpuSpec *spec = GpuCatalog::builtIn().gpu(gpu.model.isEmpty() ? node.gpuModel : gpu.model);
        if (!spec || spec->hbmGiB <= 0)
            return std::nullopt;
        return *m.memUsedMiB / (spec->hbmGiB * 1024) * 100;
    }
    }
    return std::nullopt;
}

std::optional<double> HeatmapMetric::normalised(const Node &node, const Gpu &gpu, Kind kind)
{
    const std::optional<double> v = value(node, gpu, kind);
    if (!v)
        return std::nullopt;
    if (kind == Kind::Temperature)
        return qBound(0.0, (*v - kTempLowC) / (kTempHighC - kTempLowC), 1.0);
    if (kind == Kind::Allocation)
        return *v;
    return qBound(0.0, *v / 100, 1.0);
}

QString HeatmapMetric::cellText(const Node &node, const Gpu &gpu, Kind kind)
{
    if (kind == Kind::Allocation || kind == Kind::NodeState)
        return {};
    const std::optional<double> v = value(node, gpu, kind);
    return v ? QString::number(qRound(*v)) : UnitFormatter::dash();
}

} // namespace strata
