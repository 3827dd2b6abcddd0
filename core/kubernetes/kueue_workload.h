#pragma once

#include <QString>

namespace strata {

// One Kueue Workload (kueue.x-k8s.io/v1beta1): the unit Kueue admits, made by Kueue for each
// job it manages (a batch Job, JobSet, PyTorchJob, RayJob, a LeaderWorkerSet's group, ...) and
// owned by it.
struct KueueWorkload
{
    // Where it stands, read from its conditions in Kueue's own order of precedence.
    enum class State {
        Pending,    // waiting for quota (QuotaReserved False or not set yet)
        Reserved,   // quota reserved, waiting for admission checks
        Admitted,   // its pods may run
        Evicted,    // it ran and was evicted (preempted, pods not ready in time, ...): waits again
        Inactive,   // spec.active false: held out of the queue
        Finished,   // Finished True (succeeded or failed)
    };

    QString namespaceName;
    QString name;
    qint64 createdAt = 0;     // seconds since the epoch
    // Its controlling ownerReference: the job it stands for.
    QString ownerKind;
    QString ownerApiVersion;
    QString ownerName;
    QString queueName;        // spec.queueName: the LocalQueue
    int priority = 0;
    int gpus = 0;             // nvidia.com/gpu of its pod sets: count x per-pod request, summed
    QString clusterQueue;     // status.admission.clusterQueue, once quota is reserved
    State state = State::Pending;
    QString reason;           // the deciding condition's reason ("Pending", "Preempted", ...)
    QString message;          // and its message ("couldn't assign flavors to pod set ...")
    // Evicted by preemption: the Preempted condition's reason ("InClusterQueue", "InCohortReclamation").
    QString preemptedReason;

    QString key() const { return namespaceName + QLatin1Char('/') + name; }
    // The Job::id Strata gives its owner: "namespace/name" for a batch Job or a pod,
    // "namespace/Kind/name" for any other kind (KubeOwnerChain::workloadId); empty: no owner.
    QString ownerJobId() const
    {
        if (ownerName.isEmpty())
            return {};
        if (ownerKind == QLatin1String("Job") || ownerKind == QLatin1String("Pod") || ownerKind.isEmpty())
            return namespaceName + QLatin1Char('/') + ownerName;
        return namespaceName + QLatin1Char('/') + ownerKind + QLatin1Char('/') + ownerName;
    }
};

} // namespace strata
