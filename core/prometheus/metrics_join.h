#pragma once

#include "health_thresholds.h"
#include "metrics_part.h"
#include "model/cluster_snapshot.h"
#include "model/gpu_catalog.h"
#include "profile/cluster_profile.h"

namespace strata {

// Joins one MetricsPart into a snapshot that already holds the scheduler's nodes and jobs.
// Pure; runs wherever the session merges (a worker or the GUI thread), on a snapshot nobody
// else sees yet. Node and job order are kept, so ClusterSnapshot::finalize() may run before or
// after.
//
// What it fills:
//   - Node::gpus: one Gpu per expected GPU (index 0..gpuCount-1; gpuCount from GRES/capacity,
//     else the catalog's instance type), plus any index the exporter reports beyond that; UUID,
//     metrics, seenByExporter, model (from `modelName` via the catalog when unknown);
//   - Gpu::jobId: the exporter's `hpc_job` or "namespace/pod" where present, else the job the
//     scheduler says holds that index (Job::gpus);
//   - Job::gpuUtilMean/gpuUtilMin/gpuMemUsedMeanMiB/efficiencyVerdict for running jobs (JobUsage);
//   - findings: per GPU (GpuHealthRules), per node (GPUs missing or extra, exporter down, no
//     metrics), per cluster (no DCGM metrics at all, series from hosts that are not nodes).
// A failed part (part.error set) only sets metricsAvailable = false.
class MetricsJoin
{
public:
    struct Options
    {
        HealthThresholds thresholds;
        const GpuCatalog *catalog = nullptr; // nullptr: the built-in catalog
    };

    static void apply(ClusterSnapshot &snapshot, const MetricsPart &part, const ClusterProfile &profile);
    static void apply(ClusterSnapshot &snapshot, const MetricsPart &part, const ClusterProfile &profile,
                      const Options &options);
};

} // namespace strata
