#include "kube_workload_kind.h"

#include "kubectl_commands.h"

namespace strata {

using namespace Qt::StringLiterals;

QString KubeServedKind::path(const QString &namespaceName) const
{
    const QString base = u"/apis/%1/%2"_s.arg(QString(kind.group), version);
    if (namespaceName.isEmpty())
        return base + u'/' + QString(kind.resource);
    if (!KubectlCommands::isValidNamespace(namespaceName))
        return {};
    return u"%1/namespaces/%2/%3"_s.arg(base, namespaceName, QString(kind.resource));
}

namespace KubeWorkloadKinds {

const QVector<KubeWorkloadKind> &all()
{
    // Versions: the ones whose shape KubeWorkloadParser reads, newest first. MPIJob v2beta1 is
    // the standalone mpi-operator's, v1 the training-operator's; KubeRay served v1alpha1 before v1.
    static const QVector<KubeWorkloadKind> kinds{
        {"apps"_L1, "Deployment"_L1, "deployments"_L1, {"v1"_L1}},
        {"apps"_L1, "ReplicaSet"_L1, "replicasets"_L1, {"v1"_L1}},
        {"apps"_L1, "StatefulSet"_L1, "statefulsets"_L1, {"v1"_L1}},
        {"kubeflow.org"_L1, "PyTorchJob"_L1, "pytorchjobs"_L1, {"v1"_L1}},
        {"kubeflow.org"_L1, "MPIJob"_L1, "mpijobs"_L1, {"v2beta1"_L1, "v1"_L1}},
        {"trainer.kubeflow.org"_L1, "TrainJob"_L1, "trainjobs"_L1, {"v1alpha1"_L1}},
        {"jobset.x-k8s.io"_L1, "JobSet"_L1, "jobsets"_L1, {"v1alpha2"_L1}},
        {"ray.io"_L1, "RayJob"_L1, "rayjobs"_L1, {"v1"_L1, "v1alpha1"_L1}},
        {"ray.io"_L1, "RayCluster"_L1, "rayclusters"_L1, {"v1"_L1, "v1alpha1"_L1}},
        {"leaderworkerset.x-k8s.io"_L1, "LeaderWorkerSet"_L1, "leaderworkersets"_L1, {"v1"_L1}},
        {"sagemaker.amazonaws.com"_L1, "HyperPodPyTorchJob"_L1, "hyperpodpytorchjobs"_L1, {"v1"_L1}},
    };
    return kinds;
}

const KubeWorkloadKind *find(QStringView kind)
{
    for (const KubeWorkloadKind &k : all())
        if (k.kind == kind)
            return &k;
    return nullptr;
}

} // namespace KubeWorkloadKinds
} // namespace strata
