#include "slurm_action_reconciler.h"

#include "hostlist.h"
#include "slurm_commands.h"
#include "slurm_diagnostic.h"
#include "model/action_reconciler.h"
#include "model/job_state.h"
#include "ssh/remote_shell.h"

#include <QSet>

namespace strata::SlurmActionReconciler {

namespace {

// Slurm's read-back: squeue and sinfo over the login node's shell.
class SlurmReadBack final : public ActionReconciler
{
public:
    explicit SlurmReadBack(RemoteShell &shell) : m_shell(shell) {}

protected:
    ActionResult reconcileSubmit(const ActionResult &unknown) const override;
    ActionResult reconcileCancel(const ActionResult &unknown) const override;
    ActionResult reconcileNodes(const ActionResult &unknown, bool drain) const override;

private:
    RemoteShell &m_shell;
};

const QSet<QString> &endedStates()
{
    static const QSet<QString> states{QStringLiteral("COMPLETED"), QStringLiteral("FAILED"), QStringLiteral("TIMEOUT"),
                                      QStringLiteral("NODE_FAIL"), QStringLiteral("PREEMPTED"), QStringLiteral("OUT_OF_MEMORY"),
                                      QStringLiteral("BOOT_FAIL"), QStringLiteral("DEADLINE"), QStringLiteral("COMPLETING"),
                                      QStringLiteral("SPECIAL_EXIT"), QStringLiteral("REVOKED")};
    return states;
}

ActionResult SlurmReadBack::reconcileSubmit(const ActionResult &unknown) const
{
    if (unknown.tag.isEmpty())
        return stillUnknown(unknown, QStringLiteral("the submission carried no tag to look for"));
    const CommandResult r = m_shell.run(submissionQuery()).result();
    if (!r.ok())
        return stillUnknown(unknown, r.errorText());
    const QString comment = SlurmCommands::submissionComment(unknown.tag);
    const QStringList jobs = jobsWithComment(r.stdoutData, comment);
    if (jobs.isEmpty())
        return settled(unknown, false,
                       QStringLiteral("not submitted: no job carries the comment %1 (the request was lost "
                                      "before sbatch took it)").arg(comment));
    ActionResult done = settled(unknown, true,
                                QStringLiteral("Submitted batch job %1 (found by its comment %2 after the answer was lost)")
                                    .arg(jobs.first(), comment));
    done.jobId = jobs.first();
    return done;
}

ActionResult SlurmReadBack::reconcileCancel(const ActionResult &unknown) const
{
    const QString &job = unknown.target;
    const QStringList argv = jobStateQuery(job);
    if (argv.isEmpty())
        return settled(unknown, false, QStringLiteral("\"%1\" is not a Slurm job id").arg(job));
    const CommandResult r = m_shell.run(argv).result();
    if (!r.ran())
        return stillUnknown(unknown, r.errorText());
    const QString state = QString::fromUtf8(r.stdoutData).trimmed().section(QLatin1Char('\n'), 0, 0).trimmed();
    if (state.isEmpty()) {
        // squeue says "Invalid job id specified" for a job the controller no longer holds.
        if (SlurmDiagnostic::fromStderr(r.stderrData).kind == SlurmDiagnostic::Kind::InvalidJobId)
            return settled(unknown, true, QStringLiteral("job %1 no longer exists").arg(job));
        return stillUnknown(unknown, r.errorText());
    }
    if (parseJobState(state) == JobState::Cancelled)
        return settled(unknown, true, QStringLiteral("Cancelled job %1 (its state read back after the answer was lost)").arg(job));
    if (endedStates().contains(state))
        return settled(unknown, true, QStringLiteral("job %1 is %2: nothing is left to cancel").arg(job, state));
    return settled(unknown, false, QStringLiteral("not cancelled: job %1 is still %2").arg(job, state));
}

ActionResult SlurmReadBack::reconcileNodes(const ActionResult &unknown, bool drain) const
{
    const QStringList nodes = unknown.target.split(QLatin1Char(','), Qt::SkipEmptyParts);
    const QStringList argv = nodeStateQuery(nodes);
    if (argv.isEmpty())
        return settled(unknown, false, QStringLiteral("\"%1\" names no valid nodes").arg(unknown.target));
    const CommandResult r = m_shell.run(argv).result();
    if (!r.ok())
        return stillUnknown(unknown, r.errorText());
    const QHash<QString, QString> states = nodeStates(r.stdoutData);
    QStringList wrong;
    for (const QString &node : nodes) {
        const QString state = states.value(node);
        if (state.isEmpty())
            wrong << QStringLiteral("%1 is not listed").arg(node);
        else if (isDrainState(state) != drain)
            wrong << QStringLiteral("%1 is %2").arg(node, state);
    }
    if (!wrong.isEmpty())
        return settled(unknown, false, QStringLiteral("not %1: %2").arg(drain ? QStringLiteral("drained") : QStringLiteral("resumed"),
                                                                      wrong.join(QLatin1String(", "))));
    return settled(unknown, true,
                   drain ? QStringLiteral("Draining %1: %2 (the nodes' state read back after the answer was lost)").arg(unknown.target, unknown.reason)
                         : QStringLiteral("Resumed %1 (the nodes' state read back after the answer was lost)").arg(unknown.target));
}

} // namespace

QStringList submissionQuery()
{
    // %F: the array's base id (the id sbatch printed) for every task; the plain id otherwise.
    return {QStringLiteral("squeue"), QStringLiteral("-h"), QStringLiteral("-a"), QStringLiteral("--states=all"),
            QStringLiteral("-o"), QStringLiteral("%F|%k")};
}

QStringList jobsWithComment(const QByteArray &squeueOutput, const QString &comment)
{
    QStringList ids;
    const QByteArray wanted = comment.toUtf8();
    for (const QByteArray &line : squeueOutput.split('\n')) {
        const qsizetype bar = line.indexOf('|');
        if (bar <= 0 || line.mid(bar + 1) != wanted)
            continue;
        const QString id = QString::fromLatin1(line.left(bar)).trimmed();
        if (SlurmCommands::isValidJobId(id) && !ids.contains(id))
            ids << id;
    }
    return ids;
}

QStringList jobStateQuery(const QString &jobId)
{
    if (!SlurmCommands::isValidJobId(jobId))
        return {};
    return {QStringLiteral("squeue"), QStringLiteral("-h"), QStringLiteral("-j"), jobId, QStringLiteral("--states=all"),
            QStringLiteral("-o"), QStringLiteral("%T")};
}

QStringList nodeStateQuery(const QStringList &nodes)
{
    if (nodes.isEmpty())
        return {};
    for (const QString &n : nodes)
        if (!SlurmCommands::isValidNodeName(n))
            return {};
    return {QStringLiteral("sinfo"), QStringLiteral("-h"), QStringLiteral("-N"), QStringLiteral("-n"), Hostlist::compress(nodes),
            QStringLiteral("-o"), QStringLiteral("%N|%T")};
}

QHash<QString, QString> nodeStates(const QByteArray &sinfoOutput)
{
    QHash<QString, QString> states;
    for (const QByteArray &line : sinfoOutput.split('\n')) {
        const qsizetype bar = line.indexOf('|');
        if (bar > 0)
            states.insert(QString::fromUtf8(line.left(bar)).trimmed(), QString::fromUtf8(line.mid(bar + 1)).trimmed());
    }
    return states;
}

bool isDrainState(const QString &sinfoState)
{
    // sinfo's long state names: "drained", "draining", "drain" (+ '*' when not responding).
    return sinfoState.startsWith(QLatin1String("drain"));
}

ActionResult reconcile(RemoteShell &shell, const ActionResult &unknown)
{
    return SlurmReadBack(shell).reconcile(unknown);
}

} // namespace strata::SlurmActionReconciler
