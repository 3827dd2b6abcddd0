#include "burnin_job_watch.h"

#include "slurm/hostlist.h"

namespace strata {

BurninJobWatch::BurninJobWatch(const QString &jobId, const QStringList &nodes) : m_jobId(jobId), m_nodes(nodes)
{
}

std::optional<QString> BurninJobWatch::update(const ClusterSnapshot &snapshot)
{
    const Job *job = snapshot.job(m_jobId);
    if (!job)
        return std::nullopt;
    const JobState state = job->stateKind;
    if (state == JobState::Pending) {
        if (m_state == state && m_reason == job->reason)
            return std::nullopt;
        m_state = state;
        m_reason = job->reason;
        const QString nodes = Hostlist::compress(m_nodes);
        return m_reason.isEmpty() ? QStringLiteral("Burn-in job %1 is waiting for %2 (pending)").arg(m_jobId, nodes)
                                  : QStringLiteral("Burn-in job %1 is waiting for %2 (pending: %3)").arg(m_jobId, nodes, m_reason);
    }
    if (state == JobState::Running || state == JobState::Configuring) {
        // Configuring holds the nodes already (they launch or boot): it runs there, starting.
        if (m_state == JobState::Running || m_state == JobState::Configuring)
            return std::nullopt;
        m_state = state;
        m_reason.clear();
        const QStringList where = job->nodes.isEmpty() ? m_nodes : job->nodes;
        return QStringLiteral("Burn-in job %1 runs on %2").arg(m_jobId, Hostlist::compress(where));
    }
    return std::nullopt; // its end is told by the burn-in session's verdict or failure
}

} // namespace strata
