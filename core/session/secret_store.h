#pragma once

#include "profile/cluster_profile.h"

#include <QObject>

#include <functional>

namespace strata {

// Keeps a profile's secrets (Prometheus token and password) in the desktop keyring through
// QtKeychain, so the profile file never holds them; the window saves them and both the window
// and the CLI read them. Asynchronous: the callbacks run on the owning thread's event loop when
// the keyring answers. Without a keyring (no Secret Service, a CI box) every call reports why
// and secrets live only for the session. Lives on the thread that created it (the GUI thread
// in the window, the main thread in the CLI).
class SecretStore : public QObject
{
    Q_OBJECT
public:
    explicit SecretStore(const QString &service = QStringLiteral("strata"), QObject *parent = nullptr);

    static bool isBuiltWithKeyring();

    // Fills in the profile's secrets; error is empty, or why the keyring could not be read.
    void load(const ClusterProfile &profile,
              const std::function<void(const ClusterProfile &, const QString &error)> &done);
    // Stores (or, when empty, deletes) the profile's secrets.
    void save(const ClusterProfile &profile, const std::function<void(const QString &error)> &done);
    // Forgets every secret of the named profile.
    void remove(const QString &profileName, const std::function<void(const QString &error)> &done);

private:
    void read(const QString &key, const std::function<void(const QString &value, const QString &error)> &done);
    void write(const QString &key, const QString &value, const std::function<void(const QString &error)> &done);

    QString m_service;
};

} // namespace strata
