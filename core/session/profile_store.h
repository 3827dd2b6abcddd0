#pragma once

#include "cluster_profile.h"

#include <QJsonObject>
#include <QString>
#include <QVector>

namespace strata {

// Cluster profiles in one JSON file (default: <config dir>/strata/clusters.json). Secrets
// (Prometheus token and password, key passphrases) are never written: they come from the
// keyring (UI), a flag or the environment. Plain value object: any thread, no caching.
class ProfileStore
{
public:
    explicit ProfileStore(const QString &path);
    static QString defaultPath();
    const QString &path() const { return m_path; }

    // A missing file is an empty list, not an error.
    QVector<ClusterProfile> load(QString *error) const;
    bool save(const QVector<ClusterProfile> &profiles, QString *error) const;

    static QJsonObject toJson(const ClusterProfile &profile);
    static ClusterProfile fromJson(const QJsonObject &object);

private:
    QString m_path;
};

} // namespace strata
