#pragma once

#include <QString>

#include <sys/types.h>

namespace strata {

// A ProxyCommand running for one SSH connection: `$SHELL -c "exec COMMAND"` (as ssh runs it)
// with its stdin and stdout on one end of a socketpair, whose other end carries the SSH
// connection (SSH_OPTIONS_FD). Its stderr goes to a scratch file, so that a command that fails
// (an `aws ssm` without credentials, a jump host that refuses the key) is reported in its own
// words instead of as a closed socket. libssh could run the command itself, but it throws that
// stderr away and never reaps or ends the process. Owned by SshSession on its thread; the
// destructor ends the command (SIGTERM, then SIGKILL) and reaps it.
class ProxyCommandProcess
{
public:
    ProxyCommandProcess() = default;
    ~ProxyCommandProcess();
    ProxyCommandProcess(const ProxyCommandProcess &) = delete;
    ProxyCommandProcess &operator=(const ProxyCommandProcess &) = delete;

    // Starts commandLine (tokens already expanded). On success returns the connection's end of
    // the socketpair, which the caller hands to libssh (libssh closes it); -1 with *error on failure.
    int start(const QString &commandLine, QString *error);
    // What the command said and how it ended, for the message of a connect that failed through
    // it: "exited with status 255: <stderr>" (waits up to waitMs for it to end). Empty when it
    // still runs and said nothing.
    QString failureText(int waitMs);
    const QString &commandLine() const { return m_commandLine; }
    bool isRunning() const { return m_pid > 0; }
    // Ends the command (SIGTERM, SIGKILL after a second) and reaps it.
    void stop();

private:
    bool reap(int waitMs); // true once the process ended (m_status set)

    QString m_commandLine;
    pid_t m_pid = -1;
    int m_stderrFd = -1; // the scratch file, unlinked; read from the start
    int m_status = 0;    // waitpid status once reaped
    bool m_ended = false;
};

} // namespace strata
