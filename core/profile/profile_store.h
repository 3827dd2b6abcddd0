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

    // The file's bytes to profiles, pure (load() adds the reading). A file that is not a JSON
    // object, is larger than maxFileBytes (a thousand profiles take about a megabyte) or carries
    // a "version" other than fileVersion, or holds a profile that problem() refuses, is one
    // error and no profiles.
    static constexpr int fileVersion = 1;
    static constexpr qsizetype maxFileBytes = 16 * 1024 * 1024;
    static QVector<ClusterProfile> parse(const QByteArray &json, QString *error);
    static QJsonObject toJson(const ClusterProfile &profile);
    static ClusterProfile fromJson(const QJsonObject &object);
    // Why a profile read from a file cannot be used, naming the field
    // (`remoteEnvironment[2].name "-S sh" is not an environment variable name`), or empty.
    static QString problem(const ClusterProfile &profile);

private:
    QString m_path;
};

} // namespace strata
