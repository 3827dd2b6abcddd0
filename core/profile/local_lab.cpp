#include "local_lab.h"

#include "lab_connect_args.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <csignal>

namespace strata {

namespace {

bool pidAlive(const QString &pidFile)
{
    QFile file(pidFile);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    bool ok = false;
    const qint64 pid = file.read(32).trimmed().toLongLong(&ok);
    // kill(pid, 0): EPERM still means it exists (a lab run by root, looked at by a person).
    return ok && pid > 1 && (::kill(pid_t(pid), 0) == 0 || errno == EPERM);
}

} // namespace

QStringList LocalLabFinder::defaultDirectories()
{
    QStringList dirs;
    const QString fromEnvironment = qEnvironmentVariable("STRATA_LAB_DIR");
    if (!fromEnvironment.isEmpty())
        dirs << fromEnvironment;
    for (const QString &d : {QStringLiteral("/tmp/strata-lab"), QStringLiteral("/tmp/strata-lab-2411")})
        if (!dirs.contains(d))
            dirs << d;
    return dirs;
}

bool LocalLabFinder::read(const QString &directory, LocalLab *lab, QString *error)
{
    QFile args(directory + QStringLiteral("/connect.args"));
    if (!args.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(args.fileName(), args.errorString());
        return false;
    }
    lab->profile = LabConnectArgs::parse(args.read(64 * 1024), error);
    if (lab->profile.name.isEmpty())
        return false;
    lab->directory = directory;
    QFile version(directory + QStringLiteral("/slurm-version"));
    if (version.open(QIODevice::ReadOnly))
        lab->slurmVersion = QString::fromUtf8(version.read(64)).trimmed();
    if (!lab->slurmVersion.isEmpty())
        lab->profile.name = QStringLiteral("lab-%1").arg(lab->slurmVersion);
    lab->running = pidAlive(directory + QStringLiteral("/run/sshd.pid"));
    return true;
}

QVector<LocalLab> LocalLabFinder::find(const QStringList &directories, QStringList *problems)
{
    QVector<LocalLab> labs;
    for (const QString &d : directories) {
        LocalLab lab;
        QString error;
        const QString args = d + QStringLiteral("/connect.args");
        if (!QFileInfo::exists(args))
            continue;
        if (read(d, &lab, &error))
            labs << lab;
        else if (problems)
            *problems << QStringLiteral("%1: %2").arg(args, error);
    }
    return labs;
}

} // namespace strata
