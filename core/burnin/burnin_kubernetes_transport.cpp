#include "burnin_kubernetes_transport.h"

#include "burnin_job_script.h"
#include "kubernetes/kubectl_commands.h"
#include "kubernetes/kubernetes_source.h"
#include "model/when_finished.h"

#include <QRandomGenerator>
#include <QRegularExpression>

namespace strata {

BurninKubernetesTransport::BurninKubernetesTransport(std::shared_ptr<KubernetesSource> kubernetes, QObject *parent)
    : BurninTransport(parent), m_kubernetes(std::move(kubernetes))
{
}

BurninKubernetesTransport::~BurninKubernetesTransport() = default;

QStringList BurninKubernetesTransport::jobIds() const
{
    return m_run.handleByNode.values();
}

QString BurninKubernetesTransport::jobName(const QString &node, quint32 runSuffix)
{
    return QStringLiteral("strata-burnin-%1-%2").arg(node).arg(runSuffix & 0xfffffu, 5, 16, QLatin1Char('0'));
}

bool BurninKubernetesTransport::jobsByNode(const QString &jobId, const QStringList &nodes,
                                           QMap<QString, QString> *byNode, QString *error)
{
    static const QRegularExpression ours(QStringLiteral("^strata-burnin-(.+)-[0-9a-f]{5}$"));
    byNode->clear();
    const QStringList ids = jobId.split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (ids.isEmpty()) {
        *error = QStringLiteral("no burn-in Job named (expected namespace/strata-burnin-NODE-xxxxx, comma-separated)");
        return false;
    }
    for (const QString &id : ids) {
        QString ns, name;
        if (!KubectlCommands::splitId(id.trimmed(), &ns, &name, error))
            return false;
        const QRegularExpressionMatch m = ours.match(name);
        if (!m.hasMatch()) {
            *error = QStringLiteral("\"%1\" is not a burn-in Job (strata-burnin-NODE-xxxxx)").arg(id);
            return false;
        }
        const QString node = m.captured(1);
        if (!nodes.contains(node)) {
            *error = QStringLiteral("burn-in Job %1 runs on %2, which is not one of the nodes given").arg(id, node);
            return false;
        }
        if (byNode->contains(node)) {
            *error = QStringLiteral("two burn-in Jobs named for %1: %2 and %3").arg(node, byNode->value(node), id);
            return false;
        }
        byNode->insert(node, id.trimmed());
    }
    for (const QString &node : nodes) {
        if (!byNode->contains(node)) {
            *error = QStringLiteral("no burn-in Job named for %1").arg(node);
            return false;
        }
    }
    return true;
}

void BurninKubernetesTransport::attach(const QString &jobId, const BurninRequest &request)
{
    m_run = BurninRunState{};
    m_run.request = request;
    QString error;
    if (!jobsByNode(jobId, request.nodes, &m_run.handleByNode, &error)) {
        fail(error);
        return;
    }
    m_run.running = true;
    for (const QString &node : request.nodes)
        m_run.offsets.insert(node, 0); // the pods' logs are read from their first line
    m_run.jobId = QStringList(m_run.handleByNode.values()).join(QLatin1Char(','));
    // When the run began is not known here: follow it for a whole run's length from now.
    const int tests = int(qMax<qsizetype>(1, request.tests.size()));
    m_run.deadline = QDateTime::currentDateTimeUtc().addSecs(qint64(request.durationSeconds) * tests + 300);
    // An ended run writes nothing more: ask at once, so the first poll can finish it. Not
    // submitted() again: the run was announced (and recorded for re-attaching) when it began.
    checkJobsEnded();
    Q_EMIT stageChanged(QStringLiteral("running"));
    schedulePoll(0);
}

void BurninKubernetesTransport::launch()
{
    Q_EMIT stageChanged(QStringLiteral("submitting"));
    BurninRequest &request = m_run.request;
    if (request.image.isEmpty()) {
        fail(QStringLiteral("a Kubernetes burn-in needs an image with strata-burn (--image or the profile's burn-in image)"));
        return;
    }
    // The image carries the agent: nothing to deploy.
    if (request.agentRemotePath.isEmpty())
        request.agentRemotePath = QStringLiteral("strata-burn");
    auto remaining = std::make_shared<int>(int(request.nodes.size()));
    for (const QString &node : std::as_const(request.nodes)) {
        JobSubmission job;
        // Unique per run: a Job of an earlier burn-in on this node may still exist.
        job.name = jobName(node, QRandomGenerator::global()->bounded(0x100000u));
        job.partition = request.namespaceName;
        job.nodes = 1;
        job.nodeList = {node};
        job.gpusPerNode = request.gpusByNode.value(node);
        job.image = request.image;
        // A node under test is often cordoned (by --drain-on-fail of an earlier run, or by the
        // operator keeping work off it meanwhile): the agent's pod must land there regardless.
        job.tolerateCordon = true;
        job.command = BurninJobScript::agentArguments(request, job.gpusPerNode);
        const QString inject = request.injectByNode.value(node);
        if (!inject.isEmpty())
            job.command << QStringLiteral("--inject") << inject;
        whenFinished(m_kubernetes->submit(job), this, [this, node, remaining](const ActionResult &r) {
            onJobCreated(node, remaining, r, false);
        });
    }
}

void BurninKubernetesTransport::onJobCreated(const QString &node, const std::shared_ptr<int> &remaining,
                                             const ActionResult &r, bool readBack)
{
    if (!m_run.running)
        return;
    if (r.outcomeUnknown && !readBack) {
        // Sent, answer lost: read back once by its label, never created again.
        Q_EMIT stageChanged(QStringLiteral("%1: %2; looking for its Job by its label").arg(node, r.message));
        whenFinished(m_kubernetes->reconcile(r), this, [this, node, remaining](const ActionResult &settled) {
            onJobCreated(node, remaining, settled, true);
        });
        return;
    }
    if (!r.ok) {
        m_run.outcomeUnknown = r.outcomeUnknown;
        fail(QStringLiteral("creating the burn-in Job for %1 failed: %2").arg(node, r.message));
        return;
    }
    m_run.handleByNode.insert(node, r.jobId);
    m_run.offsets.insert(node, 0);
    if (--*remaining > 0)
        return;
    m_run.jobId = QStringList(m_run.handleByNode.values()).join(QLatin1Char(','));
    const int tests = int(qMax<qsizetype>(1, m_run.request.tests.size()));
    m_run.deadline = QDateTime::currentDateTimeUtc().addSecs(qint64(m_run.request.durationSeconds) * tests + 300);
    announceRunning();
}

void BurninKubernetesTransport::poll()
{
    if (!m_run.running || m_run.polling)
        return;
    m_run.polling = true;
    auto remaining = std::make_shared<int>(int(m_run.handleByNode.size()));
    for (auto it = m_run.handleByNode.constBegin(); it != m_run.handleByNode.constEnd(); ++it) {
        const QString node = it.key();
        whenFinished(m_kubernetes->logs(it.value(), 100000), this, [this, node, remaining](const KubeLogResult &logs) {
            if (!m_run.running)
                return;
            if (logs.ok) {
                // Lines come as "[pod/NAME/container] {...}" (kubectl --prefix); the count of
                // lines already handed on is this node's offset.
                const QStringList lines = logs.text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
                QByteArray fresh;
                for (qsizetype i = m_run.offsets.value(node); i < lines.size(); ++i) {
                    QString line = lines[i];
                    if (line.startsWith(QLatin1Char('[')) && line.indexOf(QLatin1String("] ")) > 0)
                        line = line.mid(line.indexOf(QLatin1String("] ")) + 2);
                    fresh += line.toUtf8() + '\n';
                }
                m_run.offsets[node] = qMax<qint64>(m_run.offsets.value(node), lines.size());
                consume(node, fresh);
                if (!m_run.running)
                    return;
            }
            if (--*remaining > 0)
                return;
            m_run.polling = false;
            const bool allDone = m_run.nodesDone.size() == m_run.handleByNode.size();
            if (allDone || m_run.jobsEnded || QDateTime::currentDateTimeUtc() > m_run.deadline) {
                end(allDone ? QStringLiteral("COMPLETED") : m_run.jobsEnded ? QStringLiteral("FAILED") : QStringLiteral("TIMEOUT"));
                return;
            }
            // An agent that never started (bad image, no agent in it) writes no summary: every
            // few polls ask the cluster whether the Jobs ended anyway; the next poll then
            // reads their last lines and finishes.
            if (++m_run.pollCount % 3 == 0)
                checkJobsEnded();
            schedulePoll();
        });
    }
}

void BurninKubernetesTransport::checkJobsEnded()
{
    whenFinished(m_kubernetes->refresh(), this, [this](const OrchestratorPart &part) {
        if (!m_run.running || !part.error.isEmpty())
            return;
        const QStringList ours = m_run.handleByNode.values();
        int ended = 0;
        for (const Job &j : part.jobs)
            if (ours.contains(j.id) && (j.stateKind == JobState::Succeeded || j.stateKind == JobState::Failed))
                ++ended;
        m_run.jobsEnded = ended == ours.size();
    });
}

void BurninKubernetesTransport::cancel()
{
    if (!m_run.running)
        return;
    halt();
    if (m_run.handleByNode.isEmpty())
        return;
    for (const QString &job : std::as_const(m_run.handleByNode))
        m_kubernetes->cancel(job);
    Q_EMIT finished(QStringLiteral("CANCELLED"));
}

} // namespace strata
