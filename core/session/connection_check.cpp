#include "connection_check.h"
#include "model/display_url.h"

#include "cluster_session.h"
#include "model/orchestrator_part.h"
#include "model/orchestrator_source.h"
#include "model/when_finished.h"
#include "prometheus/prometheus_client.h"
#include "ssh/remote_shell.h"
#include "ssh/ssh_remote_shell.h"

#include <QLoggingCategory>
#include <QThreadPool>

Q_LOGGING_CATEGORY(lcConnectionCheck, "strata.session.check")

namespace strata {

namespace {

// "1 node", "4 nodes": core has no translations to pick plurals from.
QString counted(int n, const char *noun)
{
    return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(noun), n == 1 ? QString() : QStringLiteral("s"));
}

} // namespace

ConnectionCheckResult ConnectionCheckResult::failure(ErrorKind kind, std::optional<SourceKind> step, const QString &error)
{
    ConnectionCheckResult r;
    r.errorKind = kind;
    r.step = step;
    r.error = error;
    return r;
}

ConnectionCheck::ConnectionCheck(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<ConnectionCheckResult>();
}

ConnectionCheck::~ConnectionCheck()
{
    ++m_generation;
    releaseTransports();
}

void ConnectionCheck::releaseTransports()
{
    delete m_prometheus; // aborts its request; the future finishes "canceled", ignored
    m_prometheus = nullptr;
    if (!m_shell && !m_orchestrator)
        return;
    // The SSH worker may sit in a connect until its timeout: joining it here would block the
    // caller's thread, so the last references go on a pool thread.
    QThreadPool::globalInstance()->start([shell = std::move(m_shell), orchestrator = std::move(m_orchestrator)]() mutable {
        orchestrator.reset();
        shell.reset();
    });
    m_shell.reset();
    m_orchestrator.reset();
}

void ConnectionCheck::start(const ClusterProfile &profile, const QString &trustedFingerprint, const QString &passphrase)
{
    if (m_running)
        cancel();
    const quint64 generation = ++m_generation;
    m_profile = profile;
    m_result = {};
    m_running = true;
    m_steps = profile.hasPrometheus() ? 3 : 2;
    SshOptions options = SshOptions::fromProfile(profile);
    options.trustedFingerprint = trustedFingerprint;
    options.passphrase = passphrase;
    options.loginPrompter = m_loginPrompter;
    m_shell = std::make_shared<SshRemoteShell>(options);
    Q_EMIT progress(1, m_steps, tr("Connecting to %1…").arg(m_shell->describe()));
    qCDebug(lcConnectionCheck) << "checking" << m_shell->describe();
    whenFinished(m_shell->run({QStringLiteral("true")}), this, [this, generation](const CommandResult &r) {
        if (generation != m_generation)
            return;
        if (!r.ran()) {
            ConnectionCheckResult failed;
            failed.step = SourceKind::Ssh;
            failed.errorKind = r.failure;
            failed.error = r.errorText();
            failed.hostKeyFingerprint = r.hostKeyFingerprint;
            finish(failed);
            return;
        }
        if (!r.ok()) {
            // The login shell ran `true` and still failed: a forced command or a broken shell.
            finish(ConnectionCheckResult::failure(ErrorKind::CommandFailed, SourceKind::Ssh,
                    tr("%1 logs in but cannot run commands: %2").arg(m_shell->describe(), r.errorText())));
            return;
        }
        checkScheduler(generation);
    });
}

void ConnectionCheck::checkScheduler(quint64 generation)
{
    m_orchestrator = ClusterSession::makeOrchestrator(m_profile, m_shell);
    const OrchestratorKind kind = m_orchestrator->kind();
    Q_EMIT progress(2, m_steps, kind == OrchestratorKind::Kubernetes ? tr("Asking Kubernetes for its nodes (kubectl)…")
                                                                       : tr("Asking Slurm for its nodes…"));
    whenFinished(m_orchestrator->refresh(), this, [this, generation, kind](const OrchestratorPart &part) {
        if (generation != m_generation)
            return;
        if (!part.error.isEmpty()) {
            ConnectionCheckResult failed;
            failed.step = part.transportFailed ? SourceKind::Ssh : sourceKind(kind);
            failed.errorKind = part.errorKind == ErrorKind::None ? ErrorKind::CommandFailed : part.errorKind;
            failed.error = part.error;
            failed.hostKeyFingerprint = part.hostKeyFingerprint;
            finish(failed);
            return;
        }
        int gpus = 0;
        for (const Node &n : part.nodes)
            gpus += n.gpuCount;
        m_result.scheduler = QStringLiteral("%1: %2, %3").arg(orchestratorKindName(kind), counted(int(part.nodes.size()), "node"), counted(gpus, "GPU"));
        if (m_profile.hasPrometheus())
            checkPrometheus(generation);
        else
            finish(m_result);
    });
}

void ConnectionCheck::checkPrometheus(quint64 generation)
{
    Q_EMIT progress(3, m_steps, tr("Asking Prometheus at %1…").arg(DisplayUrl::withoutPassword(m_profile.prometheusUrl)));
    PrometheusClient::Config config = PrometheusClient::Config::fromProfile(m_profile);
    config.timeoutMs = qMin(config.timeoutMs, qMax(1, m_profile.connectTimeoutSeconds) * 1000 * 2);
    m_prometheus = new PrometheusClient(config, this);
    if (!m_prometheus->configError().isEmpty()) {
        finish(ConnectionCheckResult::failure(ErrorKind::InvalidRequest, SourceKind::Prometheus, m_prometheus->configError()));
        return;
    }
    whenFinished(m_prometheus->query(QStringLiteral("count(DCGM_FI_DEV_GPU_UTIL)")), this,
                 [this, generation](const PrometheusResponse &r) {
                     if (generation != m_generation)
                         return;
                     if (!r.ok) {
                         finish(ConnectionCheckResult::failure(r.errorKind(), SourceKind::Prometheus, r.error));
                         return;
                     }
                     const int gpus = r.series.isEmpty() || r.series.first().samples.isEmpty()
                                          ? 0 : int(r.series.first().samples.first().value);
                     m_result.prometheus = gpus > 0 ? QStringLiteral("Prometheus: %1 DCGM metrics").arg(counted(gpus, "GPU") + (gpus == 1 ? QStringLiteral(" reports") : QStringLiteral(" report")))
                                                    : QStringLiteral("Prometheus answers, but no GPU reports DCGM metrics yet");
                     finish(m_result);
                 });
}

void ConnectionCheck::cancel()
{
    if (!m_running)
        return;
    ++m_generation;
    finish(ConnectionCheckResult::failure(ErrorKind::Cancelled, std::nullopt, tr("Cancelled.")));
}

void ConnectionCheck::finish(ConnectionCheckResult result)
{
    m_running = false;
    if (result.errorKind == ErrorKind::None) {
        result.scheduler = m_result.scheduler;
        result.prometheus = m_result.prometheus;
    }
    qCDebug(lcConnectionCheck) << "check ended:" << errorKindName(result.errorKind) << result.error;
    // Keep nothing open: the profile is saved and connected anew, or corrected and checked again.
    if (m_prometheus) {
        m_prometheus->deleteLater();
        m_prometheus = nullptr;
    }
    releaseTransports();
    Q_EMIT finished(result);
}

} // namespace strata
