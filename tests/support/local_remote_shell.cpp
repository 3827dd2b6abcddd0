#include "local_remote_shell.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QtConcurrent/QtConcurrentRun>

namespace strata {

QFuture<CommandResult> LocalRemoteShell::run(const QStringList &argv, const QByteArray &stdinData)
{
    return QtConcurrent::run([argv, stdinData] {
        CommandResult r;
        QElapsedTimer clock;
        clock.start();
        QProcess p;
        p.start(argv.value(0), argv.mid(1));
        if (!p.waitForStarted(10000))
            return CommandResult::transportFailure(ErrorKind::ConnectFailed, QStringLiteral("cannot start %1").arg(argv.value(0)));
        p.write(stdinData);
        p.closeWriteChannel();
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished(5000);
            r = CommandResult::transportFailure(ErrorKind::Timeout, QStringLiteral("%1 did not finish").arg(argv.value(0)));
            r.mayHaveRun = true;
            return r;
        }
        r.exitStatus = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.stdoutData = p.readAllStandardOutput();
        r.stderrData = p.readAllStandardError();
        r.durationMs = clock.elapsed();
        return r;
    });
}

QFuture<CommandResult> LocalRemoteShell::upload(const QString &remotePath, const QByteArray &data, int mode)
{
    CommandResult r;
    QFile f(remotePath);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(data) != data.size()) {
        r.exitStatus = 1;
        r.stderrData = f.errorString().toUtf8();
        return QtFuture::makeReadyFuture(r);
    }
    f.close();
    QFile::Permissions permissions;
    if (mode & 0100)
        permissions |= QFile::ExeOwner | QFile::ExeUser;
    permissions |= QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser;
    f.setPermissions(permissions);
    r.exitStatus = 0;
    return QtFuture::makeReadyFuture(r);
}

} // namespace strata
