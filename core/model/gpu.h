#pragma once

#include <QString>
#include <QVector>

#include <optional>

namespace strata {

// Live metrics of one GPU, as last read from Prometheus. Every field is optional:
// a metric the exporter does not report stays empty and is shown as a dash, never as zero.
struct GpuMetrics
{
    std::optional<double> utilPercent;        // DCGM_FI_DEV_GPU_UTIL
    std::optional<double> tensorActive;       // DCGM_FI_PROF_PIPE_TENSOR_ACTIVE, 0..1
    std::optional<double> memCopyUtilPercent; // DCGM_FI_DEV_MEM_COPY_UTIL
    std::optional<double> memUsedMiB;         // DCGM_FI_DEV_FB_USED
    std::optional<double> memFreeMiB;         // DCGM_FI_DEV_FB_FREE
    std::optional<double> tempC;              // DCGM_FI_DEV_GPU_TEMP
    std::optional<double> memoryTempC;        // DCGM_FI_DEV_MEMORY_TEMP
    std::optional<double> powerW;             // DCGM_FI_DEV_POWER_USAGE
    std::optional<double> smClockMHz;         // DCGM_FI_DEV_SM_CLOCK
    std::optional<double> memClockMHz;        // DCGM_FI_DEV_MEM_CLOCK
    std::optional<double> xid;                // DCGM_FI_DEV_XID_ERRORS (last XID code, 0 = none)
    std::optional<double> pcieReplays;        // DCGM_FI_DEV_PCIE_REPLAY_COUNTER
    std::optional<double> uncorrectableRemappedRows; // DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS
    std::optional<double> correctableRemappedRows;   // DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS
    std::optional<double> rowRemapFailure;    // DCGM_FI_DEV_ROW_REMAP_FAILURE
};

// One GPU of one node. Its identity comes from the scheduler (index, model); UUID and metrics
// from the exporter when there is one.
struct Gpu
{
    int index = -1;
    QString uuid;
    QString model;        // catalog model, e.g. "H100"; empty when unknown
    QString jobId;        // job (Slurm) or pod (Kubernetes, "namespace/name") holding it; empty when free
    bool seenByExporter = false;
    GpuMetrics metrics;
};

} // namespace strata
