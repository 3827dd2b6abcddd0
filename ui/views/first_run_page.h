#pragma once

#include "profile/cluster_profile.h"
#include "session/connection_check.h"
#include "profile/local_lab.h"
#include "session/ssh_host_list.h"

#include <QStringList>
#include <QVector>
#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace strata {

class AddClusterForm;

// Where the first run looks for clusters to offer: ~/.ssh/config (with its Includes) and the
// labs of lab/lab. Tests point these at fixtures.
struct FirstRunSources
{
    QString sshConfigPath; // empty: ~/.ssh/config
    QString sshDir;        // Include base; empty: ~/.ssh
    QString homeDir;       // ~ in the config; empty: the home directory
    QString localUser;     // %u; empty: $USER
    QStringList labDirectories; // empty: LocalLabFinder::defaultDirectories()
};

// What the window shows while no cluster profile exists: the hosts of ~/.ssh/config, the local
// lab when lab/lab has set one up, and the "Add a cluster" form. Picking a host or the lab
// fills the form; the form connects for real before anything is saved. Reading the config and
// the lab's files runs on the QtConcurrent pool. GUI thread; owned by the main window.
class FirstRunPage : public QWidget
{
    Q_OBJECT
public:
    explicit FirstRunPage(FirstRunSources sources = {}, QWidget *parent = nullptr);

    // Reads ~/.ssh/config and the lab directories again (off the GUI thread); candidatesLoaded
    // when done.
    void reload();
    void setTakenNames(const QStringList &names);

    AddClusterForm *form() const { return m_form; }
    QListWidget *sshHostList() const { return m_sshHosts; }
    const QVector<SshHostList::Host> &sshHosts() const { return m_hostsFound; }
    const QVector<LocalLab> &labs() const { return m_labsFound; }
    QString sshNotesText() const;
    // Fills the form from the Nth host of ~/.ssh/config or the Nth lab.
    void useSshHost(int index);
    void useLab(int index);

Q_SIGNALS:
    void candidatesLoaded();
    // A profile that answered the connection check: the window saves it and connects.
    void profileReady(const strata::ClusterProfile &profile, const strata::ConnectionCheckResult &result);

private:
    struct Candidates
    {
        bool sshConfigFound = false;
        QVector<SshHostList::Host> hosts;
        QVector<SshHostList::Note> notes;
        QVector<LocalLab> labs;
        QStringList labProblems; // labs left out: their connect.args refused (a hostile --remote-env)
    };
    static Candidates readCandidates(const FirstRunSources &sources);
    void showCandidates(const Candidates &candidates);
    QString uniqueName(const QString &wanted) const;

    FirstRunSources m_sources;
    QStringList m_taken;
    QVector<SshHostList::Host> m_hostsFound;
    QVector<SshHostList::Note> m_notes;
    QVector<LocalLab> m_labsFound;
    QListWidget *m_sshHosts;
    QLabel *m_sshSummary;
    QPushButton *m_useHost;
    QLabel *m_labSummary;
    QPushButton *m_useLab;
    AddClusterForm *m_form;
};

} // namespace strata
