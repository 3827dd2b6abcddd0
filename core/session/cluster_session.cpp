#include "cluster_session.h"

#include "history_merge.h"

#include "kubernetes_profile_options.h"

#include "model/gpu_catalog.h"
#include "model/when_finished.h"
#include "model/workload_detector.h"
#include "kubernetes/kubernetes_source.h"
#include "model/orchestrator_source.h"
#include "prometheus/alertmanager_client.h"
#include "prometheus/history_efficiency_answer.h"
#include "prometheus/kube_workload_history_reader.h"
#include "prometheus/metrics_join.h"
#include "prometheus/metrics_part.h"
#include "prometheus/metrics_source.h"
#include "slurm/slurm_source.h"
#include "queued_login_prompter.h"
#include "ssh/ssh_remote_shell.h"
#include "model/heap_memory.h"
#include "model/pool_task.h"

#include <QLoggingCategory>
#include <QPromise>

#include <functional>

Q_LOGGING_CATEGORY(lcSession, "strata.session")

namespace strata {

namespace {

// A silence's create or expire call as the action `base`: ok with done(the silence's id) as its
// message, or the call's error and kind. Finishes on `context`'s thread.
QFuture<ActionResult> silenceAction(QObject *context, const QFuture<AlertmanagerParser::SilenceIdResult> &call,
                                    const ActionResult &base, const std::function<QString(const QString &id)> &done)
{
    auto promise = std::make_shared<QPromise<ActionResult>>();
    promise->start();
    whenFinished(call, context, [promise, base, done](const AlertmanagerParser::SilenceIdResult &r) {
        ActionResult result = base;
        result.ok = r.error.isEmpty();
        result.errorKind = r.errorKind;
        result.message = result.ok ? done(r.id) : r.error;
        promise->addResult(result);
        promise->finish();
    });
    return promise->future();
}

} // namespace

std::unique_ptr<OrchestratorSource> ClusterSession::makeOrchestrator(const ClusterProfile &profile,
                                                     const std::shared_ptr<RemoteShell> &shell)
{
    if (profile.orchestrator == OrchestratorKind::Kubernetes)
        return std::make_unique<KubernetesSource>(shell, GpuCatalog::builtIn(), kubernetesProfileOptions(profile));
    return std::make_unique<SlurmSource>(shell, GpuCatalog::builtIn());
}

namespace {

std::shared_ptr<RemoteShell> sshShell(const ClusterProfile &profile, std::shared_ptr<LoginPrompter> prompter)
{
    SshOptions options = SshOptions::fromProfile(profile);
    options.loginPrompter = std::move(prompter);
    return std::make_shared<SshRemoteShell>(options);
}

} // namespace

ClusterSession::ClusterSession(const ClusterProfile &profile, QObject *parent)
    : ClusterSession(profile, std::make_shared<QueuedLoginPrompter>(), parent)
{
}

ClusterSession::ClusterSession(const ClusterProfile &profile, std::shared_ptr<LoginPrompter> prompter, QObject *parent)
    : ClusterSession(profile, sshShell(profile, prompter), nullptr, parent)
{
    if (auto questions = std::dynamic_pointer_cast<QueuedLoginPrompter>(prompter))
        emitLoginQuestionsOf(questions); // the one the shell asks, instead of the constructor's own
}

void ClusterSession::emitLoginQuestionsOf(const std::shared_ptr<QueuedLoginPrompter> &questions)
{
    if (m_loginQuestions)
        m_loginQuestions->close();
    m_loginQuestions = questions;
    // Posted from the SSH thread to this one; dropped if this session is gone by then.
    m_loginQuestions->setNotify([this](int id, const LoginChallenge &challenge) {
        QMetaObject::invokeMethod(this, [this, id, challenge] { Q_EMIT loginQuestion(id, challenge); }, Qt::QueuedConnection);
    });
}

ClusterSession::ClusterSession(const ClusterProfile &profile, std::shared_ptr<RemoteShell> shell,
                               std::unique_ptr<OrchestratorSource> orchestrator, QObject *parent)
    : QObject(parent), m_profile(profile), m_shell(std::move(shell)),
      m_orchestrator(orchestrator ? std::move(orchestrator) : makeOrchestrator(profile, m_shell))
{
    // A shell given here asks no one unless it was made with loginQuestions() (tests do).
    emitLoginQuestionsOf(std::make_shared<QueuedLoginPrompter>());
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ClusterSession::onTimer);
    m_changeCheck.setInterval(kChangeCheckMs);
    connect(&m_changeCheck, &QTimer::timeout, this, &ClusterSession::onChangeCheck);
    m_probeTimer.setSingleShot(true);
    connect(&m_probeTimer, &QTimer::timeout, this, &ClusterSession::onProbeTimer);
    status(SourceKind::Ssh).configured = true;
    status(sourceKind(m_orchestrator->kind())).configured = true;
    if (m_profile.hasPrometheus()) {
        // A stalled Prometheus must not hold a refresh longer than a stalled login node would.
        MetricsSource::Options options;
        options.timeoutMs = qMin(options.timeoutMs, qMax(1, m_profile.commandTimeoutSeconds) * 1000);
        m_metrics = std::make_unique<MetricsSource>(m_profile, options);
        status(SourceKind::Prometheus).configured = true;
    }
}

ClusterSession::~ClusterSession()
{
    m_loginQuestions->close(); // an SSH thread waiting for an answer goes on (declined)
}

std::shared_ptr<LoginPrompter> ClusterSession::loginQuestions() const
{
    return m_loginQuestions;
}

void ClusterSession::setAnswersLoginQuestions(bool answers)
{
    m_loginQuestions->setAnswering(answers);
}

void ClusterSession::answerLoginQuestion(int id, const QStringList &answers)
{
    m_loginQuestions->respond(id, LoginAnswers::given(answers));
}

void ClusterSession::declineLoginQuestion(int id)
{
    m_loginQuestions->respond(id, LoginAnswers::refused(tr("the person declined")));
}

std::unique_ptr<OutputFollower> ClusterSession::followOutput(const Job &job) const
{
    return m_orchestrator->followOutput(job);
}

MetricHistory *ClusterSession::metricHistory() const
{
    return m_metrics ? m_metrics->history() : nullptr;
}

KubeInspector *ClusterSession::kubeInspector() const
{
    auto *kubernetes = dynamic_cast<KubernetesSource *>(m_orchestrator.get());
    return kubernetes ? &kubernetes->inspector() : nullptr;
}

SourceStatus &ClusterSession::status(SourceKind source)
{
    for (SourceStatus &s : m_statuses)
        if (s.source == source)
            return s;
    m_statuses.append(SourceStatus{});
    m_statuses.last().source = source;
    return m_statuses.last();
}

void ClusterSession::start()
{
    m_polling = true;
    m_orchestrator->setPolling(qMax(1, m_profile.refreshIntervalSeconds));
    m_timer.start(0);
    m_changeCheck.start();
}

void ClusterSession::stop()
{
    m_polling = false;
    m_timer.stop();
    m_changeCheck.stop();
    m_probeTimer.stop();
    m_orchestrator->setPolling(0);
}

void ClusterSession::refreshNow()
{
    // Never two at once; one asked for during a refresh runs right after it, since the running
    // one may have read the cluster before what prompted the ask (an action, a trusted key).
    if (m_refreshing)
        m_refreshQueued = true;
    else
        m_timer.start(0);
}

void ClusterSession::setRefreshInterval(int seconds)
{
    m_profile.refreshIntervalSeconds = qMax(1, seconds);
    if (m_polling)
        m_orchestrator->setPolling(m_profile.refreshIntervalSeconds);
}

void ClusterSession::acceptHostKey(const QString &fingerprint)
{
    m_shell->trustFingerprint(fingerprint);
    m_announcedFingerprint.clear();
    refreshNow();
}

void ClusterSession::setPassphrase(const QString &passphrase)
{
    m_shell->setPassphrase(passphrase);
    refreshNow();
}

// A watched change shows within kChangeRefreshGapMs instead of at the next interval (10 s by
// default); a source that changes all the time is refreshed at most that often. Not while the
// orchestrator fails (its back-off stands).
void ClusterSession::onChangeCheck()
{
    if (!m_polling || m_refreshing || m_failures > 0 || !m_orchestrator->hasChangesWaiting())
        return;
    if (m_sinceRefreshStart.isValid() && m_sinceRefreshStart.elapsed() < kChangeRefreshGapMs)
        return;
    m_timer.start(0);
}

// While the scheduler alone fails: ask it cheaply whether it answers again, and refresh at
// once when it does; the backoff's refresh still comes should the probe never say so.
void ClusterSession::onProbeTimer()
{
    if (!m_polling || m_refreshing || m_probing || m_failures == 0)
        return;
    m_probing = true;
    whenFinished(m_orchestrator->probe(), this, [this](const OrchestratorProbe &probe) {
        m_probing = false;
        if (!m_polling || m_refreshing || m_failures == 0)
            return;
        switch (probe.answer) {
        case OrchestratorProbe::Answer::Answers:
            qCInfo(lcSession) << m_profile.name << "the scheduler answers again (" << probe.detail << "): refreshing now";
            m_probeTimer.stop();
            m_timer.start(0);
            break;
        case OrchestratorProbe::Answer::Silent:
            m_probeTimer.start(qMax(1, m_profile.refreshIntervalSeconds) * 1000);
            break;
        case OrchestratorProbe::Answer::CannotTell:
            qCDebug(lcSession) << m_profile.name << "no probe of the scheduler:" << probe.detail;
            break; // the backoff stands
        }
    }, [this](const QString &why) {
        m_probing = false;
        taskFailure(QStringLiteral("scheduler probe"), why);
    });
}

void ClusterSession::onTimer()
{
    if (m_refreshing)
        return; // no overlapping refreshes
    m_probeTimer.stop();
    m_refreshing = true;
    m_sinceRefreshStart.start();
    Q_EMIT refreshStarted();
    // The snapshot before last has been dropped by now (the views hold the last): its pages go
    // back to the system instead of staying in the allocator's arenas (docs/PERF.md, Scale).
    (void)runOnPool(nullptr, [] { HeapMemory::releaseFree(); });
    const QDateTime now = QDateTime::currentDateTimeUtc();
    status(SourceKind::Ssh).lastAttempt = now;
    status(sourceKind(m_orchestrator->kind())).lastAttempt = now;
    // Both sources at once; the snapshot is published when both have answered.
    m_partsPending = m_metrics ? 2 : 1;
    if (m_metrics) {
        status(SourceKind::Prometheus).lastAttempt = now;
        const auto request = m_latest ? MetricsSource::Request::forJobs(m_latest->jobs) : MetricsSource::Request{};
        m_metricsKnewNoJobs = !m_latest;
        whenFinished(m_metrics->refresh(request), this, [this](const MetricsPart &part) { finishMetrics(part); },
                     [this](const QString &why) {
                         MetricsPart failed;
                         failed.error = taskFailure(QStringLiteral("metrics"), why);
                         failed.errorKind = ErrorKind::ParseFailed;
                         finishMetrics(failed);
                     });
    }
    const OrchestratorSource::StagedRefresh refresh = m_orchestrator->refreshStaged();
    whenFinished(refresh.early, this, [this](const OrchestratorPart &part) { finishEarly(part); });
    // A task that threw (std::bad_alloc on a hostile answer, say) ends this refresh with an
    // error like any other failure, and the next one tries again: never a session that waits.
    whenFinished(refresh.full, this, [this](const OrchestratorPart &part) { finishRefresh(part); },
                 [this](const QString &why) {
                     OrchestratorPart failed;
                     failed.error = taskFailure(orchestratorKindName(m_orchestrator->kind()), why);
                     failed.errorKind = ErrorKind::ParseFailed;
                     finishRefresh(failed);
                 });
}

QString ClusterSession::taskFailure(const QString &what, const QString &why) const
{
    qCCritical(lcSession) << m_profile.name << what << "task failed:" << why;
    return QStringLiteral("reading %1 of %2 failed inside Strata (%3), most likely on an answer too large "
                          "or too strange to hold; the next refresh tries again")
        .arg(what, m_profile.name, why);
}

void ClusterSession::finishEarly(const OrchestratorPart &part)
{
    // Only while nothing whole has been shown: a later refresh's nodes beside the previous
    // refresh's jobs would not fit together (GPU holders, totals).
    if (m_haveGoodPart || !part.error.isEmpty())
        return;
    std::shared_ptr<const MetricsPart> metrics = m_lastGoodMetrics;
    const ClusterProfile profile = m_profile;
    const OrchestratorKind kind = m_orchestrator->kind();
    QVector<SourceStatus> statuses = m_statuses;
    for (SourceStatus &s : statuses) {
        if (s.source == SourceKind::Ssh || s.source == sourceKind(kind)) {
            s.ok = true;
            s.stale = false;
            s.lastSuccess = QDateTime::currentDateTimeUtc();
        }
    }
    m_partialMerging = true;
    const QFuture<SnapshotPtr> merged = runOnPool(nullptr, [part, metrics, profile, kind, statuses]() -> SnapshotPtr {
        auto snapshot = std::make_shared<ClusterSnapshot>();
        snapshot->clusterName = profile.name;
        snapshot->orchestrator = kind;
        snapshot->takenAt = QDateTime::currentDateTimeUtc();
        snapshot->nodes = part.nodes;
        snapshot->partitions = part.partitions;
        snapshot->finalize();
        if (metrics)
            MetricsJoin::apply(*snapshot, *metrics, profile);
        snapshot->sources = statuses;
        return snapshot;
    });
    const auto partialDone = [this](const SnapshotPtr &snapshot) {
        // The whole snapshot whose merge finished first waited for this one: never after it.
        m_partialMerging = false;
        if (snapshot)
            Q_EMIT partialSnapshotReady(snapshot);
        if (SnapshotPtr whole = std::exchange(m_heldWhole, nullptr))
            finishPublish(whole);
    };
    whenFinished(merged, this, partialDone, [partialDone](const QString &) { partialDone(nullptr); });
}

void ClusterSession::finishMetrics(const MetricsPart &part)
{
    SourceStatus &s = status(SourceKind::Prometheus);
    if (part.ok()) {
        m_lastGoodMetrics = std::make_shared<const MetricsPart>(part);
        s.ok = true;
        s.stale = false;
        s.error = part.warnings.join(QLatin1String("; "));
        s.errorKind = ErrorKind::None;
        s.lastSuccess = QDateTime::currentDateTimeUtc();
        s.lastDurationMs = part.durationMs;
    } else {
        s.ok = false;
        s.stale = m_lastGoodMetrics != nullptr;
        s.error = part.error;
        s.errorKind = part.errorKind;
        qCWarning(lcSession) << m_profile.name << part.error;
    }
    partDone();
}

void ClusterSession::partDone()
{
    if (--m_partsPending > 0)
        return;
    publish(); // finishes the refresh when the snapshot is ready
}

void ClusterSession::finishRefresh(const OrchestratorPart &part)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    SourceStatus &ssh = status(SourceKind::Ssh);
    SourceStatus &orchestrator = status(sourceKind(m_orchestrator->kind()));
    if (part.error.isEmpty()) {
        m_lastGoodPart = part;
        m_haveGoodPart = true;
        m_failures = 0;
        for (SourceStatus *s : {&ssh, &orchestrator}) {
            s->ok = true;
            s->stale = false;
            s->error.clear();
            s->errorKind = ErrorKind::None;
            s->lastSuccess = now;
        }
        orchestrator.lastDurationMs = part.durationMs;
        orchestrator.via = part.via;
        // A job's utilisation since it started needs the usage history from its start, which
        // only the scheduler's answer gives: on the first refresh (the only one of a one-shot
        // `strata snapshot`) that answer comes after the metrics refresh was sent.
        const MetricsSource::Request usage = MetricsSource::Request::forJobs(part.jobs);
        if (m_metrics && m_metricsKnewNoJobs && usage.oldestRunningJobStart > 0) {
            m_metricsKnewNoJobs = false;
            ++m_partsPending;
            whenFinished(m_metrics->refreshUsage(usage), this, [this](const MetricsPart &usagePart) {
                m_usageFollowUp = std::make_shared<const MetricsPart>(usagePart);
                partDone();
            }, [this](const QString &why) {
                taskFailure(QStringLiteral("job usage"), why);
                partDone(); // the snapshot goes out without the usage
            });
        }
        reconcileUnknownActions(); // the cluster answers again: settle what was lost
        orchestrator.error = part.warnings.join(QLatin1String("; "));
        m_announcedFingerprint.clear();
    } else {
        ++m_failures;
        ssh.ok = !part.transportFailed;
        ssh.error = part.transportFailed ? part.error : QString();
        ssh.errorKind = part.transportFailed ? part.errorKind : ErrorKind::None;
        if (ssh.ok) // the login node answered; only the scheduler behind it failed
            ssh.lastSuccess = now;
        orchestrator.ok = false;
        orchestrator.error = part.error;
        orchestrator.errorKind = part.errorKind;
        ssh.stale = part.transportFailed && m_haveGoodPart;
        orchestrator.stale = m_haveGoodPart;
        qCWarning(lcSession) << m_profile.name << "refresh failed:" << part.error;
        if (part.errorKind == ErrorKind::HostKeyUnknown && part.hostKeyFingerprint != m_announcedFingerprint) {
            m_announcedFingerprint = part.hostKeyFingerprint;
            Q_EMIT hostKeyUnknown(m_shell->describe(), part.hostKeyFingerprint);
        }
    }
    partDone();
}

void ClusterSession::publish()
{
    // The merge (copying the parts, the metrics join, the lookup tables) costs tens of ms at
    // 2,000 nodes and 50,000 jobs: it runs on the pool, on copies (implicitly shared, so cheap).
    OrchestratorPart part = m_haveGoodPart ? m_lastGoodPart : OrchestratorPart{};
    std::shared_ptr<const MetricsPart> metrics;
    // Metrics older than this are not shown as if current, even marked stale.
    constexpr qint64 maxStaleMetricsSeconds = 300;
    const SourceStatus *prometheus = m_metrics ? &status(SourceKind::Prometheus) : nullptr;
    if (prometheus && m_lastGoodMetrics && m_haveGoodPart
        && prometheus->lastSuccess.secsTo(QDateTime::currentDateTimeUtc()) <= maxStaleMetricsSeconds)
        metrics = m_lastGoodMetrics;
    if (metrics && m_usageFollowUp && (m_usageFollowUp->usageKnown || m_usageFollowUp->linkCountersKnown)) {
        auto joined = std::make_shared<MetricsPart>(*metrics);
        joined->takeUsage(*m_usageFollowUp);
        metrics = m_lastGoodMetrics = joined;
    }
    if (m_usageFollowUp && m_metrics && !m_usageFollowUp->warnings.isEmpty()) {
        SourceStatus &s = status(SourceKind::Prometheus);
        QStringList messages = m_usageFollowUp->warnings;
        if (!s.error.isEmpty())
            messages.prepend(s.error);
        s.error = messages.join(QLatin1String("; "));
    }
    m_usageFollowUp.reset();
    const ClusterProfile profile = m_profile;
    const OrchestratorKind kind = m_orchestrator->kind();
    const QVector<SourceStatus> statuses = m_statuses;
    const QFuture<SnapshotPtr> merged = runOnPool(nullptr, [part, metrics, profile, kind, statuses]() -> SnapshotPtr {
        auto snapshot = std::make_shared<ClusterSnapshot>();
        snapshot->clusterName = profile.name;
        snapshot->orchestrator = kind;
        snapshot->takenAt = QDateTime::currentDateTimeUtc();
        snapshot->nodes = part.nodes;
        snapshot->partitions = part.partitions;
        snapshot->queues = part.queues;
        snapshot->jobs = part.jobs;
        snapshot->podNodes = part.podNodes;
        snapshot->findings << (part.workloadFindings ? *part.workloadFindings : WorkloadDetector::apply(snapshot->jobs));
        snapshot->finalize();
        if (metrics)
            MetricsJoin::apply(*snapshot, *metrics, profile);
        snapshot->sources = statuses;
        return snapshot;
    });
    const auto wholeDone = [this](const SnapshotPtr &snapshot) {
        if (m_partialMerging) {
            m_heldWhole = snapshot; // published right after the partial one
            return;
        }
        finishPublish(snapshot);
    };
    whenFinished(merged, this, wholeDone, [this, wholeDone](const QString &why) {
        // The merge threw: publish what was shown last (or nothing) with the error on the
        // orchestrator's status, so the refresh ends and whoever waits for it hears why.
        SourceStatus &orchestrator = status(sourceKind(m_orchestrator->kind()));
        orchestrator.ok = false;
        orchestrator.stale = m_latest != nullptr;
        orchestrator.error = taskFailure(QStringLiteral("the snapshot"), why);
        orchestrator.errorKind = ErrorKind::ParseFailed;
        auto snapshot = m_latest ? std::make_shared<ClusterSnapshot>(*m_latest) : std::make_shared<ClusterSnapshot>();
        snapshot->clusterName = m_profile.name;
        snapshot->orchestrator = m_orchestrator->kind();
        snapshot->sources = m_statuses;
        wholeDone(snapshot);
    });
}

void ClusterSession::finishPublish(const SnapshotPtr &snapshot)
{
    {
        m_latest = snapshot;
        Q_EMIT snapshotReady(m_latest);
        m_refreshing = false;
        // Back off while the orchestrator fails: interval x 2^failures, at most 5 minutes.
        const int base = qMax(1, m_profile.refreshIntervalSeconds);
        const int delay = m_failures == 0 ? base : qMin(300, base << qMin(m_failures, 8));
        if (m_refreshQueued) {
            m_refreshQueued = false;
            m_timer.start(0);
        } else if (m_polling) {
            m_timer.start(delay * 1000);
            // The login node answers and only the scheduler fails: a probe each interval
            // brings the next refresh forward once it answers (a transport failure keeps the
            // plain backoff: each probe would be a new login, an MFA code even).
            if (m_failures > 0 && status(SourceKind::Ssh).ok && delay > base)
                m_probeTimer.start(base * 1000);
        }
    }
}

QFuture<ActionResult> ClusterSession::watchAction(const QFuture<ActionResult> &future)
{
    // Callers get a future that finishes after actionFinished, on this thread. Should the
    // session go first, the promise dies unfinished and their future reads as cancelled.
    auto promise = std::make_shared<QPromise<ActionResult>>();
    promise->start();
    whenFinished(future, this, [this, promise](const ActionResult &result) {
        if (result.outcomeUnknown)
            m_unknownActions.append(result); // never resent; read back on the next good refresh
        Q_EMIT actionFinished(result);
        refreshNow();
        promise->addResult(result);
        promise->finish();
    });
    return promise->future();
}

QFuture<ActionResult> ClusterSession::submit(const JobSubmission &submission)
{
    return watchAction(m_orchestrator->submit(submission));
}

QFuture<ActionResult> ClusterSession::cancel(const QString &jobId)
{
    return watchAction(m_orchestrator->cancel(jobId));
}

QFuture<ActionResult> ClusterSession::drain(const QStringList &nodes, const QString &reason)
{
    return watchAction(m_orchestrator->drain(nodes, reason));
}

QFuture<ActionResult> ClusterSession::resume(const QStringList &nodes)
{
    return watchAction(m_orchestrator->resume(nodes));
}

QFuture<ActionResult> ClusterSession::createSilence(const SilenceRequest &request)
{
    ActionResult base;
    base.action = ActionKind::Silence;
    AlertSilence shown;
    shown.matchers = request.matchers;
    base.target = shown.matchersText();
    AlertmanagerClient *client = m_metrics ? m_metrics->alertmanager() : nullptr;
    if (!client)
        return watchAction(noAlertmanager(base));
    return watchAction(silenceAction(this, client->createSilence(request), base, [target = base.target](const QString &id) {
        return QStringLiteral("silence %1 created for {%2}").arg(id, target);
    }));
}

QFuture<ActionResult> ClusterSession::expireSilence(const QString &silenceId)
{
    ActionResult base;
    base.action = ActionKind::ExpireSilence;
    base.target = silenceId;
    AlertmanagerClient *client = m_metrics ? m_metrics->alertmanager() : nullptr;
    if (!client)
        return watchAction(noAlertmanager(base));
    return watchAction(silenceAction(this, client->expireSilence(silenceId), base, [](const QString &id) {
        return QStringLiteral("silence %1 expired").arg(id);
    }));
}

QFuture<ActionResult> ClusterSession::noAlertmanager(ActionResult result)
{
    result.ok = false;
    result.errorKind = ErrorKind::InvalidRequest;
    result.message = QStringLiteral("this cluster's profile names no Alertmanager (--alertmanager URL)");
    QPromise<ActionResult> promise;
    promise.start();
    promise.addResult(result);
    promise.finish();
    return promise.future();
}

QFuture<HistoryAnswer> ClusterSession::readHistory(const HistoryPeriod &period)
{
    // One read's state, shared by its steps; the promise finishes exactly once (finish()).
    struct Run
    {
        QPromise<HistoryAnswer> promise;
        HistoryAnswer answer;
        QElapsedTimer clock;
        QFuture<AccountingAnswer> accounting;
        QFuture<HistoryEfficiencyAnswer> efficiency;
        void finish()
        {
            answer.totalMs = clock.elapsed();
            if (!promise.isCanceled())
                promise.setProgressValueAndText(3, QStringLiteral("done"));
            if (!promise.isCanceled())
                promise.addResult(answer);
            promise.finish();
        }
        // Records whose efficiency was not read, each saying why.
        void notMeasured(const QString &why)
        {
            for (JobRecord &r : answer.records) {
                if (r.efficiency.basis == JobEfficiency::Basis::None && r.efficiency.why.isEmpty())
                    r.efficiency.why = why;
            }
        }
    };
    auto run = std::make_shared<Run>();
    run->clock.start();
    run->answer.period = period;
    run->promise.start();
    // Steps for a progress bar (QFuture::progressValue/progressText): accounting, merge, metrics.
    run->promise.setProgressRange(0, 3);
    run->promise.setProgressValueAndText(0, QStringLiteral("reading accounting"));
    const QFuture<HistoryAnswer> answer = run->promise.future();
    // Cancelling the answer finishes it at once and stops the reads under way (the metrics
    // between chunks); what they still hand in is dropped.
    auto *cancelWatch = new QFutureWatcher<HistoryAnswer>(this);
    connect(cancelWatch, &QFutureWatcherBase::canceled, this, [run] {
        run->accounting.cancel();
        run->efficiency.cancel();
        run->finish();
    });
    connect(cancelWatch, &QFutureWatcherBase::finished, cancelWatch, &QObject::deleteLater);
    cancelWatch->setFuture(answer);

    const auto readEfficiency = [this, run](const QVector<JobRecord> &records) {
        run->answer.records = records;
        if (run->promise.isCanceled())
            return run->finish();
        if (!m_metrics) {
            run->answer.metricsError = QStringLiteral("no Prometheus in the profile: GPU usage not read");
            run->answer.metricsErrorKind = ErrorKind::SourceUnsupported;
            run->notMeasured(QStringLiteral("metrics not read: no Prometheus in the profile"));
            return run->finish();
        }
        run->promise.setProgressValueAndText(2, QStringLiteral("reading GPU usage"));
        run->efficiency = m_metrics->readEfficiency(records, run->answer.period, m_latest);
        whenFinished(
            run->efficiency, this,
            [run](const HistoryEfficiencyAnswer &efficiency) {
                run->answer.records = efficiency.records;
                run->answer.metricsError = efficiency.error;
                run->answer.metricsErrorKind = efficiency.errorKind;
                run->answer.warnings += efficiency.warnings;
                run->answer.metricsMs = efficiency.elapsedMs;
                run->notMeasured(QStringLiteral("metrics not read"));
                run->finish();
            },
            [run](const QString &why) {
                run->answer.metricsError = QStringLiteral("reading GPU usage did not finish: %1").arg(why);
                run->answer.metricsErrorKind = ErrorKind::Cancelled;
                run->notMeasured(QStringLiteral("metrics not read: %1").arg(why));
                run->finish();
            });
    };

    // Kubernetes keeps no accounting of its own: its finished workloads are read from
    // kube-state-metrics' series in Prometheus, where it is scraped.
    if (m_orchestrator->kind() != OrchestratorKind::Kubernetes) {
        run->accounting = m_orchestrator->readJobRecords(period);
    } else if (m_metrics) {
        run->accounting = m_metrics->readKubeWorkloadRecords(period);
    } else {
        run->accounting = KubeWorkloadHistoryReader::noPrometheus();
    }
    whenFinished(
        run->accounting, this,
        [this, run, readEfficiency](const AccountingAnswer &accounting) {
            HistoryAnswer &a = run->answer;
            a.accountingError = accounting.error;
            a.accountingErrorKind = accounting.errorKind;
            a.skippedRows = accounting.skippedRows;
            a.warnings = accounting.warnings;
            a.accountingCommand = accounting.command;
            a.accountingBytes = accounting.bytes;
            a.accountingMs = accounting.durationMs;
            if (run->promise.isCanceled())
                return run->finish();
            // Even without accounting the running jobs are history in the making: merged off
            // this thread (50,000 records).
            run->promise.setProgressValueAndText(1, QStringLiteral("adding running jobs"));
            const QFuture<QVector<JobRecord>> merged = runOnPool(
                nullptr, [records = accounting.records, latest = m_latest, period = a.period]() mutable {
                    return HistoryMerge::merge(std::move(records), latest.get(), period);
                });
            whenFinished(merged, this, readEfficiency, [run](const QString &why) {
                run->answer.accountingError = QStringLiteral("putting the records together failed: %1").arg(why);
                run->answer.accountingErrorKind = ErrorKind::Cancelled;
                run->finish();
            });
        },
        [run](const QString &why) {
            run->answer.accountingError = QStringLiteral("reading accounting did not finish: %1").arg(why);
            run->answer.accountingErrorKind = ErrorKind::Cancelled;
            run->finish();
        });
    return answer;
}

QFuture<ActionResult> ClusterSession::reconcile(const ActionResult &unknown)
{
    auto promise = std::make_shared<QPromise<ActionResult>>();
    promise->start();
    whenFinished(m_orchestrator->reconcile(unknown), this, [this, promise](const ActionResult &result) {
        if (!result.outcomeUnknown) {
            forgetUnknown(result);
            Q_EMIT actionFinished(result);
            refreshNow();
        }
        promise->addResult(result);
        promise->finish();
    });
    return promise->future();
}

void ClusterSession::reconcileUnknownActions()
{
    if (m_reconcilesRunning > 0 || m_unknownActions.isEmpty())
        return;
    const QVector<ActionResult> pending = m_unknownActions;
    m_reconcilesRunning = int(pending.size());
    for (const ActionResult &unknown : pending) {
        whenFinished(reconcile(unknown), this, [this](const ActionResult &) { --m_reconcilesRunning; });
    }
}

void ClusterSession::forgetUnknown(const ActionResult &settled)
{
    m_unknownActions.removeIf([&](const ActionResult &u) {
        return u.action == settled.action && u.target == settled.target && u.tag == settled.tag;
    });
}

} // namespace strata
