#pragma once

#include "model/job.h"

#include <QHash>
#include <QVector>

namespace strata {

// Keeps each job's "time used" from going backwards within a session. squeue computes it when
// it is asked, and a refresh may show a listing asked for before the one shown last: the squeue
// read right after this session's own submit or cancel is newer than the --iterate listing the
// next refresh takes (SqueueFollower), which was asked for a moment before it (issue 33: 3 s
// back). A job's time is the most seen for its current run (its start time: a requeued job
// starts again from zero); jobs no longer listed are forgotten. A value, used on the Slurm
// source's pool thread.
class JobTimeUsedGuard
{
public:
    void apply(QVector<Job> &jobs);

private:
    struct Seen
    {
        qint64 startTime = 0;
        qint64 timeUsedSeconds = -1;
    };
    QHash<QString, Seen> m_seen;
};

} // namespace strata
