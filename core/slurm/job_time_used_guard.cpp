#include "job_time_used_guard.h"

namespace strata {

void JobTimeUsedGuard::apply(QVector<Job> &jobs)
{
    QHash<QString, Seen> seen;
    seen.reserve(jobs.size());
    for (Job &job : jobs) {
        if (job.timeUsedSeconds < 0)
            continue; // unknown stays unknown
        const auto before = m_seen.constFind(job.id);
        if (before != m_seen.constEnd() && before->startTime == job.startTime)
            job.timeUsedSeconds = std::max(job.timeUsedSeconds, before->timeUsedSeconds);
        seen.insert(job.id, Seen{job.startTime, job.timeUsedSeconds});
    }
    m_seen = std::move(seen);
}

} // namespace strata
