#include "dcgm_metric_catalog.h"

#include <QRegularExpression>

namespace strata {

const QVector<DcgmMetric> &DcgmMetricCatalog::all()
{
    static const QVector<DcgmMetric> metrics = {
        {QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), QStringLiteral("util"), QStringLiteral("%"),
         QStringLiteral("GPU utilisation"), &GpuMetrics::utilPercent},
        {QStringLiteral("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"), QStringLiteral("tensor"), QStringLiteral("ratio"),
         QStringLiteral("tensor pipe active (0..1)"), &GpuMetrics::tensorActive},
        {QStringLiteral("DCGM_FI_DEV_MEM_COPY_UTIL"), QStringLiteral("mem-copy"), QStringLiteral("%"),
         QStringLiteral("memory copy utilisation"), &GpuMetrics::memCopyUtilPercent},
        {QStringLiteral("DCGM_FI_DEV_FB_USED"), QStringLiteral("memory"), QStringLiteral("MiB"),
         QStringLiteral("framebuffer memory used"), &GpuMetrics::memUsedMiB},
        {QStringLiteral("DCGM_FI_DEV_FB_FREE"), QStringLiteral("memory-free"), QStringLiteral("MiB"),
         QStringLiteral("framebuffer memory free"), &GpuMetrics::memFreeMiB},
        {QStringLiteral("DCGM_FI_DEV_GPU_TEMP"), QStringLiteral("temp"), QStringLiteral("C"),
         QStringLiteral("GPU temperature"), &GpuMetrics::tempC},
        {QStringLiteral("DCGM_FI_DEV_MEMORY_TEMP"), QStringLiteral("memory-temp"), QStringLiteral("C"),
         QStringLiteral("HBM temperature"), &GpuMetrics::memoryTempC},
        {QStringLiteral("DCGM_FI_DEV_POWER_USAGE"), QStringLiteral("power"), QStringLiteral("W"),
         QStringLiteral("power draw"), &GpuMetrics::powerW},
        {QStringLiteral("DCGM_FI_DEV_SM_CLOCK"), QStringLiteral("sm-clock"), QStringLiteral("MHz"),
         QStringLiteral("SM clock"), &GpuMetrics::smClockMHz},
        {QStringLiteral("DCGM_FI_DEV_MEM_CLOCK"), QStringLiteral("mem-clock"), QStringLiteral("MHz"),
         QStringLiteral("memory clock"), &GpuMetrics::memClockMHz},
        {QStringLiteral("DCGM_FI_DEV_XID_ERRORS"), QStringLiteral("xid"), QStringLiteral("code"),
         QStringLiteral("last XID error code (0: none)"), &GpuMetrics::xid},
        {QStringLiteral("DCGM_FI_DEV_PCIE_REPLAY_COUNTER"), QStringLiteral("pcie-replays"), QStringLiteral("count"),
         QStringLiteral("PCIe replay counter"), &GpuMetrics::pcieReplays},
        {QStringLiteral("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS"), QStringLiteral("remapped-rows-uncorrectable"),
         QStringLiteral("count"), QStringLiteral("rows remapped after uncorrectable errors"),
         &GpuMetrics::uncorrectableRemappedRows},
        {QStringLiteral("DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS"), QStringLiteral("remapped-rows-correctable"),
         QStringLiteral("count"), QStringLiteral("rows remapped after correctable errors"),
         &GpuMetrics::correctableRemappedRows},
        {QStringLiteral("DCGM_FI_DEV_ROW_REMAP_FAILURE"), QStringLiteral("row-remap-failure"), QStringLiteral("count"),
         QStringLiteral("row remapping failed (1: no spare rows)"), &GpuMetrics::rowRemapFailure},
        {QStringLiteral("DCGM_FI_PROF_GR_ENGINE_ACTIVE"), QStringLiteral("gr-engine"), QStringLiteral("ratio"),
         QStringLiteral("graphics engine active (0..1); the utilisation of a MIG instance"),
         &GpuMetrics::grEngineActive},
    };
    return metrics;
}

const DcgmMetric *DcgmMetricCatalog::find(QStringView nameOrFriendly)
{
    for (const DcgmMetric &m : all())
        if (m.friendlyName.compare(nameOrFriendly, Qt::CaseInsensitive) == 0
            || m.name.compare(nameOrFriendly, Qt::CaseInsensitive) == 0)
            return &m;
    return nullptr;
}

const DcgmMetric *DcgmMetricCatalog::byName(QStringView name)
{
    for (const DcgmMetric &m : all())
        if (m.name == name)
            return &m;
    return nullptr;
}

QStringList DcgmMetricCatalog::refreshMetricNames()
{
    QStringList names;
    for (const DcgmMetric &m : all())
        names << m.name;
    return names;
}

bool DcgmMetricCatalog::looksLikeDcgmName(QStringView name)
{
    static const QRegularExpression pattern(QStringLiteral("^DCGM_FI_[A-Z0-9_]+\\z"));
    return pattern.match(name).hasMatch();
}

} // namespace strata
