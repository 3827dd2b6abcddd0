#pragma once

#include "model/cluster_snapshot.h"
#include "model/history_period.h"
#include "model/job_record.h"

#include <QVector>

namespace strata {

// The records of a history read, put together from the scheduler's accounting and the latest
// snapshot (ClusterSession::readHistory, on a pool thread). Accounting says what ran and for
// how long; the snapshot adds what accounting cannot: the GPU indices each running job holds
// (so its efficiency can be measured by index), its framework, and each record's instance type
// from its nodes. A job running now that accounting does not list yet (slurmdbd lags, or a
// scheduler without accounting) is added from the snapshot. On Kubernetes a running workload is
// also found by its pods: kube-state-metrics follows no owner above some kinds (a TrainJob's
// JobSet, a LeaderWorkerSet's StatefulSet), so its record takes the live view's id and name
// rather than count twice. Pure; linear in jobs and records.
class HistoryMerge
{
public:
    // `latest` may be null (no refresh yet): the accounting records are returned as they are.
    static QVector<JobRecord> merge(QVector<JobRecord> accounting, const ClusterSnapshot *latest,
                                    const HistoryPeriod &period);
    // A running job of the snapshot as a record (ended invalid: still running).
    static JobRecord fromRunningJob(const Job &job);
};

} // namespace strata
