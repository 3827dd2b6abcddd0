#pragma once

#include <QByteArray>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>

namespace strata {

// The API server's legacy discovery documents, read for which groups, versions and resources it
// serves (what KubeDiscovery asks). Pure; a document that is not the one asked for is an error.
class KubeDiscoveryParser
{
public:
    // /apis (an APIGroupList): group -> its versions, the preferred one first.
    static QMap<QString, QStringList> groupVersions(const QByteArray &json, QString *error);
    // /apis/GROUP/VERSION (an APIResourceList): its resources' names, subresources ("pods/log") left out.
    static QSet<QString> resourceNames(const QByteArray &json, QString *error);
};

} // namespace strata
