#pragma once

#include "command_result.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QString>

struct ssh_channel_struct;

namespace strata {

// One remote command on its own channel of an SshSession, read without blocking, so one thread
// can drive several at once over the one connection (SshRemoteShell's I/O thread does). Made by
// SshSession::start, which opens the channel and sends the exec request, the input and EOF;
// pump() then takes what has arrived on stdout and stderr and never waits. libssh channels
// belong to their session: only the thread that uses the session touches this object, and it
// is destroyed before the session is freed or reconnected.
class SshChannelCommand
{
public:
    // maxOutputBytes: stdout and stderr together at most this (SshOptions::maxCommandOutputBytes);
    // past it the command fails as unreadable (ParseFailed, may have run) and its channel is
    // closed, so a login node that writes without end cannot exhaust this machine's memory; the
    // connection and the other commands go on.
    SshChannelCommand(ssh_channel_struct *channel, const QString &host, int timeoutSeconds, const QElapsedTimer &started,
                      qint64 maxOutputBytes);
    ~SshChannelCommand();
    SshChannelCommand(const SshChannelCommand &) = delete;
    SshChannelCommand &operator=(const SshChannelCommand &) = delete;

    // Reads what has arrived, never waiting for more (but for the exit status, which the host
    // sends with its EOF). True once the command has finished, failed or timed out: result()
    // then holds its outcome.
    bool pump();
    // The last pump() read something (else the caller may wait for the connection).
    bool progressed() const { return m_progressed; }
    // The channel failed in a way that breaks the whole connection (not a command timeout).
    bool brokeConnection() const { return m_brokeConnection; }
    // Milliseconds until the command timeout ends the wait (0 when past it).
    qint64 msUntilDeadline() const;
    bool isFinished() const { return m_finished; }
    const CommandResult &result() const { return m_result; }

    // Ends a command whose connection went away under it (another channel broke it, or the
    // worker shuts the connection): it may have run.
    void abandon(const QString &why);

private:
    void fail(ErrorKind kind, const QString &message, bool connectionBroken);
    bool readAvailable(bool *error, bool *overflow);
    void release();

    ssh_channel_struct *m_channel;
    const QString m_host;
    const qint64 m_deadlineMs;
    const qint64 m_maxOutputBytes;
    QElapsedTimer m_clock;
    CommandResult m_result;
    bool m_progressed = false;
    bool m_finished = false;
    bool m_brokeConnection = false;
};

} // namespace strata
