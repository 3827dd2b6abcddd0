#include "kube_event_parser.h"

#include "kube_json.h"

#include <algorithm>

namespace strata {

using namespace Qt::StringLiterals;

namespace {

KubeEvent parseOne(const QJsonObject &item)
{
    KubeEvent e;
    const QJsonObject metadata = item.value("metadata"_L1).toObject();
    e.namespaceName = KubeJson::string(metadata, "namespace"_L1);
    e.name = KubeJson::string(metadata, "name"_L1);
    e.typeText = KubeJson::string(item, "type"_L1);
    e.type = e.typeText == "Warning"_L1 ? KubeEvent::Type::Warning
        : e.typeText == "Normal"_L1     ? KubeEvent::Type::Normal
                                        : KubeEvent::Type::Other;
    e.reason = KubeJson::string(item, "reason"_L1);
    e.message = KubeJson::string(item, "message"_L1);
    const QJsonObject involved = item.value("involvedObject"_L1).toObject();
    e.objectKind = KubeJson::string(involved, "kind"_L1);
    e.objectNamespace = KubeJson::string(involved, "namespace"_L1);
    e.objectName = KubeJson::string(involved, "name"_L1);
    e.objectUid = KubeJson::string(involved, "uid"_L1);
    e.fieldPath = KubeJson::string(involved, "fieldPath"_L1);
    e.source = KubeJson::string(item, "reportingComponent"_L1);
    if (e.source.isEmpty())
        e.source = KubeJson::string(item.value("source"_L1).toObject(), "component"_L1);
    const QJsonObject series = item.value("series"_L1).toObject();
    const int seriesCount = series.value("count"_L1).toInt(0);
    const int count = item.value("count"_L1).toInt(0);
    e.count = seriesCount > 0 ? seriesCount : count > 0 ? count : 1;
    e.firstSeen = KubeJson::timestamp(item, "firstTimestamp"_L1);
    const qint64 eventTime = KubeJson::timestamp(item, "eventTime"_L1);
    const qint64 created = KubeJson::timestamp(metadata, "creationTimestamp"_L1);
    if (e.firstSeen == 0)
        e.firstSeen = eventTime ? eventTime : created;
    for (const qint64 candidate : {KubeJson::timestamp(series, "lastObservedTime"_L1),
                                   KubeJson::timestamp(item, "lastTimestamp"_L1), eventTime, e.firstSeen, created}) {
        if (candidate > 0) {
            e.lastSeen = candidate;
            break;
        }
    }
    return e;
}

} // namespace

namespace KubeEventParser {

bool parseList(const QByteArray &json, QVector<KubeEvent> *events, QString *error)
{
    QJsonArray items;
    if (!KubeJson::listItems(json, "Event"_L1, &items, error))
        return false;
    events->clear();
    events->reserve(items.size());
    for (const QJsonValue &item : std::as_const(items)) {
        if (!item.isObject()) {
            *error = u"an item of the EventList is not an object"_s;
            return false;
        }
        events->append(parseOne(item.toObject()));
    }
    return true;
}

void sortForDisplay(QVector<KubeEvent> *events)
{
    std::stable_sort(events->begin(), events->end(), [](const KubeEvent &a, const KubeEvent &b) {
        const bool aWarning = a.type == KubeEvent::Type::Warning, bWarning = b.type == KubeEvent::Type::Warning;
        if (aWarning != bWarning)
            return aWarning;
        if (a.lastSeen != b.lastSeen)
            return a.lastSeen > b.lastSeen;
        if (a.namespaceName != b.namespaceName)
            return a.namespaceName < b.namespaceName;
        return a.name < b.name;
    });
}

QString typeName(const KubeEvent &event)
{
    switch (event.type) {
    case KubeEvent::Type::Warning:
        return u"Warning"_s;
    case KubeEvent::Type::Normal:
        return u"Normal"_s;
    case KubeEvent::Type::Other:
        break;
    }
    return event.typeText.isEmpty() ? u"-"_s : event.typeText;
}

} // namespace KubeEventParser

} // namespace strata
