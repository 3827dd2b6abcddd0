#pragma once

#include "fabric_kube_job.h"
#include "fabric_kube_parser.h"
#include "fabric_transport.h"
#include "kubernetes/kubectl_commands.h"
#include "ssh/command_result.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QTimer>

#include <memory>

namespace strata {

class RemoteShell;

// A fabric test on Kubernetes through kubectl on the session's login shell (the commands of
// the session's KubernetesSource: its kubectl, context and timeout).
//  prepare: the nodes must exist; those not yet cordoned are cordoned (nothing new lands on
//    them while they are measured, as Slurm's maintenance reservation does), and only those
//    are uncordoned by release(): a node an operator cordoned stays so.
//  runGroups: each group one Indexed Job and its headless Service (FabricKubeJob), followed by
//    one `kubectl get jobs,pods -l strata.io/fabric-run=RUN -o json` per poll; a pod the
//    scheduler cannot place for 3 minutes ends the run with the scheduler's words. When every
//    Job has ended, index 0's pod log (the probe's rank 0) is read and parsed; a pod that ran
//    on a node outside its group makes the group's result an error.
//  release: `kubectl delete jobs,services -l strata.io/fabric-run=RUN` (pods deleted with
//    their Job), also after a lost answer to a create, then the uncordon.
// Thread: the one that creates it; every remote step is a future continued there.
class FabricKubernetesTransport : public FabricTransport
{
    Q_OBJECT
public:
    FabricKubernetesTransport(std::shared_ptr<RemoteShell> shell, KubectlCommands commands,
                              QObject *parent = nullptr);
    ~FabricKubernetesTransport() override;

    FabricTransportKind kind() const override { return FabricTransportKind::Kubernetes; }
    void prepare(const FabricRequest &request) override;
    void runGroups(int round, const QList<QStringList> &groups) override;
    void release() override;
    QStringList cordoned() const override { return m_cordonedByRun; }
    void setPollIntervalMs(int ms) { m_pollIntervalMs = ms; }

    // How long a pod may stay unschedulable before the run ends.
    static constexpr int kUnschedulableLimitSeconds = 180;

private:
    void cordon(const QStringList &nodes);
    void createGroup(int index);
    void poll();
    void readLogs(const QHash<QString, FabricKubeGroup> &states);
    void readLog(int index, const QString &pod, const QString &how, const QStringList &misplaced);
    void deleteObjects();
    void uncordon(const QString &deleteProblem);
    QString namespaceName() const;

    std::shared_ptr<RemoteShell> m_shell;
    KubectlCommands m_commands;
    FabricRequest m_request;
    QByteArray m_probe;
    QStringList m_cordoned; // by this run and not yet uncordoned: release() uncordons them
    QStringList
        m_cordonedByRun;       // every node this run cordoned (the report's), kept after release()
    bool m_createdAny = false; // a create was sent (its answer may have been lost)
    // The cordon and creates sent and not answered yet: release() waits for them, so that a
    // Job created (or a node cordoned) after the cleanup ran cannot be left behind.
    QList<QFuture<CommandResult>> m_changing;
    int m_round = 0;
    int m_basePort = 0;
    QList<QStringList> m_groups; // this round's
    QStringList m_names;         // their Jobs', in m_groups' order
    QList<FabricGroupResult> m_results;
    int m_logsPending = 0;
    QElapsedTimer m_roundClock;
    int m_pollIntervalMs = 2000;
    QTimer m_pollTimer;
    quint64 m_generation = 0; // release() makes older continuations stale
};

} // namespace strata
