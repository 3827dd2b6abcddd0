#pragma once

#include "fabric_isolation.h"
#include "fabric_request.h"
#include "fabric_transport.h"

#include <QObject>

#include <memory>
#include <optional>

namespace strata {

class RemoteShell;

// Runs a fabric test: the rounds FabricIsolation plans, each round's groups run side by side
// through a FabricTransport (Slurm: exclusive jobs in a maintenance reservation; Kubernetes:
// Indexed Jobs on the cordoned nodes), judged as they end; at the end, whatever happened, the
// transport releases what it took (reservation, jobs, cordons), or its failure to is said.
// Owns its transport. Thread: the thread that creates it (GUI or CLI main thread); every
// remote step is a future continued there, nothing blocks. One run at a time.
class FabricTestRunner : public QObject
{
    Q_OBJECT
public:
    // On Slurm through this login shell (FabricSlurmTransport).
    explicit FabricTestRunner(std::shared_ptr<RemoteShell> shell, QObject *parent = nullptr);
    explicit FabricTestRunner(std::unique_ptr<FabricTransport> transport,
                              QObject *parent = nullptr);
    ~FabricTestRunner() override;

    void start(const FabricRequest &request);
    void cancel();
    bool isRunning() const { return m_running; }
    const FabricRequest &request() const { return m_request; }
    FabricTransportKind transportKind() const { return m_transport->kind(); }
    // The isolation as it stands (its rounds so far, its verdict once finished).
    const FabricIsolation *isolation() const { return m_isolation ? &*m_isolation : nullptr; }
    QString reservation() const { return m_transport->reservation(); }
    QStringList cordoned() const { return m_transport->cordoned(); }

Q_SIGNALS:
    void stageChanged(const QString &stage);
    void roundStarted(int round, const QList<QStringList> &groups, const QStringList &jobIds);
    void groupFinished(int round, const strata::FabricGroupResult &result, bool shortOfReference);
    void finished(const strata::FabricVerdict &verdict);
    void failed(const QString &error);

private:
    void runRound();
    void onGroupsStarted(const QStringList &jobIds);
    void onGroupsEnded(const QList<FabricGroupResult> &results);
    void onTransportFailed(const QString &error);
    // Ends the run: the transport releases what it took, then complete().
    void finishWith(std::optional<FabricVerdict> verdict, const QString &error);
    void complete(const QString &cleanupProblem);

    std::unique_ptr<FabricTransport> m_transport;
    FabricRequest m_request;
    std::optional<FabricIsolation> m_isolation;
    bool m_running = false;
    bool m_ending = false;                     // finishWith() has begun: waiting for released()
    QList<QStringList> m_groups;               // this round's
    std::optional<FabricVerdict> m_endVerdict; // how the run ends, once finishWith() has begun
    QString m_endError;
};

} // namespace strata
