#pragma once

#include "cluster_profile.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

// A lab that lab/lab set up on this machine: its directory, whether its login sshd runs,
// and the profile that reaches it (from DIR/connect.args). Value.
struct LocalLab
{
    QString directory;
    QString slurmVersion; // DIR/slurm-version ("22.05", "24.11"); empty if not recorded
    bool running = false; // DIR/run/sshd.pid names a live process
    ClusterProfile profile;
};

// Finds the labs of lab/lab: $STRATA_LAB_DIR, /tmp/strata-lab and /tmp/strata-lab-2411
// (its defaults). Reads small local files: call it off the GUI thread. Plain functions.
class LocalLabFinder
{
public:
    static QStringList defaultDirectories();
    // A lab whose connect.args cannot be read as a profile (a hostile --remote-env among them)
    // is left out, and why goes to *problems when given ("DIR/connect.args: ...").
    static QVector<LocalLab> find(const QStringList &directories, QStringList *problems = nullptr);
    static bool read(const QString &directory, LocalLab *lab, QString *error);
};

} // namespace strata
