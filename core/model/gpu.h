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
    std::optional<double> grEngineActive;     // DCGM_FI_PROF_GR_ENGINE_ACTIVE, 0..1 (what MIG instances report)
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

// One MIG GPU instance (a slice of a GPU in MIG mode), as dcgm-exporter labels it (GPU_I_ID,
// GPU_I_PROFILE). DCGM does not support DCGM_FI_DEV_GPU_UTIL on MIG instances: utilPercent
// is DCGM_FI_PROF_GR_ENGINE_ACTIVE x 100 there. Memory is the instance's own.
struct MigInstance
{
    int id = -1;          // GPU_I_ID
    QString profile;      // GPU_I_PROFILE, e.g. "1g.10gb"
    QString jobId;        // job or "namespace/pod" using this instance; empty when free
    GpuMetrics metrics;

    // The number of compute slices of the profile ("3g.40gb" -> 3, "1g.10gb+me" -> 1); 1 when
    // unreadable.
    int computeSlices() const
    {
        const qsizetype g = profile.indexOf(QLatin1Char('g'));
        bool ok = false;
        const int n = g > 0 ? profile.left(g).toInt(&ok) : 0;
        return ok && n > 0 && n <= 7 ? n : 1; // 7 is the most a GPU has; more is no profile
    }
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
    // In MIG mode: the GPU-level values the instances share (temperature, power, clocks, XID,
    // rows) and, over the instances, memory used/free summed and utilisation as the mean
    // weighted by compute slices (a busy 3g and an idle 1g of seven: 3/4 of the used slices,
    // (3 x 100 + 1 x 0) / 4 = 75 %). jobId is the instances' job when they all have one and
    // the same, else empty: the instances say who holds what.
    GpuMetrics metrics;
    QVector<MigInstance> migInstances; // empty: not in MIG mode (or the exporter says nothing of it)
};

} // namespace strata
