#pragma once

#include <array>
#include <cstddef>

namespace strata::lab {

// The 21 fields of dcgm-exporter's default counter set that Strata reads, in its order, then
// the NVLink replay counter, which a site adds to the exporter's CSV (the stand-in writes it for
// a GPU only once an nvlink-errors fault has been set on it).
enum class DcgmField : std::size_t {
    GpuUtil,
    MemCopyUtil,
    FbUsed,
    FbFree,
    GpuTemp,
    MemoryTemp,
    PowerUsage,
    TotalEnergyConsumption,
    SmClock,
    MemClock,
    XidErrors,
    PcieReplayCounter,
    NvlinkBandwidthTotal,
    UncorrectableRemappedRows,
    CorrectableRemappedRows,
    RowRemapFailure,
    GrEngineActive,
    PipeTensorActive,
    DramActive,
    PcieTxBytes,
    PcieRxBytes,
    NvlinkReplayErrorCountTotal,
    Count,
};

inline constexpr std::size_t kDcgmFieldCount = static_cast<std::size_t>(DcgmField::Count);

struct DcgmFieldInfo
{
    const char *name; // the Prometheus metric name, e.g. DCGM_FI_DEV_GPU_UTIL
    const char *help;
    bool counter; // dcgm-exporter types energy, replays, NVLink bytes and remapped rows as counters
};

const std::array<DcgmFieldInfo, kDcgmFieldCount> &dcgmFields();

using DcgmValues = std::array<double, kDcgmFieldCount>;

inline double &at(DcgmValues &values, DcgmField field)
{
    return values[static_cast<std::size_t>(field)];
}

} // namespace strata::lab
