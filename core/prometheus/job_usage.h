#pragma once

#include "health_thresholds.h"
#include "metrics_part.h"
#include "model/job.h"
#include "model/node.h"

#include <QHash>
#include <QString>
#include <QVector>

namespace strata {

// Per-job GPU usage from the cluster-wide usage history: each running job gets the slice of
// its GPUs' series since it started. Pure; any thread.
//
// Which series belong to a job: those whose exporter label names it (`hpc_job`, or
// "namespace/pod" for a pod of a Kubernetes Job "namespace/name"), else the series of the GPU
// indices the scheduler says the job holds (Job::gpus), from the job's start on.
class JobUsage
{
public:
    struct GpuSummary
    {
        double meanUtilPercent = 0;
        double meanMemUsedMiB = -1; // < 0: no memory values
        qint64 idleSeconds = 0;     // how long it has been idle at the end of the window
        int points = 0;
    };

    // The series of usage, with the node index each resolved to (-1: not a cluster node).
    struct Input
    {
        const QVector<GpuUsageSeries> *series = nullptr;
        QVector<int> seriesNode;
        QHash<QString, int> nodeIndexByName; // the scheduler's node names
        qint64 now = 0;
        qint64 stepSeconds = 0; // the history's step (0: unknown)
    };

    // Which series belong to each running job (by the job's index in jobs): those whose
    // exporter label names it, else those of the GPUs the scheduler says it holds.
    static QHash<int, QVector<int>> seriesOfJobs(const QVector<Job> &jobs, const Input &input);

    // Fills gpuUtilMean, gpuUtilMin, gpuMemUsedMeanMiB and efficiencyVerdict of running jobs
    // whose GPUs have points in the window since they started (gpuUtilBasis "window").
    static void apply(QVector<Job> &jobs, const Input &input, const HealthThresholds &thresholds);
    // For running jobs apply() left without a value (the job started after the usage history
    // was read, the history query failed or has not run yet): the same fields from the latest
    // readings of the GPUs (and MIG instances) the join attributed to them (Gpu::jobId,
    // MigInstance::jobId), gpuUtilBasis "current", the verdict saying so.
    static void applyCurrent(QVector<Job> &jobs, const QVector<Node> &nodes, const HealthThresholds &thresholds);

    // One GPU's points from `from` on (0: all).
    static GpuSummary summarise(const QVector<UsagePoint> &points, qint64 from, qint64 now,
                                const HealthThresholds &thresholds);
    // "8 GPUs held, 3 idle for 40 min", "all 4 GPUs busy (mean 93%)", ...
    static QString verdict(int gpusHeld, const QVector<GpuSummary> &gpus, const HealthThresholds &thresholds);

    // The job id a series' job label names, among jobIds; empty when none. Kubernetes pods are
    // named after their Job plus one or two generated suffixes ("train-7x2kq", "train-0-7x2kq").
    static QString jobIdForKey(const QString &key, const QHash<QString, int> &jobIndexById);
};

} // namespace strata
