#pragma once

#include <QLatin1StringView>
#include <QString>
#include <QVector>

namespace strata {

// A workload kind Strata reads for its own status (KubeWorkloadParser), as its project's CRD
// (or Kubernetes itself, for apps/v1) names it: the API group, the kind, the resource (plural)
// and the versions Strata reads, the one to prefer first. Which of them a cluster serves is
// discovery's answer (KubeDiscovery), never assumed.
struct KubeWorkloadKind
{
    QLatin1StringView group;
    QLatin1StringView kind;
    QLatin1StringView resource;
    QVector<QLatin1StringView> versions;
};

// One of them as a cluster serves it: the version discovery found. Its collection, its
// apiVersion and kubectl's fully qualified name for it ("pytorchjobs.kubeflow.org").
struct KubeServedKind
{
    KubeWorkloadKind kind;
    QString version;

    QString apiVersion() const { return QString(kind.group) + QLatin1Char('/') + version; }
    // /apis/GROUP/VERSION/RESOURCE, or .../namespaces/NS/RESOURCE; empty for an invalid namespace.
    QString path(const QString &namespaceName) const;
    QString kubectlResource() const { return QString(kind.resource) + QLatin1Char('.') + QString(kind.group); }
};

namespace KubeWorkloadKinds {
// apps/v1 Deployment, ReplicaSet, StatefulSet; kubeflow.org PyTorchJob, MPIJob;
// trainer.kubeflow.org TrainJob; jobset.x-k8s.io JobSet; ray.io RayJob, RayCluster;
// leaderworkerset.x-k8s.io LeaderWorkerSet; sagemaker.amazonaws.com HyperPodPyTorchJob.
const QVector<KubeWorkloadKind> &all();
// The kind of that name ("PyTorchJob"); null when Strata does not read it.
const KubeWorkloadKind *find(QStringView kind);
} // namespace KubeWorkloadKinds

} // namespace strata
