#pragma once

#include "profile/cluster_profile.h"

#include <QObject>
#include <QVector>

#include <functional>

class QWidget;

namespace strata {

class ConnectionsPanel;
class LogPanel;
class ProfileStore;
class SecretStore;

// The saved cluster profiles as the window edits them: loads and saves them through the
// ProfileStore, runs the add/edit/remove dialogs, and keeps each profile's secrets (Prometheus
// token and password) in the desktop keyring through SecretStore, never in the file. Reports
// to the log and the Clusters panel; the window only asks it for a profile to connect to.
// GUI thread; owned by the MainWindow, which parents its dialogs.
class ProfileController : public QObject
{
    Q_OBJECT
public:
    ProfileController(ProfileStore *store, QWidget *dialogParent, ConnectionsPanel *connections, LogPanel *log,
                      QObject *parent = nullptr);

    void load();
    const QVector<ClusterProfile> &profiles() const { return m_profiles; }
    // Null when no profile has that name.
    const ClusterProfile *find(const QString &name) const;

    void addProfile();
    // Adds a profile that already answered a connection check (the first-run form); checked
    // says what answered ("slurm: 4 nodes, 32 GPUs"), for the log.
    void addChecked(const ClusterProfile &profile, const QString &checked);
    void editProfile(const QString &name);
    void removeProfile(const QString &name);

    // Calls ready with the profile and its secrets from the keyring when some were stored for it
    // (ClusterProfile::prometheusSecretsInKeyring) and it does not carry them (at once
    // otherwise). Without a keyring ready still runs, and the log says why the secrets were not
    // read; a profile that never had secrets asks nothing and hears nothing of the keyring.
    void withSecrets(const ClusterProfile &profile, const std::function<void(const ClusterProfile &)> &ready);

Q_SIGNALS:
    // The list changed: loaded, added, edited or removed.
    void profilesChanged();

private:
    bool save();
    void saveSecrets(const ClusterProfile &profile);
    void removeSecrets(const QString &name);
    // A renamed profile's stored secrets: read under `from`, stored under `to`, then removed.
    void moveSecrets(const QString &from, const QString &to);
    QStringList namesExcept(const QString &name) const;
    // A token or password was entered (in memory now).
    static bool hasSecrets(const ClusterProfile &profile);

    ProfileStore *m_store;
    QWidget *m_dialogParent;
    ConnectionsPanel *m_connections;
    LogPanel *m_log;
    SecretStore *m_secrets;
    QVector<ClusterProfile> m_profiles;
    QString m_loadError; // the file's error at load(): then nothing is saved over it
};

} // namespace strata
