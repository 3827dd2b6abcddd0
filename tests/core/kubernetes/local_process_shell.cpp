#include "local_process_shell.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>

#include <sys/stat.h>
#include <QtConcurrent/QtConcurrentRun>

using strata::CommandResult;

LocalProcessShell::LocalProcessShell(QProcessEnvironment environment, int timeoutMs)
    : m_environment(std::move(environment)), m_timeoutMs(timeoutMs)
{
    // A stream holds one thread while it runs: a polling source keeps a watch per collection
    // (nodes, pods, Jobs, each served workload kind, Kueue's three: 17 on the stand-in) and
    // still runs commands beside them.
    m_pool.setMaxThreadCount(32);
}

LocalProcessShell::~LocalProcessShell()
{
    m_pool.waitForDone();
}

std::optional<CommandResult> LocalProcessShell::start(QProcess &process, const QStringList &argv) const
{
    process.setProcessEnvironment(m_environment);
    process.start(argv.value(0), argv.mid(1));
    if (process.waitForStarted(10000))
        return std::nullopt;
    return CommandResult::transportFailure(strata::ErrorKind::ConnectFailed,
                                           QStringLiteral("cannot start %1: %2").arg(argv.value(0), process.errorString()));
}

QFuture<CommandResult> LocalProcessShell::run(const QStringList &argv, const QByteArray &stdinData)
{
    m_commands.fetchAndAddRelaxed(1);
    return QtConcurrent::run(&m_pool, [this, argv, stdinData] {
        QElapsedTimer clock;
        clock.start();
        QProcess process;
        if (const std::optional<CommandResult> failed = start(process, argv))
            return *failed;
        process.write(stdinData);
        process.closeWriteChannel();
        if (!process.waitForFinished(m_timeoutMs)) {
            process.kill();
            process.waitForFinished();
            return CommandResult::transportFailure(strata::ErrorKind::Timeout,
                                                   QStringLiteral("%1 did not finish in %2 ms").arg(argv.join(u' ')).arg(m_timeoutMs));
        }
        CommandResult r;
        r.exitStatus = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : 128 + 9;
        r.stdoutData = process.readAllStandardOutput();
        r.stderrData = process.readAllStandardError();
        r.durationMs = clock.elapsed();
        return r;
    });
}

QFuture<CommandResult> LocalProcessShell::stream(const QStringList &argv, std::function<void(const QByteArray &)> onOutput,
                                                 std::shared_ptr<std::atomic_bool> stop)
{
    m_commands.fetchAndAddRelaxed(1);
    return QtConcurrent::run(&m_pool, [this, argv, onOutput = std::move(onOutput), stop] {
        QElapsedTimer clock;
        clock.start();
        QProcess process;
        if (const std::optional<CommandResult> failed = start(process, argv))
            return *failed;
        process.closeWriteChannel();
        CommandResult r;
        while (process.state() != QProcess::NotRunning) {
            if (stop->load()) {
                process.terminate();
                if (!process.waitForFinished(5000)) {
                    process.kill();
                    process.waitForFinished();
                }
                r.exitStatus = 0;
                r.stderrData = process.readAllStandardError();
                r.durationMs = clock.elapsed();
                return r;
            }
            process.waitForReadyRead(100);
            const QByteArray chunk = process.readAllStandardOutput();
            if (!chunk.isEmpty())
                onOutput(chunk);
        }
        const QByteArray rest = process.readAllStandardOutput();
        if (!rest.isEmpty())
            onOutput(rest);
        r.exitStatus = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : 128 + 9;
        r.stderrData = process.readAllStandardError();
        r.durationMs = clock.elapsed();
        return r;
    });
}

QFuture<CommandResult> LocalProcessShell::upload(const QString &remotePath, const QByteArray &data, int mode)
{
    return QtConcurrent::run(&m_pool, [remotePath, data, mode] {
        QFile file(remotePath);
        if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size())
            return CommandResult::transportFailure(strata::ErrorKind::ConnectionLost,
                                                   QStringLiteral("cannot write %1: %2").arg(remotePath, file.errorString()));
        file.close();
        ::chmod(QFile::encodeName(remotePath).constData(), mode_t(mode & 07777));
        CommandResult r;
        r.exitStatus = 0;
        return r;
    });
}
