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
    };

    QString node;
    int gpu = 0;
    Kind kind = Kind::Xid;
    double value = 0;
};

} // namespace strata::lab
