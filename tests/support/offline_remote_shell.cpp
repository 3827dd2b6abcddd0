#include "offline_remote_shell.h"

#include <QFuture>

namespace strata {

QFuture<CommandResult> OfflineRemoteShell::run(const QStringList &argv, const QByteArray &)
{
    return QtFuture::makeReadyFuture(CommandResult::transportFailure(
        ErrorKind::ConnectFailed,
        QStringLiteral("offline shell: %1 was not run").arg(argv.value(0))));
}

QFuture<CommandResult> OfflineRemoteShell::upload(const QString &remotePath, const QByteArray &, int)
{
    return QtFuture::makeReadyFuture(CommandResult::transportFailure(
        ErrorKind::ConnectFailed, QStringLiteral("offline shell: %1 was not written").arg(remotePath)));
}

} // namespace strata
