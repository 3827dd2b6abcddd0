#include "kube_workload_parser.h"

#include "kube_json.h"
#include "kube_workload_readers.h"
#include "kubernetes_part_builder.h"

#include <QJsonArray>

namespace strata {

using namespace Qt::StringLiterals;

KubeOwnerReference KubeWorkloadParser::controllingOwner(const QJsonObject &metadata)
{
    KubeOwnerReference owner;
    for (const QJsonValue &value : metadata.value("ownerReferences"_L1).toArray()) {
        const QJsonObject ref = value.toObject();
        if (ref.value("controller"_L1).toBool() || owner.isEmpty()) {
            owner.apiVersion = KubeJson::string(ref, "apiVersion"_L1);
            owner.kind = KubeJson::string(ref, "kind"_L1);
            owner.name = KubeJson::string(ref, "name"_L1);
            owner.uid = KubeJson::string(ref, "uid"_L1);
            if (ref.value("controller"_L1).toBool())
                break;
        }
    }
    return owner;
}

bool KubeWorkloadParser::namesBatchJob(const KubeOwnerReference &ref)
{
    return ref.kind == "Job"_L1 && (ref.apiVersion.isEmpty() || ref.apiVersion.startsWith("batch/"_L1));
}

KubeWorkload KubeWorkloadParser::parseObject(const QJsonObject &object, QLatin1StringView kind,
                                             const QString &apiVersion)
{
    KubeWorkload workload;
    const QJsonObject metadata = object.value("metadata"_L1).toObject();
    const QJsonObject spec = object.value("spec"_L1).toObject();
    const QJsonObject status = object.value("status"_L1).toObject();
    workload.kind = KubeJson::string(object, "kind"_L1);
    if (workload.kind.isEmpty())
        workload.kind = kind;
    workload.apiVersion = KubeJson::string(object, "apiVersion"_L1);
    if (workload.apiVersion.isEmpty())
        workload.apiVersion = apiVersion;
    workload.namespaceName = KubeJson::string(metadata, "namespace"_L1);
    workload.name = KubeJson::string(metadata, "name"_L1);
    workload.uid = KubeJson::string(metadata, "uid"_L1);
    workload.owner = controllingOwner(metadata);
    workload.labels = KubeJson::stringMap(metadata, "labels"_L1);
    workload.submittedBy =
        KubeJson::string(metadata.value("annotations"_L1).toObject(), KubernetesPartBuilder::submittedByAnnotation());
    workload.createdAt = KubeJson::timestamp(metadata, "creationTimestamp"_L1);
    workload.deleting = metadata.contains("deletionTimestamp"_L1);

    using Reader = void (*)(const QJsonObject &, const QJsonObject &, KubeWorkload &);
    static const QHash<QString, Reader> readers{
        {u"Deployment"_s, &KubeWorkloadReaders::readReplicated},
        {u"ReplicaSet"_s, &KubeWorkloadReaders::readReplicated},
        {u"StatefulSet"_s, &KubeWorkloadReaders::readReplicated},
        {u"PyTorchJob"_s, &KubeWorkloadReaders::readKubeflowJob},
        {u"MPIJob"_s, &KubeWorkloadReaders::readKubeflowJob},
        {u"TrainJob"_s, &KubeWorkloadReaders::readTrainJob},
        {u"HyperPodPyTorchJob"_s, &KubeWorkloadReaders::readHyperPodJob},
        {u"JobSet"_s, &KubeWorkloadReaders::readJobSet},
        {u"RayCluster"_s, &KubeWorkloadReaders::readRayCluster},
        {u"RayJob"_s, &KubeWorkloadReaders::readRayJob},
        {u"LeaderWorkerSet"_s, &KubeWorkloadReaders::readLeaderWorkerSet},
    };
    if (const Reader reader = readers.value(workload.kind))
        reader(spec, status, workload);
    return workload;
}

KubeWorkloadParseResult KubeWorkloadParser::parse(const QByteArray &json, QLatin1StringView kind,
                                                  const QString &apiVersion)
{
    KubeWorkloadParseResult result;
    KubeJson::parseList(
        json, kind, &result.workloads, &result.error,
        [kind, &apiVersion](const QJsonObject &object) { return parseObject(object, kind, apiVersion); }, apiVersion);
    return result;
}

} // namespace strata
