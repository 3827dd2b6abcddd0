#pragma once

#include "kube_job.h"
#include "kube_owner_reference.h"
#include "kube_pod.h"
#include "kube_workload.h"

#include <QHash>
#include <QString>
#include <QVector>

namespace strata {

// Every pod to the top of its ownerReferences chain, as Strata shows workloads: the controlling
// owner is followed through the objects listed (batch Jobs and the workload kinds) until one has
// no owner (that object is the workload) or names an owner Strata does not list (that owner is
// the workload, "KIND/NAME" with no status of its own: any kind, known or not). A pod with no
// owner is its own workload, and so are static pods (owned by their Node); a pod that owns
// objects (a LeaderWorkerSet's leader owns its group's worker StatefulSet) is followed like any
// owner. Pods whose chain ends at a batch Job that is not listed are left out (the Job is gone;
// its pods are being collected). Pure; chains longer than kMaxDepth or cyclic (hostile objects)
// end where the walk stopped.
class KubeOwnerChain
{
public:
    static constexpr int kMaxDepth = 16;

    struct Top
    {
        enum class Type { BatchJob, Workload, Unlisted, BarePod, Orphan };
        Type type = Type::BarePod;
        int index = -1;               // BatchJob: into jobs; Workload: into workloads; BarePod: into pods
        KubeOwnerReference unlisted;  // Unlisted: the owner that ends the chain
        QString namespaceName;        // Unlisted: the namespace of the object naming it
        // The workload's id (Job::id): "ns/name" for a batch Job or a bare pod (as Strata always
        // named them), "ns/KIND/name" for every other kind, whose names may repeat across kinds.
        QString id;
    };
    struct Group
    {
        Top top;
        QVector<const KubePod *> pods; // in the order given
    };

    // One group per workload: every top-level listed object (with its pods, or none), every bare
    // pod and every unlisted owner with its pods; in that order (jobs, workloads, then by first pod).
    static QVector<Group> group(const QVector<KubePod> &pods, const QVector<KubeJob> &jobs,
                                const QVector<KubeWorkload> &workloads);

    static QString workloadId(const QString &namespaceName, const QString &kind, const QString &name);
    // "ns/KIND/name" -> its parts; false (with *error) for any other shape, an invalid namespace
    // or name, or a kind that is not a plain API kind (letters and digits, at most 63).
    static bool splitWorkloadId(const QString &id, QString *namespaceName, QString *kind, QString *name,
                                QString *error);
};

} // namespace strata
