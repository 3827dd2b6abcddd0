#include "idle_gpu_limit_findings.h"

#include <algorithm>
#include <limits>

namespace strata {

namespace IdleGpuLimitFindings {

namespace {

QString minutesText(qint64 seconds)
{
    if (seconds >= 2 * 3600 && seconds % 3600 < 60)
        return QStringLiteral("%1 h").arg(seconds / 3600);
    return QStringLiteral("%1 min").arg(seconds / 60);
}

} // namespace

QVector<Finding> find(const QVector<Job> &jobs, const JobUsage::Input &input, const HealthThresholds &t,
                      const IdleGpuLimits &limits)
{
    QVector<Finding> out;
    if (limits.isEmpty() || !input.series)
        return out;
    const QHash<int, QVector<int>> seriesByJob = JobUsage::seriesOfJobs(jobs, input);
    for (int j = 0; j < jobs.size(); ++j) { // job order: the same findings in the same order every refresh
        const auto it = seriesByJob.constFind(j);
        if (it == seriesByJob.cend())
            continue;
        const Job &job = jobs[j];
        const std::optional<qint64> limit = limits.limitFor(job.partition);
        if (!limit)
            continue;
        const qint64 from = job.startTime > 0 ? job.startTime : 0;
        qint64 idleFor = std::numeric_limits<qint64>::max();
        int measured = 0;
        int nodeIndex = -1;
        for (int i : it.value()) {
            const JobUsage::GpuSummary s = JobUsage::summarise((*input.series)[i].points, from, input.now, t);
            if (s.points == 0)
                continue;
            ++measured;
            idleFor = std::min(idleFor, s.idleSeconds);
            if (nodeIndex < 0)
                nodeIndex = input.seriesNode.value(i, -1);
        }
        const int held = job.gpuCountHeld() > 0 ? job.gpuCountHeld() : job.gpusRequested;
        if (measured == 0 || measured < held || idleFor < *limit)
            continue;
        const int gpus = std::max(held, measured);
        QString node;
        for (auto name = input.nodeIndexByName.cbegin(); nodeIndex >= 0 && name != input.nodeIndexByName.cend(); ++name)
            if (name.value() == nodeIndex) {
                node = name.key();
                break;
            }
        Finding f = Finding::make(
            Finding::Severity::Warning, node, -1, findingCode(),
            QStringLiteral("job %1 (%2, partition %3) has held %4 GPU%5 idle for %6, past the partition's limit of "
                           "%7: `strata cancel %1` frees them (Strata does not cancel it)")
                .arg(job.id, job.user.isEmpty() ? QStringLiteral("owner unknown") : job.user,
                     job.partition.isEmpty() ? QStringLiteral("-") : job.partition)
                .arg(gpus)
                .arg(gpus == 1 ? QString() : QStringLiteral("s"))
                .arg(minutesText(idleFor), minutesText(*limit)));
        f.job = job.id;
        f.jobs = QStringList{job.id};
        out << f;
    }
    return out;
}

} // namespace IdleGpuLimitFindings
} // namespace strata
