#include "proxy_command_process.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QThread>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace strata {

namespace {

// As much of the command's stderr as a message needs: the end, where the reason is.
constexpr qint64 kMaxStderrBytes = 4096;

QString shellPath()
{
    // ssh runs ProxyCommand with the user's shell (sshconnect.c), /bin/sh when unset.
    const QByteArray shell = qgetenv("SHELL");
    if (!shell.isEmpty() && shell.startsWith('/') && ::access(shell.constData(), X_OK) == 0)
        return QString::fromLocal8Bit(shell);
    return QStringLiteral("/bin/sh");
}

} // namespace

ProxyCommandProcess::~ProxyCommandProcess()
{
    stop();
    if (m_stderrFd >= 0)
        ::close(m_stderrFd);
}

int ProxyCommandProcess::start(const QString &commandLine, QString *error)
{
    m_commandLine = commandLine;
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        *error = QStringLiteral("cannot make a socket pair for ProxyCommand: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return -1;
    }
    const QByteArray scratchDir = QFile::encodeName(QDir::tempPath());
    m_stderrFd = ::open(scratchDir.constData(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (m_stderrFd < 0)
        m_stderrFd = ::open("/dev/null", O_WRONLY | O_CLOEXEC); // its words are lost, not the connection

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // dup2 clears close-on-exec on the copies; every other descriptor of ours stays closed.
    posix_spawn_file_actions_adddup2(&actions, pair[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, pair[1], STDOUT_FILENO);
    if (m_stderrFd >= 0)
        posix_spawn_file_actions_adddup2(&actions, m_stderrFd, STDERR_FILENO);
    const QByteArray shell = QFile::encodeName(shellPath());
    // "exec": no shell lingers between Strata and the command (ssh does the same).
    const QByteArray script = "exec " + commandLine.toUtf8();
    char *argv[] = {const_cast<char *>(shell.constData()), const_cast<char *>("-c"),
                    const_cast<char *>(script.constData()), nullptr};
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, shell.constData(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pair[1]);
    if (rc != 0) {
        ::close(pair[0]);
        *error = QStringLiteral("cannot start ProxyCommand \"%1\": %2").arg(commandLine, QString::fromLocal8Bit(std::strerror(rc)));
        return -1;
    }
    m_pid = pid;
    m_ended = false;
    return pair[0];
}

bool ProxyCommandProcess::reap(int waitMs)
{
    if (m_pid <= 0)
        return m_ended;
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        int status = 0;
        const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
        if (r == m_pid || (r < 0 && errno == ECHILD)) {
            m_status = r == m_pid ? status : 0;
            m_pid = -1;
            m_ended = true;
            return true;
        }
        if (clock.elapsed() >= waitMs)
            return false;
        QThread::msleep(10);
    }
}

QString ProxyCommandProcess::failureText(int waitMs)
{
    const bool ended = reap(waitMs);
    QString said;
    if (m_stderrFd >= 0) {
        const off_t size = ::lseek(m_stderrFd, 0, SEEK_END);
        const off_t from = qMax<off_t>(0, size - kMaxStderrBytes);
        QByteArray bytes(int(size - from), '\0');
        const ssize_t n = size > 0 ? ::pread(m_stderrFd, bytes.data(), size_t(bytes.size()), from) : 0;
        bytes.truncate(int(qMax<ssize_t>(0, n)));
        said = QString::fromUtf8(bytes).trimmed();
    }
    QString how;
    if (ended && WIFEXITED(m_status))
        how = QStringLiteral("exited with status %1").arg(WEXITSTATUS(m_status));
    else if (ended && WIFSIGNALED(m_status))
        how = QStringLiteral("ended by signal %1").arg(WTERMSIG(m_status));
    if (how.isEmpty() && said.isEmpty())
        return {};
    if (how.isEmpty())
        how = QStringLiteral("still runs");
    return said.isEmpty() ? how : how + QStringLiteral(": ") + said;
}

void ProxyCommandProcess::stop()
{
    if (m_pid <= 0)
        return;
    ::kill(m_pid, SIGTERM);
    if (!reap(1000)) {
        ::kill(m_pid, SIGKILL);
        reap(1000);
    }
}

} // namespace strata
