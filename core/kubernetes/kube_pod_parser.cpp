#include "kube_pod_parser.h"

#include "kube_json.h"
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
    if (!containers.isEmpty()) {
        const QJsonObject first = containers.first().toObject();
        pod.image = KubeJson::string(first, "image"_L1);
        pod.command = KubeJson::commandLine(first);
        pod.workDir = KubeJson::string(first, "workingDir"_L1);
    }

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

std::optional<KubePodWatchEvent> KubePodParser::parseWatchEvent(QByteArrayView line, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray::fromRawData(line.data(), line.size()), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        *error = parseError.error != QJsonParseError::NoError
            ? u"a pod watch event is not JSON (%1 at byte %2)"_s.arg(parseError.errorString()).arg(parseError.offset)
            : u"a pod watch event is not a JSON object"_s;
        return std::nullopt;
    }
    const QJsonObject event = document.object();
    const QString type = KubeJson::string(event, "type"_L1);
    const QJsonObject object = event.value("object"_L1).toObject();
    KubePodWatchEvent parsed;
    parsed.resourceVersion = KubeJson::string(object.value("metadata"_L1).toObject(), "resourceVersion"_L1);
    static const std::pair<const char *, KubePodWatchEvent::Type> types[] = {
        {"ADDED", KubePodWatchEvent::Type::Added}, {"MODIFIED", KubePodWatchEvent::Type::Modified},
        {"DELETED", KubePodWatchEvent::Type::Deleted}, {"BOOKMARK", KubePodWatchEvent::Type::Bookmark},
        {"ERROR", KubePodWatchEvent::Type::Error}};
    const auto known = std::find_if(std::begin(types), std::end(types),
                                    [&](const auto &t) { return type == QLatin1String(t.first); });
    if (known == std::end(types)) {
        *error = u"a pod watch event of unknown type \"%1\""_s.arg(type.left(40));
        return std::nullopt;
    }
    parsed.type = known->second;
    if (parsed.type == KubePodWatchEvent::Type::Error) {
        parsed.errorCode = object.value("code"_L1).toInt();
        parsed.errorReason = KubeJson::string(object, "reason"_L1);
        parsed.errorMessage = KubeJson::string(object, "message"_L1);
        return parsed;
    }
    if (parsed.type == KubePodWatchEvent::Type::Bookmark)
        return parsed;
    const QString kind = KubeJson::string(object, "kind"_L1);
    if (!kind.isEmpty() && kind != "Pod"_L1) {
        *error = u"a pod watch event holds a %1, not a Pod"_s.arg(kind.left(40));
        return std::nullopt;
    }
    parsed.pod = parsePod(object);
    if (parsed.pod.name.isEmpty()) {
        *error = u"a pod watch event holds a pod without a name"_s;
        return std::nullopt;
    }
    return parsed;
}

} // namespace strata
