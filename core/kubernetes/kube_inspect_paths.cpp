#include "kube_inspect_paths.h"

#include "kubectl_commands.h"

#include <QRegularExpression>
#include <QUrl>

namespace strata {

using namespace Qt::StringLiterals;

namespace {

QString encoded(const QString &value)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(value));
}

bool validNamespaceAndName(const QString &ns, const QString &name, QString *error)
{
    if (!KubectlCommands::isValidNamespace(ns)) {
        *error = KubectlCommands::namespaceProblem(ns);
        return false;
    }
    if (!KubectlCommands::isValidObjectName(name)) {
        *error = u"'%1' is not a valid object name"_s.arg(encoded(name.left(253)));
        return false;
    }
    return true;
}

} // namespace

namespace KubeInspectPaths {

QString objectPath(const KubeObjectRef &ref, QString *error)
{
    static const QRegularExpression apiVersion(uR"(^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?v[0-9]+((alpha|beta)[0-9]+)?$)"_s);
    static const QRegularExpression resource(uR"(^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$)"_s);
    if (!apiVersion.match(ref.apiVersion).hasMatch()) {
        *error = u"'%1' is not an apiVersion Strata can read"_s.arg(encoded(ref.apiVersion.left(100)));
        return {};
    }
    if (!resource.match(ref.resource).hasMatch() || ref.resource.size() > 253) {
        *error = u"'%1' is not a resource name"_s.arg(encoded(ref.resource.left(100)));
        return {};
    }
    if (!KubectlCommands::isValidObjectName(ref.name)) {
        *error = u"'%1' is not a valid object name"_s.arg(encoded(ref.name.left(253)));
        return {};
    }
    QString path = ref.apiVersion.contains(u'/') ? u"/apis/"_s + ref.apiVersion : u"/api/"_s + ref.apiVersion;
    if (ref.namespaced) {
        if (!KubectlCommands::isValidNamespace(ref.namespaceName)) {
            *error = KubectlCommands::namespaceProblem(ref.namespaceName);
            return {};
        }
        path += u"/namespaces/"_s + ref.namespaceName;
    }
    return path + u'/' + ref.resource + u'/' + encoded(ref.name);
}

QString eventsUri(const KubeObjectRef &ref, int limit, QString *error)
{
    const QString limitQuery = u"limit=%1"_s.arg(qMax(1, limit));
    if (ref.isEmpty() && ref.namespaceName.isEmpty())
        return u"/api/v1/events?"_s + limitQuery;
    if (ref.isEmpty()) {
        if (!KubectlCommands::isValidNamespace(ref.namespaceName)) {
            *error = KubectlCommands::namespaceProblem(ref.namespaceName);
            return {};
        }
        return u"/api/v1/namespaces/%1/events?"_s.arg(ref.namespaceName) + limitQuery;
    }
    if (ref.name.isEmpty() || ref.name.size() > 253 || ref.name.contains(u',') || ref.name.contains(u'=')) {
        *error = u"'%1' is not a valid object name"_s.arg(encoded(ref.name.left(253)));
        return {};
    }
    QStringList fields{u"involvedObject.name="_s + ref.name};
    QString path = u"/api/v1/events"_s;
    if (ref.namespaced) {
        if (!KubectlCommands::isValidNamespace(ref.namespaceName)) {
            *error = KubectlCommands::namespaceProblem(ref.namespaceName);
            return {};
        }
        fields << u"involvedObject.namespace="_s + ref.namespaceName;
        path = u"/api/v1/namespaces/%1/events"_s.arg(ref.namespaceName);
    }
    if (!ref.kind.isEmpty() && !ref.kind.contains(u',') && !ref.kind.contains(u'='))
        fields << u"involvedObject.kind="_s + ref.kind;
    static const QRegularExpression uid(uR"(^[-0-9a-zA-Z]{1,64}$)"_s);
    if (uid.match(ref.uid).hasMatch())
        fields << u"involvedObject.uid="_s + ref.uid;
    return u"%1?fieldSelector=%2&%3"_s.arg(path, encoded(fields.join(u',')), limitQuery);
}

QString logUri(const QString &ns, const QString &pod, const QString &container, bool previous, int tailLines,
               QString *error)
{
    if (!validNamespaceAndName(ns, pod, error))
        return {};
    QStringList query;
    if (!container.isEmpty()) {
        if (!KubectlCommands::isValidNamespace(container)) { // a container name is a DNS-1123 label
            *error = u"'%1' is not a valid container name"_s.arg(encoded(container.left(63)));
            return {};
        }
        query << u"container="_s + container;
    }
    if (previous)
        query << u"previous=true"_s;
    if (tailLines > 0)
        query << u"tailLines=%1"_s.arg(tailLines);
    const QString path = u"/api/v1/namespaces/%1/pods/%2/log"_s.arg(ns, pod);
    return query.isEmpty() ? path : path + u'?' + query.join(u'&');
}

QString selectedPodsUri(const QString &ns, const QString &labelSelector, QString *error)
{
    if (!KubectlCommands::isValidNamespace(ns)) {
        *error = KubectlCommands::namespaceProblem(ns);
        return {};
    }
    if (labelSelector.isEmpty()) {
        *error = u"an empty label selector would select every pod"_s;
        return {};
    }
    return u"/api/v1/namespaces/%1/pods?labelSelector=%2"_s.arg(ns, encoded(labelSelector));
}

} // namespace KubeInspectPaths

} // namespace strata
