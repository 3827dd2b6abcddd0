#include "ssh_channel_command.h"

#include <libssh/libssh.h>

namespace strata {

SshChannelCommand::SshChannelCommand(ssh_channel_struct *channel, const QString &host, int timeoutSeconds,
                                     const QElapsedTimer &started, qint64 maxOutputBytes)
    : m_channel(channel), m_host(host), m_deadlineMs(qint64(qMax(1, timeoutSeconds)) * 1000),
      m_maxOutputBytes(maxOutputBytes), m_clock(started)
{
}

SshChannelCommand::~SshChannelCommand()
{
    release();
}

void SshChannelCommand::release()
{
    if (!m_channel)
        return;
    ssh_channel_close(m_channel);
    ssh_channel_free(m_channel);
    m_channel = nullptr;
}

qint64 SshChannelCommand::msUntilDeadline() const
{
    return qMax<qint64>(0, m_deadlineMs - m_clock.elapsed());
}

void SshChannelCommand::fail(ErrorKind kind, const QString &message, bool connectionBroken)
{
    m_result = CommandResult::transportFailure(kind, message);
    m_result.mayHaveRun = true; // every failure here follows the exec request
    m_result.durationMs = m_clock.elapsed();
    m_brokeConnection = connectionBroken;
    m_finished = true;
    release();
}

void SshChannelCommand::abandon(const QString &why)
{
    if (m_finished)
        return;
    fail(ErrorKind::ConnectionLost, why, true);
}

// Reads stdout and stderr in turn, each until nothing more is there, so neither pipe can fill
// and stall the command. False with *error when the connection broke.
bool SshChannelCommand::readAvailable(bool *error, bool *overflow)
{
    char buffer[65536];
    bool more = false;
    for (int isStderr = 0; isStderr <= 1; ++isStderr) {
        // A bound per pump, so one fast command cannot starve the others' reads.
        for (int rounds = 0; rounds < 16; ++rounds) {
            const int n = ssh_channel_read_nonblocking(m_channel, buffer, sizeof buffer, isStderr);
            if (n == SSH_ERROR) {
                *error = true;
                return more;
            }
            if (n <= 0)
                break;
            (isStderr ? m_result.stderrData : m_result.stdoutData).append(buffer, n);
            more = true;
            if (m_result.stdoutData.size() + m_result.stderrData.size() > m_maxOutputBytes) {
                *overflow = true;
                return more;
            }
        }
    }
    return more;
}

bool SshChannelCommand::pump()
{
    m_progressed = false;
    if (m_finished)
        return true;
    bool error = false;
    bool overflow = false;
    m_progressed = readAvailable(&error, &overflow);
    // Not a broken connection: the channel is closed and the others go on.
    const auto failTooLarge = [this] {
        fail(ErrorKind::ParseFailed,
             QStringLiteral("the command on %1 wrote more than %2 MiB; Strata stopped reading it (no real answer is that large)")
                 .arg(m_host)
                 .arg(m_maxOutputBytes / (1024 * 1024)),
             false);
    };
    if (overflow) {
        failTooLarge();
        return true;
    }
    if (error) {
        const QString why = QString::fromUtf8(ssh_get_error(ssh_channel_get_session(m_channel)));
        fail(ErrorKind::ConnectionLost, QStringLiteral("the connection to %1 broke while the command ran: %2").arg(m_host, why), true);
        return true;
    }
    if (!m_progressed && ssh_channel_is_eof(m_channel)) {
        // What arrived with the EOF (while the other stream was read) is still to be read.
        const bool more = readAvailable(&error, &overflow);
        if (overflow) {
            failTooLarge();
            return true;
        }
        if (more) {
            m_progressed = true;
            return false;
        }
        if (error) {
            fail(ErrorKind::ConnectionLost, QStringLiteral("the connection to %1 broke while the command ran").arg(m_host), true);
            return true;
        }
        // All read; the exit status follows the EOF.
        m_result.exitStatus = ssh_channel_get_exit_status(m_channel);
        m_result.durationMs = m_clock.elapsed();
        release();
        m_finished = true;
        if (m_result.exitStatus < 0) {
            // The remote side closed without an exit status: a signal or a dropped connection.
            m_result.failure = ErrorKind::ConnectionLost;
            m_result.mayHaveRun = true;
            m_result.transportError = QStringLiteral("the command on %1 ended without an exit status (killed by a signal?)").arg(m_host);
        }
        return true;
    }
    if (m_clock.elapsed() > m_deadlineMs) {
        fail(ErrorKind::Timeout, QStringLiteral("the command on %1 did not finish within %2 s").arg(m_host).arg(m_deadlineMs / 1000), false);
        return true;
    }
    return false;
}

} // namespace strata
