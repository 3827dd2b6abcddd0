#include "power_findings.h"

#include "job.h"
#include "node.h"

#include <QHash>

namespace strata::PowerFindings {

QVector<Finding> findings(const QVector<Node> &nodes, const QVector<Job> &jobs)
{
    QVector<Finding> out;
    QHash<QString, const Job *> jobById;
    for (const Node &node : nodes) {
        if (node.power != PowerState::FailedToLaunch)
            continue;
        if (jobById.isEmpty() && !node.jobsAwaitingLaunch.isEmpty())
            for (const Job &j : jobs)
                jobById.insert(j.id, &j);
        QStringList waited;
        for (const QString &id : node.jobsAwaitingLaunch) {
            const Job *job = jobById.value(id);
            waited << (job ? QStringLiteral("%1 (%2 now)").arg(id, job->state) : QStringLiteral("%1 (no longer listed)").arg(id));
        }
        const QString reason = node.reason.isEmpty() ? QStringLiteral("no reason given") : node.reason;
        QString message = QStringLiteral("%1 failed to launch (%2): its instance never registered with the scheduler")
                              .arg(node.name, reason);
        message += waited.isEmpty()
            ? QStringLiteral("; no job Strata saw was waiting for it")
            : QStringLiteral("; %1 waited for it (Slurm requeues such jobs)").arg(waited.join(QLatin1String(", ")));
        message += QStringLiteral(". Check the launch (capacity, quotas, the ResumeProgram's log), then `scontrol update "
                                  "nodename=%1 state=power_down_force` or resume it")
                       .arg(node.name);
        Finding f = Finding::make(Finding::Severity::Warning, node.name, -1, launchFailedCode(), message);
        if (!node.jobsAwaitingLaunch.isEmpty())
            f.job = node.jobsAwaitingLaunch.first();
        out << f;
    }
    return out;
}

} // namespace strata::PowerFindings
