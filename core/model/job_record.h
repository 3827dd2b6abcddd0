#pragma once

#include "job_efficiency.h"
#include "job_state.h"
#include "pod_span.h"

#include <QDateTime>
#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

struct HistoryPeriod;

// One job over a history period, finished or still running: what the scheduler's accounting
// (sacct) recorded of it, or, for a running job, what the latest refresh showed.
struct JobRecord
{
    QString id; // Slurm "1234", array task "1234_5", heterogeneous component "1234+0"
    QString name; // exactly as submitted, any bytes
    QString user;
    QString account;
    QString partition;
    JobState state = JobState::Other;
    QString stateWord; // the scheduler's own word ("CANCELLED by 1000" reads as "CANCELLED")
    int exitCode = -1;   // -1: not recorded
    int exitSignal = -1; // -1: not recorded
    QDateTime submitted; // UTC; invalid: not recorded
    QDateTime started;   // UTC; invalid: never started
    QDateTime ended;     // UTC; invalid: still running
    QStringList nodes;   // expanded host names
    int gpus = 0;        // allocated in total (AllocTRES gres/gpu=N)
    QString gpuModel;    // from a typed gres/gpu:h100=N; empty when untyped
    QHash<QString, QVector<int>> gpuIndicesByNode; // empty: not recorded
    QString instanceType; // from the cluster's nodes when known, else empty
    QString framework;    // from the job's name/command when known, else empty
    // Kubernetes: the workload's pods that held GPUs (gpus is then their peak together);
    // empty for Slurm, whose allocation holds its GPUs for the whole span.
    QVector<PodSpan> pods;
    JobEfficiency efficiency;

    // Allocated GPU-hours inside the period: gpus times the part of [started, ended) inside
    // it; a running job counts up to the period's end. 0 for a job that never started. With
    // pods: the sum of each pod's GPUs times its own span inside the period.
    double gpuHours(const HistoryPeriod &period) const;
};

} // namespace strata
