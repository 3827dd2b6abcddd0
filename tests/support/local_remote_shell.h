#pragma once

#include "ssh/remote_shell.h"

namespace strata {

// A RemoteShell whose "remote host" is this machine: commands run as local processes (on Qt's
// global thread pool, so the future finishes on another thread as over SSH), uploads write
// local files. For tests of code that drives a login node without a lab. Any thread.
class LocalRemoteShell : public RemoteShell
{
public:
    QFuture<CommandResult> run(const QStringList &argv, const QByteArray &stdinData = {}) override;
    QFuture<CommandResult> upload(const QString &remotePath, const QByteArray &data, int mode) override;
    QString describe() const override { return QStringLiteral("local"); }
};

} // namespace strata
