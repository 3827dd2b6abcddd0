#pragma once

#include "kube_owner_reference.h"
#include "model/job_script.h"
#include "model/workload_role.h"

#include <QMap>
#include <QString>
#include <QVector>

#include <memory>
#include <optional>

namespace strata {

// One object of a workload kind (KubeWorkloadKinds: a Deployment, a PyTorchJob, a JobSet, a
// RayCluster, ...) reduced to what Strata needs: who it is, who owns it, and a summary of its
// own status read by its kind's rules (KubeWorkloadParser). Small: a cluster keeps thousands.
struct KubeWorkload
{
    // Where the object's own status says it stands. Unknown: it says nothing Strata reads (then
    // its pods decide, as for a Deployment).
    enum class Phase { Unknown, Pending, Running, Succeeded, Failed, Suspended };

    QString apiVersion; // "kubeflow.org/v1"
    QString kind;       // "PyTorchJob"
    QString namespaceName;
    QString name;
    QString uid;
    KubeOwnerReference owner; // empty: it is the top of its chain
    QMap<QString, QString> labels;
    QString submittedBy;      // the annotation strata.io/submitted-by
    qint64 createdAt = 0;     // seconds since the epoch, 0 unknown
    qint64 startedAt = 0;
    qint64 finishedAt = 0;
    bool deleting = false;

    Phase phase = Phase::Unknown;
    QString reason;           // why it waits, failed or is suspended, in its controller's words
    QVector<WorkloadRole> roles;
    int gpusWanted = 0;       // the spec's GPUs at full size: replicas x GPUs per pod, over roles
    QString framework;        // where the kind says it: "torch.distributed" (PyTorchJob), "ray"
    std::optional<int> worldSize; // where the spec says it (replicas x nprocPerNode, MPI slots, ...)
    // The main pod template's main container (KubePodLaunchReader), or a RayJob's entrypoint.
    QString image;
    QString command;
    QString workDir;
    std::shared_ptr<const JobScript> script;

    QString key() const { return namespaceName + QLatin1Char('/') + name; } // unique within its kind
};

} // namespace strata
