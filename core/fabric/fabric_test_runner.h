#pragma once

#include "fabric_isolation.h"
#include "fabric_request.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>

namespace strata {

class RemoteShell;

// Runs a fabric test on a Slurm cluster through the session's login shell: a maintenance
// reservation over the nodes (Strata's own unless the request names one), then the rounds
// FabricIsolation plans, each round's groups as concurrent exclusive jobs in the reservation
// (FabricJobScript), their output files read back when they end, the reservation deleted at
// the end whatever happened (or its deletion's failure said with the command to run).
// Thread: the thread that creates it (GUI or CLI main thread); every remote step is a future
// continued there, nothing blocks. One run at a time.
class FabricTestRunner : public QObject
{
    Q_OBJECT
public:
    explicit FabricTestRunner(std::shared_ptr<RemoteShell> shell, QObject *parent = nullptr);
    ~FabricTestRunner() override;

    void start(const FabricRequest &request);
    void cancel();
    bool isRunning() const { return m_running; }
    const FabricRequest &request() const { return m_request; }
    // The isolation as it stands (its rounds so far, its verdict once finished).
    const FabricIsolation *isolation() const { return m_isolation ? &*m_isolation : nullptr; }
    QString reservation() const { return m_reservation; }
    void setPollIntervalMs(int ms) { m_pollIntervalMs = ms; }
    // How long a job may wait for a node Slurm cannot use (ReqNodeNotAvail) before the test
    // stops saying so: long enough for a node that missed a ping or is still powering down.
    void setUnavailableNodeGraceMs(int ms) { m_unavailableNodeGraceMs = ms; }

Q_SIGNALS:
    void stageChanged(const QString &stage);
    void roundStarted(int round, const QList<QStringList> &groups, const QStringList &jobIds);
    void groupFinished(int round, const strata::FabricGroupResult &result, bool shortOfReference);
    void finished(const strata::FabricVerdict &verdict);
    void failed(const QString &error);

private:
    void prepare();
    void createReservation();
    void runRound();
    void submitGroup(int index);
    void poll();
    void readOutputs();
    void readOutput(int index);
    void roundEnded();
    // Ends the run: jobs still live are cancelled, Strata's reservation deleted, then done().
    void finishWith(std::optional<FabricVerdict> verdict, const QString &error);
    void deleteReservation(int attempt);
    void complete(const QString &cleanupProblem);

    std::shared_ptr<RemoteShell> m_shell;
    FabricRequest m_request;
    std::optional<FabricIsolation> m_isolation;
    bool m_running = false;
    bool m_ownReservation = false;
    QString m_reservation;
    QByteArray m_probe;
    QList<QStringList> m_groups;    // this round's
    QStringList m_jobIds;           // this round's, in m_groups' order
    QHash<QString, QString> m_finalStates; // job id -> how it ended
    QList<FabricGroupResult> m_results;
    int m_outputsPending = 0;
    std::optional<FabricVerdict> m_endVerdict; // how the run ends, once finishWith() has begun
    QString m_endError;
    int m_pollIntervalMs = 2000;
    int m_unavailableNodeGraceMs = 180000;
    QHash<QString, QElapsedTimer> m_waitingForNode; // job id -> since it waits for an unusable node
    QTimer m_pollTimer;
    quint64 m_generation = 0; // a new start() or cancel() makes older continuations stale
};

} // namespace strata
