#include "burnin_session.h"

#include "burnin_fleet.h"
#include "burnin_history.h"
#include "burnin_judge.h"
#include "burnin_transport.h"
#include "burnin_transport_factory.h"
#include "model/gpu_catalog.h"
#include "model/pool_task.h"
#include "model/when_finished.h"
#include "session/cluster_session.h"

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcBurnin, "strata.burnin")

namespace strata {

BurninSession::BurninSession(ClusterSession *cluster, const QString &historyPath, QObject *parent)
    : QObject(parent), m_cluster(cluster), m_historyPath(historyPath)
{
    m_worker.setMaxThreadCount(1); // one run's judgement and history write at a time
}

BurninSession::~BurninSession() = default;

const QVector<BurninNodeRun> BurninSession::runs() const
{
    return QVector<BurninNodeRun>(m_run.nodes.begin(), m_run.nodes.end());
}

QString BurninSession::jobId() const
{
    return m_transport ? m_transport->jobId() : QString();
}

void BurninSession::begin(const BurninRequest &request)
{
    ++m_runGeneration;
    m_run = Run{};
    m_run.request = request;
    m_run.startedAt = QDateTime::currentDateTimeUtc();
    for (const QString &n : request.nodes)
        m_run.nodes[n].node = n;
    // A fresh transport per run: nothing of the previous run's state, connections or pending
    // futures reaches this one (the old object's continuations die with it). Deleted later: a
    // receiver of its finished() may be starting this very run.
    if (m_transport) {
        m_transport->disconnect(this);
        m_transport.release()->deleteLater();
    }
    m_transport = BurninTransportFactory::create(request.transport, m_cluster);
    BurninTransport *t = m_transport.get();
    if (m_pollIntervalMs > 0)
        t->setPollIntervalMs(m_pollIntervalMs);
    connect(t, &BurninTransport::stageChanged, this, &BurninSession::stageChanged);
    connect(t, &BurninTransport::submitted, this, &BurninSession::submitted);
    connect(t, &BurninTransport::lineReceived, this, &BurninSession::onLine);
    connect(t, &BurninTransport::finished, this, &BurninSession::onFinished);
    connect(t, &BurninTransport::failed, this, &BurninSession::failed);
}

void BurninSession::start(const BurninRequest &request)
{
    begin(request);
    m_transport->start(request);
}

void BurninSession::attach(const QString &jobId, const BurninRequest &request)
{
    begin(request);
    m_transport->attach(jobId, request);
}

void BurninSession::cancel()
{
    if (m_transport)
        m_transport->cancel();
}

void BurninSession::setPollIntervalMs(int ms)
{
    m_pollIntervalMs = ms;
    if (m_transport)
        m_transport->setPollIntervalMs(ms);
}

void BurninSession::onLine(const QString &node, const QByteArray &line)
{
    if (line.trimmed().isEmpty())
        return;
    BurninProtocolParser &parser = m_run.parsers[node];
    QByteArray withNewline = line;
    withNewline.append('\n');
    for (const BurninEvent &event : parser.feed(withNewline)) {
        BurninNodeRun &run = m_run.nodes[node];
        run.node = node;
        run.add(event);
        Q_EMIT eventReceived(node, event);
    }
}

void BurninSession::onFinished(const QString &jobState)
{
    for (auto it = m_run.nodes.begin(); it != m_run.nodes.end(); ++it) {
        if (!it->start && it->launchError.isEmpty())
            it->launchError = QStringLiteral("the agent wrote nothing on %1 (job ended %2)").arg(it.key(), jobState);
    }
    BurninExpectation expectation;
    for (const QString &n : std::as_const(m_run.request.nodes))
        expectation.gpusByNode.insert(n, m_run.request.gpusByNode.value(n));

    // Judging every GPU's events and writing the history (SQLite, a sync to disk) take seconds
    // at fleet size: the session's worker does both, on copies, and this thread carries on.
    // The history's SQLite connection is opened, used and removed on that one worker thread.
    const quint64 generation = m_runGeneration;
    const QVector<BurninNodeRun> nodes = runs();
    const QString historyPath = m_historyPath, jobId = m_transport->jobId();
    const QDateTime startedAt = m_run.startedAt;
    QFuture<BurninVerdict> judged = runOnPool(&m_worker, [nodes, expectation, historyPath, jobId, startedAt] {
        BurninVerdict verdict = BurninJudge::judge(nodes, GpuCatalog::builtIn(), expectation);
        if (historyPath.isEmpty())
            return verdict;
        QDir().mkpath(QFileInfo(historyPath).absolutePath());
        BurninHistory history;
        QString error = history.open(historyPath);
        if (error.isEmpty()) {
            // Against every earlier result of the same GPU model: before this run is recorded.
            const QString fleetError = BurninFleet::compare(verdict, history, jobId);
            if (!fleetError.isEmpty())
                verdict.notes << QStringLiteral("not compared with the fleet: %1").arg(fleetError);
            BurninHistoryRun run;
            run.jobId = jobId;
            run.runId = QStringLiteral("%1-%2").arg(jobId, startedAt.toString(QStringLiteral("yyyyMMddTHHmmss")));
            run.time = startedAt;
            run.nodes = nodes;
            run.verdict = verdict;
            error = history.record(run);
        }
        if (!error.isEmpty()) {
            qCWarning(lcBurnin) << "history:" << error;
            verdict.notes << QStringLiteral("not stored in the history: %1").arg(error);
        }
        return verdict;
    });
    whenFinished(judged, this, [this, generation](const BurninVerdict &verdict) {
        if (generation != m_runGeneration)
            return; // another run began meanwhile: this verdict is of one nobody follows now
        m_run.verdict = verdict;
        if (m_run.request.drainOnFail && !m_run.verdict.failedNodes().isEmpty())
            drainFailedNodes();
        else
            finish();
    });
}

void BurninSession::drainFailedNodes()
{
    const SnapshotPtr snapshot = m_cluster->latest();
    const QStringList burninJobs = m_transport->jobIds();
    QStringList toDrain;
    for (const QString &node : m_run.verdict.failedNodes()) {
        QStringList others;
        if (snapshot) {
            for (const Job &j : snapshot->jobs)
                if (j.isRunning() && !burninJobs.contains(j.id) && j.nodes.contains(node))
                    others << QStringLiteral("%1 (%2)").arg(j.id, j.user);
        }
        if (!others.isEmpty() && !m_run.request.confirmDrainBusyNodes) {
            m_run.notDrained << QStringLiteral("%1: not drained, it runs job %2; confirm to drain anyway")
                                .arg(node, others.join(QLatin1String(", ")));
            continue;
        }
        toDrain << node;
    }
    m_run.pendingDrains = int(toDrain.size());
    if (m_run.pendingDrains == 0) {
        finish();
        return;
    }
    for (const QString &node : std::as_const(toDrain)) {
        // Slurm keeps a reason short in listings; the full text stays in the history.
        const QString reason = m_run.verdict.drainReason(node).left(250);
        whenFinished(m_cluster->drain({node}, reason), this, [this, node](const ActionResult &r) {
            if (r.ok)
                m_run.drained << node;
            else
                m_run.notDrained << QStringLiteral("%1: drain failed: %2").arg(node, r.message);
            if (--m_run.pendingDrains == 0)
                finish();
        });
    }
}

void BurninSession::finish()
{
    Q_EMIT completed(m_run.verdict, m_run.drained, m_run.notDrained);
}

bool BurninSession::outcomeUnknown() const
{
    return m_transport && m_transport->outcomeUnknown();
}

} // namespace strata
