#pragma once

#include "model/error_kind.h"

#include <QByteArray>
#include <QString>

namespace strata {

// The outcome of one remote command: either the transport failed (no exit status), or the
// command ran and this holds its exit status, stdout and stderr exactly as sent.
struct CommandResult
{
    // Why the transport failed (host key, authentication, passphrase, connect, connection lost,
    // timeout, cancelled); None: the command ran, see exitStatus.
    ErrorKind failure = ErrorKind::None;
    QString transportError;     // person-readable, set when failure != None
    QString hostKeyFingerprint; // "SHA256:..." when the host key was involved
    int exitStatus = -1;        // remote exit status; -1 when the command did not run
    // The transport failed after the command was handed to the host (exec request sent): it may
    // have run, in part or in full. Such a command is never resent blindly; an action reports
    // its outcome as unknown and reads the cluster back instead.
    bool mayHaveRun = false;
    QByteArray stdoutData;
    QByteArray stderrData;
    qint64 durationMs = 0;

    bool ran() const { return failure == ErrorKind::None; }
    // The host took the command: it ran, or it was still running when the command timeout ended
    // the wait (a scheduler that hangs behind a login node that works).
    bool hostAnswered() const { return ran() || (failure == ErrorKind::Timeout && mayHaveRun); }
    bool ok() const { return ran() && exitStatus == 0; }
    // What to tell a person: the transport error, else the command's stderr, else its status.
    QString errorText() const;
    // What to decide on: the transport's kind, else CommandFailed for a non-zero exit status.
    ErrorKind errorKind() const;

    static CommandResult transportFailure(ErrorKind failure, const QString &message);
};

} // namespace strata
