#include "kube_node_parser.h"

#include "kube_gpu_labels.h"
#include "kube_json.h"
#include "kube_quantity.h"
#include "model/gpu_catalog.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

using namespace Qt::StringLiterals;

const QLatin1StringView kPoolLabels[] = {
    "eks.amazonaws.com/nodegroup"_L1, "karpenter.sh/nodepool"_L1, "cloud.google.com/gke-nodepool"_L1,
    "kubernetes.azure.com/agentpool"_L1, "sagemaker.amazonaws.com/instance-group-name"_L1,
};

const QLatin1StringView kFeatureLabels[] = {
    "sagemaker.amazonaws.com/node-health-status"_L1, "topology.kubernetes.io/zone"_L1,
    "eks.amazonaws.com/capacityType"_L1, "karpenter.sh/capacity-type"_L1, "nvidia.com/gpu.product"_L1,
    "nvidia.com/gpu.sharing-strategy"_L1, "nvidia.com/mig.strategy"_L1, "nvidia.com/mig.config"_L1,
    "cloud.google.com/gke-accelerator"_L1, "cloud.google.com/gke-gpu-sharing-strategy"_L1,
    "cloud.google.com/gke-gpu-partition-size"_L1,
};

struct ConditionFlag
{
    QLatin1StringView type;
    QLatin1StringView flag;
};
// Conditions that are bad when True (Ready is bad when not True).
const ConditionFlag kPressureConditions[] = {
    {"MemoryPressure"_L1, "MEMORY_PRESSURE"_L1},
    {"DiskPressure"_L1, "DISK_PRESSURE"_L1},
    {"PIDPressure"_L1, "PID_PRESSURE"_L1},
    {"NetworkUnavailable"_L1, "NETWORK_UNAVAILABLE"_L1},
};

int quantityInt(const QJsonObject &resources, QLatin1StringView name)
{
    return KubeQuantity::wholeCount(KubeQuantity::parse(resources.value(name).toString()));
}

Node parseNode(const QJsonObject &object, const GpuCatalog &catalog)
{
    Node node;
    const QJsonObject metadata = object.value("metadata"_L1).toObject();
    const QJsonObject spec = object.value("spec"_L1).toObject();
    const QJsonObject status = object.value("status"_L1).toObject();
    node.name = KubeJson::string(metadata, "name"_L1);
    const QMap<QString, QString> labels = KubeJson::stringMap(metadata, "labels"_L1);
    const QMap<QString, QString> annotations = KubeJson::stringMap(metadata, "annotations"_L1);

    node.instanceType = labels.value(u"node.kubernetes.io/instance-type"_s,
                                     labels.value(u"beta.kubernetes.io/instance-type"_s));
    // InternalIP, ExternalIP, Hostname: how a scrape target's address finds its node.
    for (const QJsonValue &value : status.value("addresses"_L1).toArray())
        if (const QString address = KubeJson::string(value.toObject(), "address"_L1); !address.isEmpty()
            && !node.addresses.contains(address))
            node.addresses << address;
    const QJsonObject capacity = status.value("capacity"_L1).toObject();
    node.cpus = quantityInt(capacity, "cpu"_L1);
    if (const std::optional<double> memory = KubeQuantity::parse(capacity.value("memory"_L1).toString()))
        node.memoryMiB = qint64(*memory / 1048576.0);
    const KubeGpuInfo gpus = KubeGpuLabels::read(labels, capacity, node.instanceType, catalog);
    node.gpuCount = gpus.gpuCount;
    node.gpuCountRefused = gpus.refused;
    node.gpuModel = gpus.model;
    node.gpuSharing = gpus.sharing;

    QString readyStatus = u"Unknown"_s;
    QString readyMessage;
    QString pressureMessage;
    QStringList pressureFlags;
    for (const QJsonValue &value : status.value("conditions"_L1).toArray()) {
        const QJsonObject condition = value.toObject();
        const QString type = KubeJson::string(condition, "type"_L1);
        const QString conditionStatus = KubeJson::string(condition, "status"_L1);
        if (type == QLatin1String("Ready")) {
            readyStatus = conditionStatus;
            readyMessage = KubeJson::string(condition, "message"_L1);
            if (readyMessage.isEmpty())
                readyMessage = KubeJson::string(condition, "reason"_L1);
            continue;
        }
        for (const ConditionFlag &c : kPressureConditions)
            if (type == c.type && conditionStatus == QLatin1String("True")) {
                pressureFlags << QString(c.flag);
                if (pressureMessage.isEmpty())
                    pressureMessage = u"%1: %2"_s.arg(type, KubeJson::string(condition, "message"_L1));
            }
    }
    const bool cordoned = spec.value("unschedulable"_L1).toBool();
    const bool ready = readyStatus == QLatin1String("True");
    node.state = !ready ? u"notready"_s : cordoned ? u"cordoned"_s : u"ready"_s;
    node.stateFlags << (ready ? u"READY"_s : readyStatus == QLatin1String("False") ? u"NOTREADY"_s : u"UNKNOWN"_s);
    if (cordoned)
        node.stateFlags << u"CORDONED"_s << u"DRAIN"_s;
    node.stateFlags << pressureFlags;
    const QString health = labels.value(KubeNodeParser::healthLabel());
    if (!health.isEmpty() && health != QLatin1String("Schedulable"))
        node.stateFlags << u"UNHEALTHY"_s;

    const QString drainReason = annotations.value(KubeNodeParser::drainReasonAnnotation());
    if (cordoned && !drainReason.isEmpty())
        node.reason = drainReason;
    else if (!ready)
        node.reason = readyStatus == QLatin1String("Unknown") && readyMessage.isEmpty()
                          ? u"Kubelet stopped posting node status"_s
                          : readyMessage;
    else if (!pressureMessage.isEmpty())
        node.reason = pressureMessage;
    else if (node.stateFlags.contains(u"UNHEALTHY"_s))
        node.reason = u"node-health-status: %1"_s.arg(health);

    QString pool;
    for (QLatin1StringView label : kPoolLabels)
        if (!(pool = labels.value(label)).isEmpty())
            break;
    if (pool.isEmpty())
        pool = node.instanceType.isEmpty() ? u"default"_s : node.instanceType;
    node.partitions << pool;

    for (QLatin1StringView label : kFeatureLabels)
        if (labels.contains(label))
            node.features << u"%1=%2"_s.arg(QString(label), labels.value(label));
    for (auto it = labels.constBegin(); it != labels.constEnd(); ++it)
        if (it.key().startsWith(QLatin1String("node-role.kubernetes.io/")))
            node.features << u"role=%1"_s.arg(it.key().mid(24));
    for (const QJsonValue &value : spec.value("taints"_L1).toArray()) {
        const QJsonObject taint = value.toObject();
        const QString taintValue = KubeJson::string(taint, "value"_L1);
        node.features << u"taint:%1%2:%3"_s.arg(KubeJson::string(taint, "key"_L1),
                                                 taintValue.isEmpty() ? QString() : u"="_s + taintValue,
                                                 KubeJson::string(taint, "effect"_L1));
    }
    return node;
}

} // namespace

KubeNodeParseResult KubeNodeParser::parse(const QByteArray &json, const GpuCatalog &catalog)
{
    KubeNodeParseResult result;
    if (!KubeJson::parseList(json, "Node"_L1, &result.nodes, &result.error,
                             [&catalog](const QJsonObject &item) { return parseNode(item, catalog); }))
        return result;
    std::sort(result.nodes.begin(), result.nodes.end(),
              [](const Node &a, const Node &b) { return a.name < b.name; });
    return result;
}

Node KubeNodeParser::parseObject(const QJsonObject &object, const GpuCatalog &catalog)
{
    return parseNode(object, catalog);
}

} // namespace strata
