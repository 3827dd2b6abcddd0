#pragma once

#include "ssh/remote_shell.h"
#include "ssh/streaming_shell.h"

#include <QProcessEnvironment>
#include <QThreadPool>

#include <optional>

class QProcess;

// TEST ONLY: a RemoteShell that runs commands on this machine with QProcess, so tests can
// drive the real kubectl against the lab's kube stand-in without SSH. Not for production use:
// it ignores hosts, keys and quoting because nothing leaves this machine. stream() hands on
// stdout as it arrives (a kubectl watch), as SshRemoteShell's does.
class LocalProcessShell : public strata::RemoteShell, public strata::StreamingShell
{
public:
    explicit LocalProcessShell(QProcessEnvironment environment, int timeoutMs = 60000);
    ~LocalProcessShell() override;

    QFuture<strata::CommandResult> run(const QStringList &argv, const QByteArray &stdinData = {}) override;
    QFuture<strata::CommandResult> upload(const QString &remotePath, const QByteArray &data, int mode) override;
    QString describe() const override { return QStringLiteral("local processes (test runner)"); }
    QFuture<strata::CommandResult> stream(const QStringList &argv, std::function<void(const QByteArray &)> onOutput,
                                          std::shared_ptr<std::atomic_bool> stop) override;

    int commandsRun() const { return m_commands.loadRelaxed(); }

private:
    // Starts argv in process; the failure when it could not be started.
    std::optional<strata::CommandResult> start(QProcess &process, const QStringList &argv) const;

    QProcessEnvironment m_environment;
    int m_timeoutMs;
    QThreadPool m_pool;
    QAtomicInt m_commands;
};
