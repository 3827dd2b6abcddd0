#include "kube_pod_containers.h"

#include "kube_json.h"

namespace strata {

using namespace Qt::StringLiterals;

namespace {

QString stateText(const QJsonObject &state)
{
    if (state.contains("running"_L1))
        return u"running"_s;
    if (state.contains("waiting"_L1)) {
        const QString reason = KubeJson::string(state.value("waiting"_L1).toObject(), "reason"_L1);
        return reason.isEmpty() ? u"waiting"_s : u"waiting: "_s + reason;
    }
    if (state.contains("terminated"_L1)) {
        const QJsonObject t = state.value("terminated"_L1).toObject();
        const QString reason = KubeJson::string(t, "reason"_L1);
        return u"terminated: %1 (%2)"_s.arg(reason.isEmpty() ? u"exited"_s : reason).arg(t.value("exitCode"_L1).toInt());
    }
    return {};
}

void addContainers(const QJsonArray &specs, const QJsonArray &statuses, bool init, QVector<KubePodContainer> *out)
{
    for (const QJsonValue &specValue : specs) {
        const QJsonObject spec = specValue.toObject();
        KubePodContainer c;
        c.name = KubeJson::string(spec, "name"_L1);
        c.init = init;
        for (const QJsonValue &port : spec.value("ports"_L1).toArray())
            c.ports.append({KubeJson::string(port.toObject(), "name"_L1), port.toObject().value("containerPort"_L1).toInt()});
        for (const QJsonValue &statusValue : statuses) {
            const QJsonObject status = statusValue.toObject();
            if (KubeJson::string(status, "name"_L1) != c.name)
                continue;
            c.restartCount = status.value("restartCount"_L1).toInt();
            c.state = stateText(status.value("state"_L1).toObject());
            c.hasPrevious = status.value("lastState"_L1).toObject().contains("terminated"_L1);
        }
        out->append(c);
    }
}

} // namespace

std::optional<int> KubePodSummary::namedPort(const QString &portName) const
{
    for (const KubePodContainer &c : containers)
        for (const auto &port : c.ports)
            if (!portName.isEmpty() && port.first == portName)
                return port.second;
    return std::nullopt;
}

namespace KubePodContainers {

KubePodSummary parsePodObject(const QJsonObject &pod)
{
    KubePodSummary s;
    const QJsonObject metadata = pod.value("metadata"_L1).toObject();
    s.namespaceName = KubeJson::string(metadata, "namespace"_L1);
    s.name = KubeJson::string(metadata, "name"_L1);
    const QJsonObject status = pod.value("status"_L1).toObject();
    s.phase = KubeJson::string(status, "phase"_L1);
    s.podIp = KubeJson::string(status, "podIP"_L1);
    for (const QJsonValue &condition : status.value("conditions"_L1).toArray())
        if (KubeJson::string(condition.toObject(), "type"_L1) == "Ready"_L1)
            s.ready = KubeJson::string(condition.toObject(), "status"_L1) == "True"_L1;
    const QJsonObject spec = pod.value("spec"_L1).toObject();
    addContainers(spec.value("initContainers"_L1).toArray(), status.value("initContainerStatuses"_L1).toArray(), true,
                  &s.containers);
    addContainers(spec.value("containers"_L1).toArray(), status.value("containerStatuses"_L1).toArray(), false,
                  &s.containers);
    return s;
}

std::optional<KubePodSummary> parsePod(const QByteArray &json, QString *error)
{
    QJsonArray items;
    if (!KubeJson::listItems(json, "Pod"_L1, &items, error))
        return std::nullopt;
    if (items.size() != 1 || !items.first().isObject()) {
        *error = u"expected one Pod, got %1 objects"_s.arg(items.size());
        return std::nullopt;
    }
    KubePodSummary s = parsePodObject(items.first().toObject());
    if (s.name.isEmpty()) {
        *error = u"a Pod without a name"_s;
        return std::nullopt;
    }
    return s;
}

} // namespace KubePodContainers

} // namespace strata
