#pragma once

#include "ssh/remote_shell.h"

namespace strata {

// A RemoteShell that reaches nothing: every command fails as a connect error. Stands in for
// the transport beside a SyntheticOrchestrator, which never runs commands. GUI thread.
class OfflineRemoteShell : public RemoteShell
{
public:
    QFuture<CommandResult> run(const QStringList &argv, const QByteArray &stdinData = {}) override;
    QFuture<CommandResult> upload(const QString &remotePath, const QByteArray &data, int mode) override;
    QString describe() const override { return QStringLiteral("synthetic@offline"); }
    // Remembers the answers a person gave, for tests to check they arrived.
    void trustFingerprint(const QString &fingerprint) override { m_trustedFingerprint = fingerprint; }
    void setPassphrase(const QString &passphrase) override { m_passphrase = passphrase; }
    QString trustedFingerprint() const { return m_trustedFingerprint; }
    QString passphrase() const { return m_passphrase; }

private:
    QString m_trustedFingerprint;
    QString m_passphrase;
};

} // namespace strata
