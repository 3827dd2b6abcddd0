#pragma once

#include <QString>

namespace strata::lab {

// A fault injected by `lab/lab fault NODE GPU KIND [VALUE]`.
struct GpuFault
{
    enum class Kind {
        Xid,           // DCGM_FI_DEV_XID_ERRORS = value (the last Xid code)
        Hot,           // DCGM_FI_DEV_GPU_TEMP = value
        RemapFailure,  // DCGM_FI_DEV_ROW_REMAP_FAILURE = 1
        Uncorrectable, // DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS = value
        Missing,       // the GPU's series disappear
        ExporterDown,  // the whole node's endpoint stops answering
        Slow,          // a held GPU works at value % (utilisation, GR engine, tensor pipes, power):
                       // one that waits on a slow link or throttles, a straggler in its job
        NvlinkErrors,  // DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL rises by value a second: a
                       // link that retries (the counter appears, at 0, when the fault is set)
        MovedFrom,     // the GPU reports the UUID of fromNode's GPU fromGpu: that card moved here
                       // (a baseboard swapped into another instance, a node renamed)
    };

    QString node;
    int gpu = 0;
    Kind kind = Kind::Xid;
    double value = 0;
    QString fromNode; // MovedFrom only
    int fromGpu = -1;
};

} // namespace strata::lab
