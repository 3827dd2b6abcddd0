#include "fabric_kube_parser.h"

#include "fabric_kube_job.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata {

namespace {

using namespace Qt::StringLiterals;

const QString kCompletionIndex = u"batch.kubernetes.io/job-completion-index"_s;

} // namespace

QHash<QString, FabricKubeGroup> parseFabricKubeObjects(const QByteArray &json, QString *error)
{
    QHash<QString, FabricKubeGroup> groups;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (!doc.isObject()) {
        *error = u"kubectl's answer is not a JSON object (%1)"_s.arg(parseError.errorString());
        return groups;
    }
    const QJsonArray items = doc.object().value(u"items"_s).toArray();
    for (const QJsonValue &v : items) {
        const QJsonObject item = v.toObject();
        const QString kind = item.value(u"kind"_s).toString();
        const QJsonObject meta = item.value(u"metadata"_s).toObject();
        if (kind == u"Job"_s) {
            FabricKubeGroup &g = groups[meta.value(u"name"_s).toString()];
            g.found = true;
            for (const QJsonValue &c :
                 item.value(u"status"_s).toObject().value(u"conditions"_s).toArray()) {
                const QJsonObject cond = c.toObject();
                const QString type = cond.value(u"type"_s).toString();
                if (cond.value(u"status"_s).toString() != u"True"_s ||
                    (type != u"Complete"_s && type != u"Failed"_s))
                    continue;
                g.ended = true;
                const QString reason = cond.value(u"reason"_s).toString();
                const QString message = cond.value(u"message"_s).toString();
                g.how = type == u"Complete"_s || reason.isEmpty()
                            ? type
                            : u"%1 (%2%3)"_s.arg(type, reason,
                                                 message.isEmpty() ? QString() : u": "_s + message);
            }
        } else if (kind == u"Pod"_s) {
            const QString group =
                meta.value(u"labels"_s).toObject().value(FabricKubeJob::groupLabel()).toString();
            if (group.isEmpty())
                continue;
            FabricKubePod pod;
            pod.name = meta.value(u"name"_s).toString();
            pod.node = item.value(u"spec"_s).toObject().value(u"nodeName"_s).toString();
            bool ok = false;
            const int index = meta.value(u"annotations"_s)
                                  .toObject()
                                  .value(kCompletionIndex)
                                  .toString()
                                  .toInt(&ok);
            pod.index = ok ? index : -1;
            const QJsonObject status = item.value(u"status"_s).toObject();
            pod.phase = status.value(u"phase"_s).toString();
            for (const QJsonValue &c : status.value(u"conditions"_s).toArray()) {
                const QJsonObject cond = c.toObject();
                if (cond.value(u"type"_s).toString() == u"PodScheduled"_s &&
                    cond.value(u"status"_s).toString() == u"False"_s)
                    pod.unschedulable = cond.value(u"message"_s).toString();
            }
            groups[group].pods << pod;
        }
    }
    return groups;
}

QHash<QString, bool> parseKubeNodesUnschedulable(const QByteArray &json, QString *error)
{
    QHash<QString, bool> nodes;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (!doc.isObject()) {
        *error = u"kubectl's answer is not a JSON object (%1)"_s.arg(parseError.errorString());
        return nodes;
    }
    const QJsonObject root = doc.object();
    // One node named gives the Node itself, several a List.
    const QJsonArray items = root.value(u"kind"_s).toString() == u"Node"_s
                                 ? QJsonArray{root}
                                 : root.value(u"items"_s).toArray();
    for (const QJsonValue &v : items) {
        const QJsonObject node = v.toObject();
        nodes.insert(node.value(u"metadata"_s).toObject().value(u"name"_s).toString(),
                     node.value(u"spec"_s).toObject().value(u"unschedulable"_s).toBool());
    }
    return nodes;
}

} // namespace strata
