#include "synthetic_orchestrator.h"

#include <QFuture>

namespace strata {

namespace {

ActionResult result(bool ok, ActionKind action, const QString &target, const QString &message)
{
    ActionResult r;
    r.ok = ok;
    r.action = action;
    r.target = target;
    r.message = message;
    return r;
}

} // namespace

SyntheticOrchestrator::SyntheticOrchestrator(ClusterSnapshot state) : m_state(std::move(state))
{
    for (const Job &j : m_state.jobs)
        m_nextJobId = qMax(m_nextJobId, j.id.section(QLatin1Char('_'), 0, 0).toInt() + 1);
}

QFuture<OrchestratorPart> SyntheticOrchestrator::refresh()
{
    ++m_refreshes;
    if (m_held) {
        auto promise = std::make_shared<QPromise<OrchestratorPart>>();
        promise->start();
        m_waiting.push_back(promise);
        return promise->future();
    }
    return QtFuture::makeReadyFuture(answer());
}

void SyntheticOrchestrator::release()
{
    m_held = false;
    for (const auto &promise : m_waiting) {
        promise->addResult(answer());
        promise->finish();
    }
    m_waiting.clear();
}

OrchestratorPart SyntheticOrchestrator::answer() const
{
    OrchestratorPart part;
    if (!m_unknownHostKey.isEmpty()) {
        part.error = QStringLiteral("host key for synthetic is unknown (%1)").arg(m_unknownHostKey);
        part.transportFailed = true;
        part.errorKind = ErrorKind::HostKeyUnknown;
        part.hostKeyFingerprint = m_unknownHostKey;
        return part;
    }
    if (m_transportFailureKind != ErrorKind::None) {
        part.error = m_transportFailure;
        part.errorKind = m_transportFailureKind;
        part.transportFailed = true;
        return part;
    }
    if (!m_schedulerFailure.isEmpty()) {
        part.error = m_schedulerFailure;
        part.errorKind = ErrorKind::CommandFailed;
        return part;
    }
    part.nodes = m_state.nodes;
    part.partitions = m_state.partitions;
    part.jobs = m_state.jobs;
    part.via = QStringLiteral("the synthetic cluster (a test stand-in)");
    return part;
}

QFuture<ActionResult> SyntheticOrchestrator::submit(const JobSubmission &submission)
{
    if (!submission.script.startsWith(QLatin1String("#!")))
        return QtFuture::makeReadyFuture(
            result(false, ActionKind::Submit, submission.partition,
                   QStringLiteral("sbatch: error: This does not look like a batch script.")));
    Job job;
    job.id = QString::number(m_nextJobId++);
    job.name = submission.name.isEmpty() ? QStringLiteral("sbatch") : submission.name;
    job.user = QStringLiteral("root");
    job.setState(QStringLiteral("PENDING"));
    job.reason = QStringLiteral("None");
    job.partition = submission.partition.isEmpty() ? QStringLiteral("batch") : submission.partition;
    job.gpusRequested = submission.gpusPerNode * submission.nodes;
    job.timeLimitSeconds = submission.timeLimitMinutes * 60;
    job.command = submission.script.section(QLatin1Char('\n'), 0, 0);
    m_state.jobs << job;
    m_state.finalize();
    ActionResult r = result(true, ActionKind::Submit, job.partition,
                            QStringLiteral("Submitted batch job %1").arg(job.id));
    r.jobId = job.id;
    return QtFuture::makeReadyFuture(r);
}

QFuture<ActionResult> SyntheticOrchestrator::cancel(const QString &jobId)
{
    const qsizetype before = m_state.jobs.size();
    m_state.jobs.removeIf([&](const Job &j) { return j.id == jobId; });
    if (m_state.jobs.size() == before)
        return QtFuture::makeReadyFuture(result(false, ActionKind::Cancel, jobId,
                                                QStringLiteral("scancel: error: Invalid job id %1").arg(jobId)));
    for (Node &n : m_state.nodes) {
        for (Gpu &g : n.gpus)
            if (g.jobId == jobId)
                g.jobId.clear();
        n.gpusAllocated = int(std::count_if(n.gpus.cbegin(), n.gpus.cend(),
                                            [](const Gpu &g) { return !g.jobId.isEmpty(); }));
    }
    m_state.finalize();
    return QtFuture::makeReadyFuture(result(true, ActionKind::Cancel, jobId, QStringLiteral("cancelled")));
}

QFuture<ActionResult> SyntheticOrchestrator::drain(const QStringList &nodes, const QString &reason)
{
    for (Node &n : m_state.nodes) {
        if (!nodes.contains(n.name))
            continue;
        n.state = n.state.section(QLatin1Char('+'), 0, 0) + QStringLiteral("+drain");
        n.stateFlags << QStringLiteral("DRAIN");
        n.reason = reason;
        n.reasonUser = QStringLiteral("root");
    }
    return QtFuture::makeReadyFuture(result(true, ActionKind::Drain, nodes.join(QLatin1Char(',')),
                                            QStringLiteral("drained: %1").arg(reason)));
}

QFuture<ActionResult> SyntheticOrchestrator::resume(const QStringList &nodes)
{
    for (Node &n : m_state.nodes) {
        if (!nodes.contains(n.name))
            continue;
        n.state = n.state.section(QLatin1Char('+'), 0, 0);
        n.stateFlags.removeAll(QStringLiteral("DRAIN"));
        n.reason.clear();
        n.reasonUser.clear();
    }
    return QtFuture::makeReadyFuture(result(true, ActionKind::Resume, nodes.join(QLatin1Char(',')),
                                            QStringLiteral("resumed")));
}

QFuture<ActionResult> SyntheticOrchestrator::reconcile(const ActionResult &unknown)
{
    return QtFuture::makeReadyFuture(unknown);
}

} // namespace strata
