#pragma once

#include <QString>

namespace strata {

// How well one job used the GPUs it held over a history period, as jobstats reports it: mean
// utilisation, peak memory, mean power, and the GPU-hours it held idle. Figures are -1 (shown
// as a dash) when they were not measured; `why` then says why.
struct JobEfficiency
{
    // How the job's GPUs were found in the metrics.
    enum class Basis {
        None,          // not measured: see why
        Exact,         // the exporter labels each GPU's series with the job (DCGM hpc_job)
        Indices,       // the scheduler recorded which GPU indices of which nodes the job held
        WholeNodes,    // the job held every GPU of its nodes, so the nodes' GPUs are its GPUs
        Unattributable // the job shared its nodes and nothing says which GPUs were its own
    };
    Basis basis = Basis::None;
    QString why; // when not measured (None, Unattributable): a sentence a person can act on

    double utilMeanPercent = -1;
    double memPeakMiB = -1;
    double powerMeanW = -1;
    double gpuHoursMeasured = 0; // GPU-hours that had samples
    double gpuHoursIdle = 0;     // of those, GPU-hours below HealthThresholds::idleUtilPercent
    int gpusMeasured = 0;

    bool isMeasured() const { return basis == Basis::Exact || basis == Basis::Indices || basis == Basis::WholeNodes; }
};

} // namespace strata
