#pragma once

#include "command_result.h"

#include <QByteArray>
#include <QFuture>
#include <QString>
#include <QStringList>

namespace strata {

// Runs commands on one remote host (a login node, a bastion). Implementations run the I/O on
// their own worker thread: every call returns at once and the future finishes there. Safe to
// call from any thread. Each argv element is quoted (ShellQuote) and the profile's remote
// environment is prefixed, so no caller ever builds a command line by hand.
class RemoteShell
{
public:
    virtual ~RemoteShell() = default;

    // Runs argv[0] with its arguments; stdinData is written to its standard input, then EOF.
    virtual QFuture<CommandResult> run(const QStringList &argv, const QByteArray &stdinData = {}) = 0;
    // Runs a POSIX sh script sent over stdin (`sh -s`), never through argv.
    QFuture<CommandResult> runScript(const QByteArray &script)
    {
        return run({QStringLiteral("sh"), QStringLiteral("-s")}, script);
    }
    // Writes data to remotePath (SFTP), creating it with the given mode.
    virtual QFuture<CommandResult> upload(const QString &remotePath, const QByteArray &data, int mode) = 0;
    // A short description for status lines, e.g. "root@127.0.0.1:22022".
    virtual QString describe() const = 0;
    // The answers a person gives to ErrorKind::HostKeyUnknown and ErrorKind::PassphraseNeeded:
    // trust this one offered key on the next connect (recording it in known_hosts), or use this
    // passphrase for the identity file (in memory only). Transports without host keys or key
    // files never fail with those kinds, so by default there is nothing to apply.
    virtual void trustFingerprint(const QString &fingerprint) { Q_UNUSED(fingerprint); }
    virtual void setPassphrase(const QString &passphrase) { Q_UNUSED(passphrase); }
};

} // namespace strata
