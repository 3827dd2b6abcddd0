#pragma once

#include "ssh/remote_shell.h"

namespace strata {

// A RemoteShell that reaches nothing: every command fails as a connect error. Stands in for
// the transport beside a SyntheticOrchestrator, which never runs commands.
class OfflineRemoteShell : public RemoteShell
{
public:
    QFuture<CommandResult> run(const QStringList &argv, const QByteArray &stdinData = {}) override;
    QFuture<CommandResult> upload(const QString &remotePath, const QByteArray &data, int mode) override;
    QString describe() const override { return QStringLiteral("synthetic@offline"); }
};

} // namespace strata
