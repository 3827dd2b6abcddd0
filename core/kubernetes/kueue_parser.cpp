#include "kueue_parser.h"

#include "kube_json.h"
#include "kube_quantity.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace strata {

namespace {

using namespace Qt::StringLiterals;

// A quantity as the API writes it ("16", a string) or as a hand-written object might (16).
std::optional<double> quantity(const QJsonValue &value)
{
    if (value.isDouble())
        return value.toDouble();
    if (value.isString())
        return KubeQuantity::parse(value.toString());
    return std::nullopt;
}

std::optional<int> gpuCount(const QJsonValue &value)
{
    const std::optional<double> q = quantity(value);
    if (!q)
        return std::nullopt;
    return KubeQuantity::wholeCount(q);
}

QueueFlavor &flavorNamed(QVector<QueueFlavor> &flavors, const QString &name)
{
    for (QueueFlavor &f : flavors)
        if (f.name == name)
            return f;
    flavors.append(QueueFlavor{});
    flavors.last().name = name;
    return flavors.last();
}

// status.flavorsReservation / flavorsUsage (LocalQueue: flavorUsage): [{name, resources: [{name, total, borrowed}]}].
template <typename Apply>
void readUsage(const QJsonArray &usage, QVector<QueueFlavor> &flavors, Apply apply)
{
    for (const QJsonValue &value : usage) {
        const QJsonObject flavor = value.toObject();
        const QString name = KubeJson::string(flavor, "name"_L1);
        if (name.isEmpty())
            continue;
        for (const QJsonValue &r : flavor.value("resources"_L1).toArray()) {
            const QJsonObject resource = r.toObject();
            if (KubeJson::string(resource, "name"_L1) == KueueParser::gpuResource())
                apply(flavorNamed(flavors, name), resource);
        }
    }
}

QVector<QueueCondition> conditions(const QJsonObject &status)
{
    QVector<QueueCondition> out;
    for (const QJsonValue &value : status.value("conditions"_L1).toArray()) {
        const QJsonObject c = value.toObject();
        QueueCondition condition;
        condition.type = KubeJson::string(c, "type"_L1);
        condition.isTrue = KubeJson::string(c, "status"_L1) == QLatin1String("True");
        condition.reason = KubeJson::string(c, "reason"_L1);
        condition.message = KubeJson::string(c, "message"_L1);
        if (!condition.type.isEmpty())
            out << condition;
    }
    return out;
}

void readCounts(Queue &queue, const QJsonObject &status)
{
    queue.pendingWorkloads = qMax(0, status.value("pendingWorkloads"_L1).toInt());
    queue.reservingWorkloads = qMax(0, status.value("reservingWorkloads"_L1).toInt());
    queue.admittedWorkloads = qMax(0, status.value("admittedWorkloads"_L1).toInt());
    queue.conditions = conditions(status);
}

Queue clusterQueue(const QJsonObject &object)
{
    Queue queue;
    queue.kind = Queue::Kind::Cluster;
    const QJsonObject metadata = object.value("metadata"_L1).toObject();
    const QJsonObject spec = object.value("spec"_L1).toObject();
    const QJsonObject status = object.value("status"_L1).toObject();
    queue.name = KubeJson::string(metadata, "name"_L1);
    queue.clusterQueue = queue.name;
    queue.cohort = KubeJson::string(spec, "cohort"_L1); // v1beta1; v1beta2 names it cohortName
    if (queue.cohort.isEmpty())
        queue.cohort = KubeJson::string(spec, "cohortName"_L1);
    queue.queueingStrategy = KubeJson::string(spec, "queueingStrategy"_L1);
    queue.stopPolicy = KubeJson::string(spec, "stopPolicy"_L1);
    // Every flavor of every resource group, in the order Kueue tries them; GPU quota where the
    // group covers nvidia.com/gpu.
    for (const QJsonValue &group : spec.value("resourceGroups"_L1).toArray())
        for (const QJsonValue &value : group.toObject().value("flavors"_L1).toArray()) {
            const QJsonObject flavor = value.toObject();
            const QString name = KubeJson::string(flavor, "name"_L1);
            if (name.isEmpty())
                continue;
            QueueFlavor &f = flavorNamed(queue.flavors, name);
            for (const QJsonValue &r : flavor.value("resources"_L1).toArray()) {
                const QJsonObject resource = r.toObject();
                if (KubeJson::string(resource, "name"_L1) != KueueParser::gpuResource())
                    continue;
                f.gpuQuota = gpuCount(resource.value("nominalQuota"_L1));
                f.gpuBorrowingLimit = gpuCount(resource.value("borrowingLimit"_L1));
                f.gpuLendingLimit = gpuCount(resource.value("lendingLimit"_L1));
            }
        }
    readUsage(status.value("flavorsReservation"_L1).toArray(), queue.flavors,
              [](QueueFlavor &f, const QJsonObject &r) { f.gpusReserved = gpuCount(r.value("total"_L1)).value_or(0); });
    readUsage(status.value("flavorsUsage"_L1).toArray(), queue.flavors, [](QueueFlavor &f, const QJsonObject &r) {
        f.gpusUsed = gpuCount(r.value("total"_L1)).value_or(0);
        f.gpusBorrowed = gpuCount(r.value("borrowed"_L1)).value_or(0);
    });
    readCounts(queue, status);
    return queue;
}

Queue localQueue(const QJsonObject &object)
{
    Queue queue;
    queue.kind = Queue::Kind::Local;
    const QJsonObject metadata = object.value("metadata"_L1).toObject();
    const QJsonObject spec = object.value("spec"_L1).toObject();
    const QJsonObject status = object.value("status"_L1).toObject();
    queue.name = KubeJson::string(metadata, "name"_L1);
    queue.namespaceName = KubeJson::string(metadata, "namespace"_L1);
    queue.clusterQueue = KubeJson::string(spec, "clusterQueue"_L1);
    queue.stopPolicy = KubeJson::string(spec, "stopPolicy"_L1);
    readUsage(status.value("flavorsReservation"_L1).toArray(), queue.flavors,
              [](QueueFlavor &f, const QJsonObject &r) { f.gpusReserved = gpuCount(r.value("total"_L1)).value_or(0); });
    // v1beta1 spells the LocalQueue's usage flavorUsage (the ClusterQueue's is flavorsUsage).
    for (QLatin1StringView key : {"flavorUsage"_L1, "flavorsUsage"_L1})
        readUsage(status.value(key).toArray(), queue.flavors, [](QueueFlavor &f, const QJsonObject &r) {
            f.gpusUsed = gpuCount(r.value("total"_L1)).value_or(0);
        });
    readCounts(queue, status);
    return queue;
}

// The condition of a type whose status is True, or null.
const QJsonObject *trueCondition(const QVector<QJsonObject> &all, QLatin1StringView type)
{
    for (const QJsonObject &c : all)
        if (KubeJson::string(c, "type"_L1) == type && KubeJson::string(c, "status"_L1) == QLatin1String("True"))
            return &c;
    return nullptr;
}

const QJsonObject *conditionOf(const QVector<QJsonObject> &all, QLatin1StringView type)
{
    for (const QJsonObject &c : all)
        if (KubeJson::string(c, "type"_L1) == type)
            return &c;
    return nullptr;
}

KueueWorkload workload(const QJsonObject &object)
{
    KueueWorkload w;
    const QJsonObject metadata = object.value("metadata"_L1).toObject();
    const QJsonObject spec = object.value("spec"_L1).toObject();
    const QJsonObject status = object.value("status"_L1).toObject();
    w.namespaceName = KubeJson::string(metadata, "namespace"_L1);
    w.name = KubeJson::string(metadata, "name"_L1);
    w.createdAt = KubeJson::timestamp(metadata, "creationTimestamp"_L1);
    const QJsonArray owners = metadata.value("ownerReferences"_L1).toArray();
    QJsonObject owner = owners.isEmpty() ? QJsonObject{} : owners.first().toObject();
    for (const QJsonValue &value : owners)
        if (value.toObject().value("controller"_L1).toBool()) {
            owner = value.toObject();
            break;
        }
    w.ownerKind = KubeJson::string(owner, "kind"_L1);
    w.ownerApiVersion = KubeJson::string(owner, "apiVersion"_L1);
    w.ownerName = KubeJson::string(owner, "name"_L1);
    w.queueName = KubeJson::string(spec, "queueName"_L1);
    w.priority = spec.value("priority"_L1).toInt();
    double gpus = 0;
    for (const QJsonValue &value : spec.value("podSets"_L1).toArray()) {
        const QJsonObject podSet = value.toObject();
        const QJsonArray containers =
            podSet.value("template"_L1).toObject().value("spec"_L1).toObject().value("containers"_L1).toArray();
        gpus += qMax(0, podSet.value("count"_L1).toInt()) * KubeJson::containerRequest(containers, KueueParser::gpuResource());
    }
    w.gpus = KubeQuantity::wholeCount(gpus);
    w.clusterQueue = KubeJson::string(status.value("admission"_L1).toObject(), "clusterQueue"_L1);

    QVector<QJsonObject> all;
    for (const QJsonValue &value : status.value("conditions"_L1).toArray())
        all << value.toObject();
    const auto decide = [&w](KueueWorkload::State state, const QJsonObject *condition) {
        w.state = state;
        if (condition) {
            w.reason = KubeJson::string(*condition, "reason"_L1);
            w.message = KubeJson::string(*condition, "message"_L1);
        }
    };
    // Kueue's precedence: a finished workload is finished whatever else it says; one held out
    // (spec.active false) waits for no quota; an eviction stands until quota is reserved again
    // (Kueue then sets Evicted False); Admitted needs QuotaReserved and every admission check.
    if (const QJsonObject *finished = trueCondition(all, "Finished"_L1))
        decide(KueueWorkload::State::Finished, finished);
    else if (spec.contains("active"_L1) && !spec.value("active"_L1).toBool(true))
        decide(KueueWorkload::State::Inactive, trueCondition(all, "Evicted"_L1));
    else if (const QJsonObject *evicted = trueCondition(all, "Evicted"_L1))
        decide(KueueWorkload::State::Evicted, evicted);
    else if (const QJsonObject *admitted = trueCondition(all, "Admitted"_L1))
        decide(KueueWorkload::State::Admitted, admitted);
    else if (const QJsonObject *reserved = trueCondition(all, "QuotaReserved"_L1))
        decide(KueueWorkload::State::Reserved, reserved);
    else
        decide(KueueWorkload::State::Pending, conditionOf(all, "QuotaReserved"_L1));
    if (const QJsonObject *preempted = trueCondition(all, "Preempted"_L1))
        w.preemptedReason = KubeJson::string(*preempted, "reason"_L1);
    return w;
}

} // namespace

KueueQueueParseResult KueueParser::parseClusterQueues(const QByteArray &json)
{
    KueueQueueParseResult result;
    KubeJson::parseList(json, "ClusterQueue"_L1, &result.queues, &result.error, clusterQueue);
    return result;
}

Queue KueueParser::parseClusterQueue(const QJsonObject &object)
{
    return clusterQueue(object);
}

KueueQueueParseResult KueueParser::parseLocalQueues(const QByteArray &json)
{
    KueueQueueParseResult result;
    KubeJson::parseList(json, "LocalQueue"_L1, &result.queues, &result.error, localQueue);
    return result;
}

Queue KueueParser::parseLocalQueue(const QJsonObject &object)
{
    return localQueue(object);
}

KueueWorkloadParseResult KueueParser::parseWorkloads(const QByteArray &json)
{
    KueueWorkloadParseResult result;
    KubeJson::parseList(json, "Workload"_L1, &result.workloads, &result.error, workload);
    return result;
}

KueueWorkload KueueParser::parseWorkload(const QJsonObject &object)
{
    return workload(object);
}

KueuePendingParseResult KueueParser::parsePendingWorkloads(const QByteArray &json)
{
    KueuePendingParseResult result;
    if (const QString problem = InputCheck::problem(json, KubeJson::maxInputBytes, "the visibility API's answer"_L1);
        !problem.isEmpty()) {
        result.error = problem;
        return result;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        result.error = u"not JSON (%1 at byte %2); expected Kueue's PendingWorkloadsSummary"_s.arg(
            parseError.errorString()).arg(parseError.offset);
        return result;
    }
    const QJsonObject root = doc.object();
    const QString kind = KubeJson::string(root, "kind"_L1);
    if (kind == QLatin1String("Status")) {
        result.error = u"the API answered with an error: %1"_s.arg(KubeJson::string(root, "message"_L1));
        return result;
    }
    if (kind != QLatin1String("PendingWorkloadsSummary")) {
        result.error = u"expected a PendingWorkloadsSummary, got kind \"%1\""_s.arg(kind);
        return result;
    }
    for (const QJsonValue &value : root.value("items"_L1).toArray()) {
        const QJsonObject item = value.toObject();
        const QJsonObject metadata = item.value("metadata"_L1).toObject();
        KueuePendingPosition p;
        p.namespaceName = KubeJson::string(metadata, "namespace"_L1);
        p.name = KubeJson::string(metadata, "name"_L1);
        p.localQueue = KubeJson::string(item, "localQueueName"_L1);
        p.priority = item.value("priority"_L1).toInt();
        p.positionInClusterQueue = item.value("positionInClusterQueue"_L1).toInt(-1);
        p.positionInLocalQueue = item.value("positionInLocalQueue"_L1).toInt(-1);
        if (p.name.isEmpty() || p.positionInClusterQueue < 0) {
            result.error = u"a pending workload without a name or position in the visibility API's answer"_s;
            result.positions.clear();
            return result;
        }
        result.positions << p;
    }
    return result;
}

KueueDiscovery KueueParser::discoveryOf(const QMap<QString, QStringList> &groupVersions)
{
    KueueDiscovery discovery;
    discovery.kueueServed = groupVersions.value(u"kueue.x-k8s.io"_s).contains(u"v1beta1"_s);
    discovery.visibilityServed = groupVersions.value(u"visibility.kueue.x-k8s.io"_s).contains(u"v1beta1"_s);
    return discovery;
}

} // namespace strata
