#pragma once

#include "fabric_transport.h"

#include <QElapsedTimer>
#include <QHash>
#include <QTimer>

#include <memory>

namespace strata {

class RemoteShell;

// A fabric test on Slurm through the session's login shell: a maintenance reservation over
// the nodes (Strata's own unless the request names one), each group an exclusive job in it
// (FabricJobScript) followed with squeue, its output file read back when it ends; release()
// cancels jobs still live and deletes Strata's reservation (or says the command to run).
// Thread: the one that creates it; every remote step is a future continued there.
class FabricSlurmTransport : public FabricTransport
{
    Q_OBJECT
public:
    explicit FabricSlurmTransport(std::shared_ptr<RemoteShell> shell, QObject *parent = nullptr);
    ~FabricSlurmTransport() override;

    FabricTransportKind kind() const override { return FabricTransportKind::Slurm; }
    void prepare(const FabricRequest &request) override;
    void runGroups(int round, const QList<QStringList> &groups) override;
    void release() override;
    QString reservation() const override { return m_reservation; }
    void setPollIntervalMs(int ms) { m_pollIntervalMs = ms; }
    // How long a job may wait for a node Slurm cannot use (ReqNodeNotAvail) before the test
    // stops saying so: long enough for a node that missed a ping or is still powering down.
    void setUnavailableNodeGraceMs(int ms) { m_unavailableNodeGraceMs = ms; }

private:
    void createReservation();
    void submitGroup(int index);
    void poll();
    void readOutputs();
    void readOutput(int index);
    void deleteReservation(int attempt);

    std::shared_ptr<RemoteShell> m_shell;
    FabricRequest m_request;
    QByteArray m_probe;
    bool m_ownReservation = false;
    QString m_reservation;
    int m_round = 0;
    QList<QStringList> m_groups;           // this round's
    QStringList m_jobIds;                  // this round's, in m_groups' order
    QHash<QString, QString> m_finalStates; // job id -> how it ended
    QList<FabricGroupResult> m_results;
    int m_outputsPending = 0;
    int m_pollIntervalMs = 2000;
    int m_unavailableNodeGraceMs = 180000;
    QHash<QString, QElapsedTimer> m_waitingForNode; // job id -> since it waits for an unusable node
    QTimer m_pollTimer;
    quint64 m_generation = 0; // release() makes older continuations stale
};

} // namespace strata
