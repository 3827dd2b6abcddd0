#include "kube_forward_resolver.h"

#include "kube_json.h"

#include <QRegularExpression>

#include <algorithm>

namespace strata {

using namespace Qt::StringLiterals;

namespace KubeForwardResolver {

bool validPort(const QString &port, QString *error)
{
    bool numeric = false;
    const int number = port.toInt(&numeric);
    if (numeric) {
        if (number >= 1 && number <= 65535)
            return true;
        *error = u"port %1 is not between 1 and 65535"_s.arg(number);
        return false;
    }
    static const QRegularExpression name(uR"(^[a-z0-9]([-a-z0-9]*[a-z0-9])?$)"_s);
    if (port.size() <= 15 && name.match(port).hasMatch() && port.contains(QRegularExpression(u"[a-z]"_s)))
        return true;
    *error = u"'%1' is neither a port number nor a port name"_s.arg(QString::fromLatin1(port.left(40).toUtf8().toPercentEncoding()));
    return false;
}

bool podBackend(const KubePodSummary &pod, const QString &port, KubeForwardTarget *target)
{
    target->podNamespace = pod.namespaceName;
    target->podName = pod.name;
    target->podIp = pod.podIp;
    if (pod.phase != "Running"_L1) {
        target->error = u"pod %1/%2 is %3, not Running: nothing listens there"_s.arg(
            pod.namespaceName, pod.name, pod.phase.isEmpty() ? u"without a phase"_s : pod.phase);
        target->errorKind = ErrorKind::InvalidRequest;
        return false;
    }
    if (pod.podIp.isEmpty()) {
        target->error = u"pod %1/%2 has no IP yet"_s.arg(pod.namespaceName, pod.name);
        target->errorKind = ErrorKind::InvalidRequest;
        return false;
    }
    bool numeric = false;
    const int number = port.toInt(&numeric);
    if (numeric) {
        target->port = number;
    } else if (const std::optional<int> named = pod.namedPort(port)) {
        target->port = *named;
    } else {
        target->error = u"pod %1/%2 has no container port named %3"_s.arg(pod.namespaceName, pod.name, port);
        target->errorKind = ErrorKind::InvalidRequest;
        return false;
    }
    target->ok = true;
    return true;
}

bool serviceBackend(const QByteArray &serviceJson, const QString &port, QString *selector, QString *targetPort,
                    QString *error)
{
    QJsonArray items;
    if (!KubeJson::listItems(serviceJson, "Service"_L1, &items, error))
        return false;
    const QJsonObject service = items.first().toObject();
    const QString name = KubeJson::string(service.value("metadata"_L1).toObject(), "name"_L1);
    const QJsonObject spec = service.value("spec"_L1).toObject();
    const QMap<QString, QString> labels = KubeJson::stringMap(spec, "selector"_L1);
    if (labels.isEmpty()) {
        *error = u"service %1 has no selector: Strata cannot tell which pod serves it"_s.arg(name);
        return false;
    }
    QStringList pairs;
    for (auto it = labels.cbegin(); it != labels.cend(); ++it)
        pairs << it.key() + u'=' + it.value();
    *selector = pairs.join(u',');
    bool numeric = false;
    const int number = port.toInt(&numeric);
    for (const QJsonValue &value : spec.value("ports"_L1).toArray()) {
        const QJsonObject p = value.toObject();
        const bool matches = numeric ? p.value("port"_L1).toInt() == number : KubeJson::string(p, "name"_L1) == port;
        if (!matches)
            continue;
        const QJsonValue target = p.value("targetPort"_L1);
        // targetPort defaults to the port itself (the API server fills it in; an old object may not).
        *targetPort = target.isString() ? target.toString()
            : target.isDouble()         ? QString::number(target.toInt())
                                        : QString::number(p.value("port"_L1).toInt());
        return true;
    }
    *error = u"service %1 does not have a service port %2"_s.arg(name, port);
    return false;
}

std::optional<KubePodSummary> pickReadyPod(const QByteArray &podListJson, QString *error)
{
    QJsonArray items;
    if (!KubeJson::listItems(podListJson, "Pod"_L1, &items, error))
        return std::nullopt;
    QVector<KubePodSummary> running;
    for (const QJsonValue &item : std::as_const(items)) {
        KubePodSummary pod = KubePodContainers::parsePodObject(item.toObject());
        if (pod.phase == "Running"_L1 && !pod.podIp.isEmpty())
            running.append(std::move(pod));
    }
    if (running.isEmpty()) {
        *error = items.isEmpty() ? u"no pod matches the service's selector"_s
                                 : u"none of the %1 pods the service selects is running"_s.arg(items.size());
        return std::nullopt;
    }
    // As kubectl (its ActivePods order): a ready pod before one that is not (a sidecar in
    // back-off makes the whole pod unready while its server answers), then by name.
    std::sort(running.begin(), running.end(), [](const KubePodSummary &a, const KubePodSummary &b) {
        return a.ready != b.ready ? a.ready : a.name < b.name;
    });
    return running.first();
}

} // namespace KubeForwardResolver

} // namespace strata
