#pragma once

#include "model/cluster_snapshot.h"
#include "model/job_state.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace strata {

// Follows a submitted burn-in job through the cluster's snapshots and says, once per change,
// where it stands: "waiting for gpu-node03 (pending: ReqNodeNotAvail)" while the scheduler
// holds it, "runs on gpu-node03" once it runs. The log says no more than the scheduler does:
// a job that pends is never reported as running. Decides on the job's state kind, never its
// word. A value, used on the GUI thread by BurninController.
class BurninJobWatch
{
public:
    BurninJobWatch(const QString &jobId, const QStringList &nodes);

    const QString &jobId() const { return m_jobId; }
    // The line to log for this snapshot, or nothing when the job stands as it did (or is not
    // listed in it).
    std::optional<QString> update(const ClusterSnapshot &snapshot);

private:
    QString m_jobId;
    QStringList m_nodes;
    std::optional<JobState> m_state; // as last reported
    QString m_reason;                // the pending reason last reported
};

} // namespace strata
