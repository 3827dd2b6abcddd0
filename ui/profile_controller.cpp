#include "profile_controller.h"

#include "dialogs/profile_dialog.h"
#include "views/connections_panel.h"
#include "views/log_panel.h"

#include "profile/profile_store.h"
#include "session/secret_store.h"

#include <QMessageBox>
#include <QPushButton>

#include <algorithm>

namespace strata {

ProfileController::ProfileController(ProfileStore *store, QWidget *dialogParent, ConnectionsPanel *connections,
                                     LogPanel *log, QObject *parent)
    : QObject(parent), m_store(store), m_dialogParent(dialogParent), m_connections(connections), m_log(log),
      m_secrets(new SecretStore(QStringLiteral("strata"), this))
{
}

void ProfileController::load()
{
    m_loadError.clear();
    m_profiles = m_store ? m_store->load(&m_loadError) : QVector<ClusterProfile>{};
    if (!m_loadError.isEmpty())
        m_log->append(LogPanel::Level::Error, tr("Cannot read the cluster profiles: %1").arg(m_loadError));
    m_connections->setProfiles(m_profiles);
    if (!m_loadError.isEmpty())
        m_connections->setMessage(tr("Cannot read the cluster profiles: %1").arg(m_loadError));
    else if (m_profiles.isEmpty())
        m_connections->setMessage(tr("No clusters yet: pick one on the left, or Add… one (Ctrl+Shift+N)."));
    Q_EMIT profilesChanged();
}

const ClusterProfile *ProfileController::find(const QString &name) const
{
    const auto it = std::find_if(m_profiles.cbegin(), m_profiles.cend(),
                                 [&](const ClusterProfile &p) { return p.name == name; });
    return it == m_profiles.cend() ? nullptr : &*it;
}

bool ProfileController::save()
{
    if (!m_store)
        return false;
    // The file was refused as a whole: writing this session's list over it would lose every
    // profile in it. It is fixed by hand first (the error names the profile and the field).
    if (!m_loadError.isEmpty()) {
        m_log->append(LogPanel::Level::Error,
                      tr("Cluster profiles not saved: %1 could not be read (%2)").arg(m_store->path(), m_loadError));
        return false;
    }
    QString error;
    if (!m_store->save(m_profiles, &error)) {
        m_log->append(LogPanel::Level::Error, tr("Cannot save the cluster profiles: %1").arg(error));
        return false;
    }
    return true;
}

void ProfileController::saveSecrets(const ClusterProfile &profile)
{
    m_secrets->save(profile, [this, name = profile.name](const QString &error) {
        if (!error.isEmpty())
            m_log->append(LogPanel::Level::Error, tr("%1: secrets kept for this session only: %2").arg(name, error));
    });
}

void ProfileController::removeSecrets(const QString &name)
{
    m_secrets->remove(name, [this, name](const QString &error) {
        if (!error.isEmpty())
            m_log->append(LogPanel::Level::Info, tr("%1: secrets not removed from the keyring: %2").arg(name, error));
    });
}

void ProfileController::moveSecrets(const QString &from, const QString &to)
{
    ClusterProfile old;
    old.name = from;
    old.prometheusSecretsInKeyring = true;
    m_secrets->load(old, [this, from, to](const ClusterProfile &loaded, const QString &error) {
        if (!error.isEmpty()) {
            m_log->append(LogPanel::Level::Error,
                          tr("%1: the stored Prometheus secrets were not moved from %2 (%3): enter them again").arg(to, from, error));
            return;
        }
        ClusterProfile moved = loaded;
        moved.name = to;
        m_secrets->save(moved, [this, from, to](const QString &saveError) {
            if (!saveError.isEmpty()) {
                m_log->append(LogPanel::Level::Error,
                              tr("%1: the stored Prometheus secrets were not moved from %2 (%3): they stay under %2")
                                  .arg(to, from, saveError));
                return;
            }
            removeSecrets(from);
        });
    });
}

bool ProfileController::hasSecrets(const ClusterProfile &profile)
{
    return !profile.prometheusToken.isEmpty() || !profile.prometheusPassword.isEmpty();
}

QStringList ProfileController::namesExcept(const QString &name) const
{
    QStringList taken;
    for (const ClusterProfile &p : m_profiles)
        if (p.name != name)
            taken << p.name;
    return taken;
}

void ProfileController::addChecked(const ClusterProfile &given, const QString &checked)
{
    ClusterProfile profile = given;
    profile.prometheusSecretsInKeyring = hasSecrets(profile);
    m_profiles << profile;
    save();
    m_connections->setProfiles(m_profiles);
    m_connections->selectProfile(profile.name);
    m_log->append(LogPanel::Level::Info, tr("Added cluster profile %1 (%2): %3").arg(profile.name, profile.sshTarget(), checked));
    if (profile.prometheusSecretsInKeyring)
        saveSecrets(profile);
    Q_EMIT profilesChanged();
}

void ProfileController::addProfile()
{
    auto *dialog = new ProfileDialog(namesExcept({}), m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        ClusterProfile profile = dialog->profile();
        profile.prometheusSecretsInKeyring = hasSecrets(profile);
        m_profiles << profile;
        save();
        m_connections->setProfiles(m_profiles);
        Q_EMIT profilesChanged();
        m_connections->selectProfile(profile.name);
        m_connections->setMessage(tr("Added %1. Connect to it with Connect (Ctrl+Shift+C).").arg(profile.name));
        m_log->append(LogPanel::Level::Info, tr("Added cluster profile %1 (%2)").arg(profile.name, profile.sshTarget()));
        if (profile.prometheusSecretsInKeyring)
            saveSecrets(profile);
    });
    dialog->open();
}

void ProfileController::editProfile(const QString &name)
{
    const ClusterProfile *existing = find(name);
    if (!existing)
        return;
    auto *dialog = new ProfileDialog(namesExcept(name), m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setProfile(*existing);
    connect(dialog, &QDialog::accepted, this, [this, dialog, name] {
        ClusterProfile profile = dialog->profile();
        // The form never reads stored secrets: empty fields keep them (under the new name when
        // renamed), typed ones replace them, and only the form's "forget" box deletes them. A
        // profile that never had any asks nothing of the keyring (and hears no complaint from a
        // missing one).
        const ClusterProfile *before = find(name);
        const bool hadSecrets = before && before->prometheusSecretsInKeyring;
        const bool typed = hasSecrets(profile);
        const bool forget = hadSecrets && !typed && dialog->forgetStoredSecrets();
        const bool renamed = profile.name != name;
        profile.prometheusSecretsInKeyring = typed || (hadSecrets && !forget);
        for (ClusterProfile &p : m_profiles)
            if (p.name == name)
                p = profile;
        save();
        m_connections->setProfiles(m_profiles);
        Q_EMIT profilesChanged();
        m_connections->selectProfile(profile.name);
        m_log->append(LogPanel::Level::Info, tr("Saved cluster profile %1").arg(profile.name));
        if (typed) {
            saveSecrets(profile);
            if (hadSecrets && renamed)
                removeSecrets(name);
        } else if (forget) {
            removeSecrets(name);
        } else if (hadSecrets && renamed) {
            moveSecrets(name, profile.name);
        }
    });
    dialog->open();
}

void ProfileController::removeProfile(const QString &name)
{
    auto *box = new QMessageBox(QMessageBox::Question, tr("Remove cluster"),
                                tr("Remove the profile %1? The cluster itself is not touched.").arg(name),
                                QMessageBox::Cancel, m_dialogParent);
    box->setObjectName(QStringLiteral("confirmRemove"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *remove = box->addButton(tr("Remove"), QMessageBox::AcceptRole);
    box->setDefaultButton(QMessageBox::Cancel); // Enter keeps the profile
    connect(remove, &QPushButton::clicked, this, [this, name] {
        m_profiles.erase(std::remove_if(m_profiles.begin(), m_profiles.end(),
                                        [&](const ClusterProfile &p) { return p.name == name; }),
                         m_profiles.end());
        save();
        removeSecrets(name);
        m_connections->setProfiles(m_profiles);
        Q_EMIT profilesChanged();
        m_log->append(LogPanel::Level::Info, tr("Removed cluster profile %1").arg(name));
    });
    box->open();
}

void ProfileController::withSecrets(const ClusterProfile &profile,
                                    const std::function<void(const ClusterProfile &)> &ready)
{
    // No secret was ever given for it: nothing to read, and no note about a keyring it never used.
    if (!profile.hasPrometheus() || hasSecrets(profile) || !profile.prometheusSecretsInKeyring) {
        ready(profile);
        return;
    }
    m_secrets->load(profile, [this, ready](const ClusterProfile &loaded, const QString &error) {
        if (!error.isEmpty())
            m_log->append(LogPanel::Level::Info, tr("%1: Prometheus secrets not read: %2").arg(loaded.name, error));
        ready(loaded);
    });
}

} // namespace strata
