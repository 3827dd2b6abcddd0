#pragma once

#include "gpu_fault.h"
#include "gpu_holder.h"
#include "gpu_sample.h"
#include "node_spec.h"

#include <QtGlobal>

#include <map>
#include <vector>

namespace strata::lab {

// Turns "who holds which GPU" and the injected faults into plausible DCGM readings: a held GPU
// is busy (util 85-100 %, tensor 0.6-0.9, 550-650 W, 60-75 C, most of its HBM used), a free one
// idles (0 %, ~70 W, 30-38 C, no memory used). Readings jitter deterministically per node, GPU
// and 2-second slot; energy and NVLink counters integrate over time. Main thread only.
class GpuSimulator
{
public:
    // One sample per exported GPU of `node` (a GPU with a `missing` fault is left out; a GPU in
    // MIG mode gives one per GPU instance).
    std::vector<GpuSample> sample(const NodeSpec &node, const GpuHolders &holders,
                                  const std::vector<GpuFault> &faults, qint64 nowMs);

    // Stable identity: the same node and index give the same UUID on every run.
    static std::string uuidFor(const QString &node, int index);
    static std::string pciBusIdFor(int index);

private:
    // A GPU in MIG mode as dcgm-exporter shows it: one sample per GPU instance.
    static void splitIntoMigInstances(const GpuSample &gpu, const std::vector<std::string> &profiles, bool busy,
                                      std::vector<GpuSample> &out);

    struct Counters
    {
        double energyMilliJoule = 0;
        double nvlinkBytes = 0;
        double nvlinkReplays = -1; // < 0: no nvlink-errors fault yet, the field is not exported
        qint64 lastMs = 0;
    };

    std::map<GpuKey, Counters> m_counters;
};

} // namespace strata::lab
