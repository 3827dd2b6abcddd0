#pragma once

#include "fabric_group_result.h"
#include "fabric_request.h"

#include <QList>
#include <QObject>
#include <QStringList>

namespace strata {

enum class FabricTransportKind
{
    Slurm,
    Kubernetes
};

// How a fabric test reaches a cluster's nodes: keeps them for the test, runs one round's groups
// side by side and hands back what each measured, and gives back what it took. The
// FabricTestRunner drives it and owns the judging (FabricIsolation); it never knows which
// scheduler it talks to.
//   prepare() -> prepared() or failed()            (Slurm: output directory, reservation;
//                                                   Kubernetes: the nodes cordoned)
//   runGroups() -> groupsStarted(), then groupsEnded() or failed()
//   release() -> released(problem)                 (live jobs stopped, what it made removed,
//                                                   whatever happened before; problem empty
//                                                   when all of it went)
// release() may come at any time, also while prepare() or runGroups() wait on the cluster:
// their answers are then ignored. Thread: the runner's.
class FabricTransport : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~FabricTransport() override;

    virtual FabricTransportKind kind() const = 0;
    virtual void prepare(const FabricRequest &request) = 0;
    virtual void runGroups(int round, const QList<QStringList> &groups) = 0;
    virtual void release() = 0;
    // The Slurm reservation the jobs ran in; empty on Kubernetes.
    virtual QString reservation() const { return {}; }
    // Nodes the transport cordoned for the test (and uncordons in release()); still named after it.
    virtual QStringList cordoned() const { return {}; }

Q_SIGNALS:
    void stageChanged(const QString &stage);
    void prepared();
    // Each group's job id (Slurm job id, or "namespace/job" on Kubernetes), in the groups' order.
    void groupsStarted(const QStringList &jobIds);
    // In the groups' order, nodes and jobId set.
    void groupsEnded(const QList<strata::FabricGroupResult> &results);
    void failed(const QString &error);
    void released(const QString &problem);
};

} // namespace strata
