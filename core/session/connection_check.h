#pragma once

#include "profile/cluster_profile.h"
#include "model/error_kind.h"
#include "model/source_kind.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace strata {

class LoginPrompter;
class OrchestratorSource;
class PrometheusClient;
class RemoteShell;

// How a connection check ended. errorKind None: every step answered.
struct ConnectionCheckResult
{
    ErrorKind errorKind = ErrorKind::None;
    std::optional<SourceKind> step; // where it stopped; nullopt when it did not stop at a source
    QString error;              // a sentence a person can act on
    QString hostKeyFingerprint; // HostKeyUnknown / HostKeyChanged: the key the host offered
    QString scheduler;          // "slurm: 4 nodes, 32 GPUs"
    QString prometheus;         // "Prometheus: 32 GPUs report DCGM metrics"; empty: none configured

    bool ok() const { return errorKind == ErrorKind::None; }
    static ConnectionCheckResult failure(ErrorKind kind, std::optional<SourceKind> step, const QString &error);
};

// Checks that a profile reaches its cluster before it is saved: SSH connects and authenticates
// (`true` on the login host), the scheduler answers one refresh, Prometheus answers one query.
// Every step runs on the transports' own workers (SSH worker thread, network manager), so the
// caller's thread never blocks, cancel() included: a transport still busy is handed to a pool
// thread to finish and be destroyed there. Lives on the thread that creates it (the GUI thread
// in the window, the main thread in the CLI); owned by the form or command that asks.
class ConnectionCheck : public QObject
{
    Q_OBJECT
public:
    explicit ConnectionCheck(QObject *parent = nullptr);
    ~ConnectionCheck() override;

    // Starts a check (a check under way is cancelled first). trustedFingerprint: the key a
    // person accepted after HostKeyUnknown ("SHA256:..."), recorded in known_hosts on connect.
    // passphrase: for an encrypted identity file, in memory only.
    void start(const ClusterProfile &profile, const QString &trustedFingerprint = {},
               const QString &passphrase = {});
    // Who answers a keyboard-interactive login's questions in the checks started from now on
    // (the CLI's terminal); none: such a login fails with LoginPromptUnavailable.
    void setLoginPrompter(std::shared_ptr<LoginPrompter> prompter) { m_loginPrompter = std::move(prompter); }
    // Ends the check under way now: finished() comes at once with ErrorKind::Cancelled.
    void cancel();
    bool isRunning() const { return m_running; }
    int stepCount() const { return m_steps; }

Q_SIGNALS:
    // step counts from 1 to steps; text says what is being asked.
    void progress(int step, int steps, const QString &text);
    void finished(const strata::ConnectionCheckResult &result);

private:
    void checkScheduler(quint64 generation);
    void checkPrometheus(quint64 generation);
    void finish(ConnectionCheckResult result);
    void releaseTransports();

    ClusterProfile m_profile;
    std::shared_ptr<RemoteShell> m_shell;
    std::shared_ptr<LoginPrompter> m_loginPrompter; // given to each check's shell
    std::shared_ptr<OrchestratorSource> m_orchestrator;
    PrometheusClient *m_prometheus = nullptr;
    ConnectionCheckResult m_result;
    quint64 m_generation = 0;
    int m_steps = 0;
    bool m_running = false;
};

} // namespace strata

Q_DECLARE_METATYPE(strata::ConnectionCheckResult)
