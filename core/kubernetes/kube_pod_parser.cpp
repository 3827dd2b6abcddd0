#include "kube_pod_parser.h"

#include "kube_json.h"
#include "kube_pod_launch.h"
#include "kube_quantity.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

using namespace Qt::StringLiterals;

QVector<int> parseIndices(const QString &text)
{
    QVector<int> indices;
    for (QStringView part : QStringView(text).split(u',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const int index = part.trimmed().toInt(&ok);
        if (ok && index >= 0)
            indices << index;
    }
    std::sort(indices.begin(), indices.end());
    return indices;
}

// Whole, shared and MIG GPU resources the containers request (requests, else limits: the API
// defaults one to the other for extended resources).
QMap<QString, int> gpuRequests(const QJsonArray &containers)
{
    QSet<QString> names;
    for (const QJsonValue &value : containers) {
        const QJsonObject resources = value.toObject().value("resources"_L1).toObject();
        for (const char *kind : {"requests", "limits"})
            for (const QString &name : resources.value(QLatin1String(kind)).toObject().keys())
                if (name == QLatin1String("nvidia.com/gpu") || name.startsWith(QLatin1String("nvidia.com/gpu."))
                    || name.startsWith(QLatin1String("nvidia.com/mig-")))
                    names.insert(name);
    }
    QMap<QString, int> amounts;
    for (const QString &name : std::as_const(names)) {
        const int amount = KubeQuantity::wholeCount(
            KubeJson::containerRequest(containers, QLatin1StringView(name.toLatin1())));
        if (amount > 0)
            amounts.insert(name, amount);
    }
    return amounts;
}

// kubectl's STATUS column (printPod): the phase, overridden by container states.
void fillStatus(KubePod &pod, const QJsonObject &status, const QJsonObject &metadata)
{
    pod.status = KubeJson::string(status, "reason"_L1);
    if (pod.status.isEmpty())
        pod.status = pod.phase.isEmpty() ? u"Pending"_s : pod.phase;
    bool running = false;
    const QJsonArray containers = status.value("containerStatuses"_L1).toArray();
    for (qsizetype i = containers.size() - 1; i >= 0; --i) {
        const QJsonObject cs = containers.at(i).toObject();
        pod.restarts += cs.value("restartCount"_L1).toInt();
        const QJsonObject state = cs.value("state"_L1).toObject();
        const QJsonObject waiting = state.value("waiting"_L1).toObject();
        const QJsonObject terminated = state.value("terminated"_L1).toObject();
        if (!KubeJson::string(waiting, "reason"_L1).isEmpty()) {
            pod.status = KubeJson::string(waiting, "reason"_L1);
            if (pod.message.isEmpty())
                pod.message = KubeJson::string(waiting, "message"_L1);
        } else if (state.contains("terminated"_L1)) {
            pod.status = KubeJson::string(terminated, "reason"_L1);
            if (pod.status.isEmpty())
                pod.status = u"ExitCode:%1"_s.arg(terminated.value("exitCode"_L1).toInt());
            pod.finishedAt = std::max(pod.finishedAt, KubeJson::timestamp(terminated, "finishedAt"_L1));
        } else if (state.contains("running"_L1) && cs.value("ready"_L1).toBool()) {
            running = true;
        }
    }
    if (pod.status == QLatin1String("Completed") && running)
        pod.status = u"Running"_s;
    if (pod.deleting || !KubeJson::string(metadata, "deletionTimestamp"_L1).isEmpty())
        pod.status = u"Terminating"_s;
}

KubePod parsePod(const QJsonObject &object)
{
    KubePod pod;
    const QJsonObject metadata = object.value("metadata"_L1).toObject();
    const QJsonObject spec = object.value("spec"_L1).toObject();
    const QJsonObject status = object.value("status"_L1).toObject();
    pod.namespaceName = KubeJson::string(metadata, "namespace"_L1);
    pod.name = KubeJson::string(metadata, "name"_L1);
    pod.uid = KubeJson::string(metadata, "uid"_L1);
    pod.labels = KubeJson::stringMap(metadata, "labels"_L1);
    pod.createdAt = KubeJson::timestamp(metadata, "creationTimestamp"_L1);
    pod.deleting = metadata.contains("deletionTimestamp"_L1);
    for (const QJsonValue &ref : metadata.value("ownerReferences"_L1).toArray()) {
        const QJsonObject owner = ref.toObject();
        if (owner.value("controller"_L1).toBool() || pod.ownerKind.isEmpty()) {
            pod.ownerKind = KubeJson::string(owner, "kind"_L1);
            pod.ownerName = KubeJson::string(owner, "name"_L1);
            pod.ownerUid = KubeJson::string(owner, "uid"_L1);
            pod.ownerApiVersion = KubeJson::string(owner, "apiVersion"_L1);
        }
    }
    const QJsonObject annotations = metadata.value("annotations"_L1).toObject();
    pod.gpuIndices = parseIndices(annotations.value(KubePodParser::gpuIndicesAnnotation()).toString());

    pod.nodeName = KubeJson::string(spec, "nodeName"_L1);
    const QJsonArray containers = spec.value("containers"_L1).toArray();
    pod.gpuResources = gpuRequests(containers);
    for (int amount : std::as_const(pod.gpuResources))
        pod.gpus += amount;
    pod.cpus = KubeJson::containerRequest(containers, "cpu"_L1);
    KubePodLaunch launch = KubePodLaunchReader::read(spec);
    pod.image = std::move(launch.image);
    pod.command = std::move(launch.command);
    pod.workDir = std::move(launch.workDir);
    // Only a bare GPU pod becomes a job of its own (KubernetesPartBuilder); a batch Job's pods
    // are read through its template. Others keep no script: a cluster lists tens of thousands.
    if (pod.gpus > 0 && pod.ownerKind != "Job"_L1)
        pod.script = std::move(launch.script);

    pod.phase = KubeJson::string(status, "phase"_L1);
    pod.startedAt = KubeJson::timestamp(status, "startTime"_L1);
    pod.reason = KubeJson::string(status, "reason"_L1);
    pod.message = KubeJson::string(status, "message"_L1);
    for (const QJsonValue &value : status.value("conditions"_L1).toArray()) {
        const QJsonObject condition = value.toObject();
        if (KubeJson::string(condition, "type"_L1) == QLatin1String("PodScheduled")
            && KubeJson::string(condition, "status"_L1) == QLatin1String("False")) {
            pod.reason = KubeJson::string(condition, "reason"_L1);
            pod.message = KubeJson::string(condition, "message"_L1);
        }
    }
    fillStatus(pod, status, metadata);
    return pod;
}

} // namespace

KubePodParseResult KubePodParser::parse(const QByteArray &json)
{
    KubePodParseResult result;
    if (KubeJson::parseList(json, "Pod"_L1, &result.pods, &result.error, parsePod)) {
        const KubeJson::ListMetadata metadata = KubeJson::listMetadata(json);
        result.resourceVersion = metadata.resourceVersion;
        result.continueToken = metadata.continueToken;
    }
    return result;
}

KubePod KubePodParser::parseObject(const QJsonObject &object)
{
    return parsePod(object);
}

} // namespace strata
