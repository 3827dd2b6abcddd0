#include "burnin_slurm_transport.h"

#include "burnin_job_script.h"
#include "model/when_finished.h"
#include "slurm/slurm_action_reconciler.h"
#include "slurm/scontrol_parser.h"
#include "slurm/slurm_commands.h"
#include "ssh/remote_shell.h"
#include "ssh/shell_quote.h"

#include <QUuid>

namespace strata {

BurninSlurmTransport::BurninSlurmTransport(std::shared_ptr<RemoteShell> shell, QObject *parent)
    : BurninFileTransport(std::move(shell), parent)
{
}

void BurninSlurmTransport::attach(const QString &jobId, const BurninRequest &request)
{
    m_run = BurninRunState{};
    m_run.request = request;
    // The id goes into the poll script (file names, squeue -j): the rule cancel uses, and it is
    // quoted there besides.
    if (!SlurmCommands::isValidJobId(jobId)) {
        fail(QStringLiteral("\"%1\" is not a Slurm job id (digits, or an array task as 12_3)").arg(jobId));
        return;
    }
    m_run.running = true;
    m_run.jobId = jobId;
    for (const QString &n : request.nodes)
        m_run.offsets.insert(n, 0);
    if (!m_run.request.outputDirectory.isEmpty()) {
        Q_EMIT stageChanged(QStringLiteral("running"));
        poll();
        return;
    }
    // Attached by id alone: each run writes to a directory of its own, the one its batch
    // output (StdOut) is in, and Slurm says where that is.
    Q_EMIT stageChanged(QStringLiteral("finding where job %1 writes").arg(jobId));
    whenFinished(m_shell->run({QStringLiteral("scontrol"), QStringLiteral("show"), QStringLiteral("job"), QStringLiteral("-o"), jobId}),
                 this, [this, jobId](const CommandResult &r) {
        if (!m_run.running)
            return;
        const ScontrolJobsParseResult parsed = ScontrolParser::parseJobDetails(r.stdoutData, {{jobId, QStringLiteral("strata-burnin")}});
        const QString stdoutPath = parsed.jobs.value(jobId).stdoutPath;
        if (!r.ok() || !stdoutPath.startsWith(QLatin1Char('/')) || !stdoutPath.contains(QLatin1String("/strata-burnin-"))) {
            fail(QStringLiteral("cannot find where burn-in job %1 writes its results: %2")
                     .arg(jobId, !r.ok() ? r.errorText()
                                         : stdoutPath.isEmpty() ? QStringLiteral("scontrol shows no such job (or it is not a Strata burn-in)")
                                                                : QStringLiteral("its output %1 is not a Strata burn-in's").arg(stdoutPath)));
            return;
        }
        m_run.request.outputDirectory = stdoutPath.left(stdoutPath.lastIndexOf(QLatin1Char('/')));
        Q_EMIT stageChanged(QStringLiteral("running"));
        poll();
    });
}

void BurninSlurmTransport::submit()
{
    int gpus = 0;
    for (const QString &n : std::as_const(m_run.request.nodes))
        gpus = qMax(gpus, m_run.request.gpusByNode.value(n));
    if (m_run.request.tag.isEmpty())
        m_run.request.tag = QUuid::createUuid().toString(QUuid::WithoutBraces);
    QString error;
    const QStringList argv = BurninJobScript::sbatchArguments(m_run.request, gpus, &error);
    if (argv.isEmpty()) {
        fail(error);
        return;
    }
    whenFinished(m_shell->run(argv, BurninJobScript::batchScript(m_run.request, gpus).toUtf8()), this, [this](const CommandResult &r) {
        if (!m_run.running)
            return;
        if (!r.ran() && r.mayHaveRun) {
            findLaunchedJob(r.errorText(), 0);
            return;
        }
        const QString jobId = SlurmCommands::jobIdFromSbatchOutput(r.stdoutData);
        if (!r.ok() || jobId.isEmpty()) {
            fail(QStringLiteral("sbatch refused the burn-in: %1").arg(r.errorText()));
            return;
        }
        adoptJob(jobId);
    });
}

void BurninSlurmTransport::adoptJob(const QString &jobId)
{
    m_run.jobId = jobId;
    for (const QString &n : std::as_const(m_run.request.nodes))
        m_run.offsets.insert(n, 0);
    announceRunning();
}

void BurninSlurmTransport::findLaunchedJob(const QString &lostError, int attempt)
{
    const QString comment = SlurmCommands::submissionComment(m_run.request.tag);
    if (attempt == 0)
        Q_EMIT stageChanged(QStringLiteral("outcome unknown: %1; looking for the job with comment %2").arg(lostError, comment));
    whenFinished(m_shell->run(SlurmActionReconciler::submissionQuery()), this, [this, lostError, attempt, comment](const CommandResult &r) {
        if (!m_run.running)
            return;
        if (!r.ok()) {
            if (attempt < 2) {
                QTimer::singleShot(2000, this, [this, lostError, attempt] {
                    if (m_run.running)
                        findLaunchedJob(lostError, attempt + 1);
                });
                return;
            }
            m_run.outcomeUnknown = true;
            fail(QStringLiteral("outcome unknown: the burn-in's sbatch was sent but its answer was lost (%1), and the "
                                "cluster could not be read back (%2); look for a job with comment %3 before launching again")
                     .arg(lostError, r.errorText(), comment));
            return;
        }
        const QStringList jobs = SlurmActionReconciler::jobsWithComment(r.stdoutData, comment);
        if (jobs.isEmpty()) {
            fail(QStringLiteral("not launched: sbatch's answer was lost (%1) and no job carries the comment %2").arg(lostError, comment));
            return;
        }
        Q_EMIT stageChanged(QStringLiteral("found burn-in job %1 by its comment %2 after the answer was lost").arg(jobs.first(), comment));
        adoptJob(jobs.first());
    });
}

QString BurninSlurmTransport::stateScript() const
{
    return QStringLiteral("echo \"@@strata-state $(squeue -h -t all -j %1 -o '%T %r' 2>/dev/null)\"\n")
        .arg(ShellQuote::quote(m_run.jobId));
}

void BurninSlurmTransport::cancel()
{
    if (!m_run.running)
        return;
    halt();
    if (m_run.jobId.isEmpty())
        return;
    const QString jobId = m_run.jobId;
    whenFinished(m_shell->run({QStringLiteral("scancel"), jobId}), this, [this, jobId](const CommandResult &r) {
        if (!r.ok())
            Q_EMIT failed(QStringLiteral("cancelling burn-in %1 failed: %2").arg(jobId, r.errorText()));
        else
            Q_EMIT finished(QStringLiteral("CANCELLED"));
    });
}

} // namespace strata
