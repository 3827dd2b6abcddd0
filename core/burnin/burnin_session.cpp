#include "burnin_session.h"

#include "burnin_history.h"
#include "burnin_judge.h"
#include "burnin_launcher.h"
#include "kubernetes/kubernetes_source.h"
#include "model/gpu_catalog.h"
#include "session/cluster_session.h"
#include "model/when_finished.h"

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcBurnin, "strata.burnin")

namespace strata {

BurninSession::BurninSession(ClusterSession *cluster, const QString &historyPath, QObject *parent)
    : QObject(parent), m_cluster(cluster), m_historyPath(historyPath),
      m_launcher(new BurninLauncher(cluster->shell(), this))
{
    m_launcher->setKubernetes(dynamic_cast<KubernetesSource *>(cluster->orchestrator()));
    connect(m_launcher, &BurninLauncher::stageChanged, this, &BurninSession::stageChanged);
    connect(m_launcher, &BurninLauncher::submitted, this, &BurninSession::submitted);
    connect(m_launcher, &BurninLauncher::lineReceived, this, &BurninSession::onLine);
    connect(m_launcher, &BurninLauncher::finished, this, &BurninSession::onFinished);
    connect(m_launcher, &BurninLauncher::failed, this, &BurninSession::failed);
}

BurninSession::~BurninSession() = default;

const QVector<BurninNodeRun> BurninSession::runs() const
{
    return QVector<BurninNodeRun>(m_runs.begin(), m_runs.end());
}

QString BurninSession::jobId() const
{
    return m_launcher->jobId();
}

void BurninSession::start(const BurninRequest &request)
{
    m_request = request;
    m_startedAt = QDateTime::currentDateTimeUtc();
    m_parsers.clear();
    m_runs.clear();
    for (const QString &n : request.nodes)
        m_runs[n].node = n;
    m_launcher->start(request);
}

void BurninSession::attach(const QString &jobId, const BurninRequest &request)
{
    m_request = request;
    m_startedAt = QDateTime::currentDateTimeUtc();
    for (const QString &n : request.nodes)
        m_runs[n].node = n;
    m_launcher->attach(jobId, request);
}

void BurninSession::cancel()
{
    m_launcher->cancel();
}

void BurninSession::onLine(const QString &node, const QByteArray &line)
{
    if (line.trimmed().isEmpty())
        return;
    BurninProtocolParser &parser = m_parsers[node];
    QByteArray withNewline = line;
    withNewline.append('\n');
    for (const BurninEvent &event : parser.feed(withNewline)) {
        BurninNodeRun &run = m_runs[node];
        run.node = node;
        run.add(event);
        Q_EMIT eventReceived(node, event);
    }
}

void BurninSession::onFinished(const QString &jobState)
{
    for (auto it = m_runs.begin(); it != m_runs.end(); ++it) {
        if (!it->start && it->launchError.isEmpty())
            it->launchError = QStringLiteral("the agent wrote nothing on %1 (job ended %2)").arg(it.key(), jobState);
    }
    BurninExpectation expectation;
    for (const QString &n : std::as_const(m_request.nodes))
        expectation.gpusByNode.insert(n, m_request.gpusByNode.value(n));
    m_verdict = BurninJudge::judge(runs(), GpuCatalog::builtIn(), expectation);

    if (!m_historyPath.isEmpty()) {
        QDir().mkpath(QFileInfo(m_historyPath).absolutePath());
        BurninHistory history;
        QString error = history.open(m_historyPath);
        if (error.isEmpty()) {
            BurninHistoryRun run;
            run.jobId = m_launcher->jobId();
            run.runId = QStringLiteral("%1-%2").arg(run.jobId, m_startedAt.toString(QStringLiteral("yyyyMMddTHHmmss")));
            run.time = m_startedAt;
            run.nodes = runs();
            run.verdict = m_verdict;
            error = history.record(run);
        }
        if (!error.isEmpty()) {
            qCWarning(lcBurnin) << "history:" << error;
            m_verdict.notes << QStringLiteral("not stored in the history: %1").arg(error);
        }
    }
    if (m_request.drainOnFail && !m_verdict.failedNodes().isEmpty())
        drainFailedNodes();
    else
        finish();
}

QString BurninSession::drainReason(const BurninVerdict &verdict, const QString &node)
{
    for (const BurninGpuVerdict &g : verdict.gpus) {
        if (g.node == node && !g.passed && !g.reasons.isEmpty())
            return QStringLiteral("strata burn-in: ") + g.reasons.first();
    }
    for (const QString &p : verdict.problems)
        if (p.contains(node))
            return QStringLiteral("strata burn-in: ") + p;
    return QStringLiteral("strata burn-in failed");
}

void BurninSession::drainFailedNodes()
{
    const SnapshotPtr snapshot = m_cluster->latest();
    const QStringList burninJobs = m_launcher->jobIds();
    QStringList toDrain;
    for (const QString &node : m_verdict.failedNodes()) {
        QStringList others;
        if (snapshot) {
            for (const Job &j : snapshot->jobs)
                if (j.isRunning() && !burninJobs.contains(j.id) && j.nodes.contains(node))
                    others << QStringLiteral("%1 (%2)").arg(j.id, j.user);
        }
        if (!others.isEmpty() && !m_request.confirmDrainBusyNodes) {
            m_notDrained << QStringLiteral("%1: not drained, it runs job %2; confirm to drain anyway")
                                .arg(node, others.join(QLatin1String(", ")));
            continue;
        }
        toDrain << node;
    }
    m_pendingDrains = int(toDrain.size());
    if (m_pendingDrains == 0) {
        finish();
        return;
    }
    for (const QString &node : std::as_const(toDrain)) {
        // Slurm keeps a reason short in listings; the full text stays in the history.
        const QString reason = drainReason(m_verdict, node).left(250);
        whenFinished(m_cluster->drain({node}, reason), this, [this, node](const ActionResult &r) {
            if (r.ok)
                m_drained << node;
            else
                m_notDrained << QStringLiteral("%1: drain failed: %2").arg(node, r.message);
            if (--m_pendingDrains == 0)
                finish();
        });
    }
}

void BurninSession::finish()
{
    Q_EMIT completed(m_verdict, m_drained, m_notDrained);
}

bool BurninSession::outcomeUnknown() const
{
    return m_launcher->outcomeUnknown();
}

} // namespace strata
