#include "kube_discovery_parser.h"

#include "kube_json.h"
#include "model/input_check.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata {

using namespace Qt::StringLiterals;

namespace {

// Discovery documents are a few hundred KB even on large clusters with many CRDs.
constexpr qsizetype kMaxDiscoveryBytes = qsizetype(64) * 1024 * 1024;

bool documentOf(const QByteArray &json, QLatin1StringView kind, QJsonObject *root, QString *error)
{
    if (const QString problem = InputCheck::problem(json, kMaxDiscoveryBytes, "the API's discovery"_L1); !problem.isEmpty()) {
        *error = problem;
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = u"the API's discovery is not JSON (%1 at byte %2)"_s.arg(parseError.errorString()).arg(parseError.offset);
        return false;
    }
    *root = doc.object();
    const QString seen = KubeJson::string(*root, "kind"_L1);
    if (seen != kind) {
        *error = u"expected an %1 from the API's discovery, got kind \"%2\""_s.arg(QString(kind), seen.left(60));
        return false;
    }
    return true;
}

} // namespace

QMap<QString, QStringList> KubeDiscoveryParser::groupVersions(const QByteArray &json, QString *error)
{
    QMap<QString, QStringList> groups;
    QJsonObject root;
    if (!documentOf(json, "APIGroupList"_L1, &root, error))
        return groups;
    for (const QJsonValue &value : root.value("groups"_L1).toArray()) {
        const QJsonObject group = value.toObject();
        const QString name = KubeJson::string(group, "name"_L1);
        if (name.isEmpty())
            continue;
        QStringList versions;
        const QString preferred = KubeJson::string(group.value("preferredVersion"_L1).toObject(), "version"_L1);
        if (!preferred.isEmpty())
            versions << preferred;
        for (const QJsonValue &v : group.value("versions"_L1).toArray()) {
            const QString version = KubeJson::string(v.toObject(), "version"_L1);
            if (!version.isEmpty() && !versions.contains(version))
                versions << version;
        }
        groups.insert(name, versions);
    }
    return groups;
}

QSet<QString> KubeDiscoveryParser::resourceNames(const QByteArray &json, QString *error)
{
    QSet<QString> names;
    QJsonObject root;
    if (!documentOf(json, "APIResourceList"_L1, &root, error))
        return names;
    for (const QJsonValue &value : root.value("resources"_L1).toArray()) {
        const QString name = KubeJson::string(value.toObject(), "name"_L1);
        if (!name.isEmpty() && !name.contains(u'/'))
            names.insert(name);
    }
    return names;
}

} // namespace strata
