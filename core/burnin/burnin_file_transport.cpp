#include "burnin_file_transport.h"

#include "burnin_job_script.h"
#include "model/job_state.h"
#include "model/when_finished.h"
#include "ssh/remote_shell.h"
#include "ssh/shell_quote.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

namespace strata {

namespace {

// "run-20261203T084107-5f3a9c1e": sorts by start time, unique across consoles.
QString runDirectoryName()
{
    return QStringLiteral("run-%1-%2")
        .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss")))
        .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
}

bool isActiveState(const QString &state)
{
    static const QStringList active{QStringLiteral("PENDING"), QStringLiteral("CONFIGURING"), QStringLiteral("RUNNING"),
                                    QStringLiteral("COMPLETING"), QStringLiteral("SUSPENDED"), QStringLiteral("REQUEUED"),
                                    QStringLiteral("RESIZING")};
    return active.contains(state);
}

} // namespace

BurninFileTransport::BurninFileTransport(std::shared_ptr<RemoteShell> shell, QObject *parent)
    : BurninTransport(parent), m_shell(std::move(shell))
{
}

QString BurninFileTransport::defaultRemoteAgentPath(const QByteArray &agentSha256)
{
    return QStringLiteral(".cache/strata/strata-burn-") + QString::fromLatin1(agentSha256.toHex().left(12));
}

QString BurninFileTransport::endState(const QString &state) const
{
    if (isActiveState(state))
        return QString();
    return state.isEmpty() ? QStringLiteral("ENDED") : state;
}

void BurninFileTransport::launch()
{
    Q_EMIT stageChanged(QStringLiteral("deploying"));
    QFile agent(m_run.request.agentLocalPath);
    if (!agent.open(QIODevice::ReadOnly)) {
        fail(QStringLiteral("cannot read the burn-in agent %1: %2").arg(m_run.request.agentLocalPath, agent.errorString()));
        return;
    }
    const QByteArray binary = agent.readAll();
    const QByteArray sha = QCryptographicHash::hash(binary, QCryptographicHash::Sha256);
    // Absolute paths: the job's working directory need not be the login shell's.
    whenFinished(m_shell->runScript("cd && pwd"), this, [this, binary, sha](const CommandResult &home) {
        if (!m_run.running)
            return;
        if (!home.ok()) {
            fail(QStringLiteral("cannot reach the cluster: %1").arg(home.errorText()));
            return;
        }
        const QString homeDir = QString::fromUtf8(home.stdoutData).trimmed();
        auto absolute = [&](const QString &path) {
            return path.startsWith(QLatin1Char('/')) ? path : homeDir + QLatin1Char('/') + path;
        };
        BurninRequest &request = m_run.request;
        if (request.agentRemotePath.isEmpty())
            request.agentRemotePath = defaultRemoteAgentPath(sha);
        request.agentRemotePath = absolute(request.agentRemotePath);
        if (request.outputDirectory.isEmpty())
            request.outputDirectory = QStringLiteral(".cache/strata/burnin");
        // A directory of its own per run: job ids repeat (a cluster reinstalled, or two labs
        // sharing a home), and a poll must never read an earlier run's file of the same name.
        request.outputDirectory = absolute(request.outputDirectory) + QLatin1Char('/') + runDirectoryName();
        const QString remote = request.agentRemotePath;
        const QString check = QStringLiteral("mkdir -p %1 %2 && { sha256sum %3 2>/dev/null || true; }")
                                  .arg(ShellQuote::quote(QFileInfo(remote).path()), ShellQuote::quote(request.outputDirectory),
                                       ShellQuote::quote(remote));
        whenFinished(m_shell->runScript(check.toUtf8()), this, [this, binary, sha, remote](const CommandResult &sum) {
            if (!m_run.running)
                return;
            if (!sum.ok()) {
                fail(QStringLiteral("cannot prepare %1 on the cluster: %2").arg(remote, sum.errorText()));
                return;
            }
            if (sum.stdoutData.startsWith(sha.toHex())) {
                Q_EMIT stageChanged(QStringLiteral("submitting"));
                submit(); // the same agent is installed already
                return;
            }
            // Upload beside it, then rename: a job starting meanwhile never sees half a file.
            const QString temporary = remote + QStringLiteral(".upload-") + QString::number(QRandomGenerator::global()->generate(), 16);
            whenFinished(m_shell->upload(temporary, binary, 0755), this, [this, remote, temporary](const CommandResult &up) {
                if (!m_run.running)
                    return;
                if (!up.ok()) {
                    fail(QStringLiteral("uploading the agent to %1 failed: %2").arg(remote, up.errorText()));
                    return;
                }
                whenFinished(m_shell->run({QStringLiteral("mv"), QStringLiteral("-f"), temporary, remote}), this, [this, remote](const CommandResult &mv) {
                    if (!m_run.running)
                        return;
                    if (!mv.ok()) {
                        fail(QStringLiteral("installing the agent at %1 failed: %2").arg(remote, mv.errorText()));
                        return;
                    }
                    Q_EMIT stageChanged(QStringLiteral("submitting"));
                    submit();
                });
            });
        });
    });
}

void BurninFileTransport::poll()
{
    if (!m_run.running || m_run.polling)
        return;
    m_run.polling = true;
    const QString script = BurninJobScript::pollScript(m_run.request.outputDirectory, m_run.jobId, m_run.offsets) + stateScript();
    whenFinished(m_shell->runScript(script.toUtf8()), this, [this](const CommandResult &r) {
        m_run.polling = false;
        if (!m_run.running)
            return;
        if (!r.ok()) {
            // One failed poll is not the end of the burn-in: the job runs on. Say so and retry.
            Q_EMIT stageChanged(QStringLiteral("reconnecting: ") + r.errorText());
            schedulePoll(qMin(30000, pollIntervalMs() * 4));
            return;
        }
        handlePollOutput(r.stdoutData);
    });
}

void BurninFileTransport::handlePollOutput(const QByteArray &output)
{
    qsizetype pos = 0;
    QString state;
    while (pos < output.size()) {
        const qsizetype eol = output.indexOf('\n', pos);
        if (eol < 0)
            break;
        const QByteArray header = output.mid(pos, eol - pos);
        pos = eol + 1;
        if (header.startsWith("@@strata-state")) {
            const QString words = QString::fromUtf8(header.mid(15)).trimmed();
            state = words.section(QLatin1Char(' '), 0, 0);
            const QString reason = words.section(QLatin1Char(' '), 1);
            if (parseJobState(state) == JobState::Pending && reason != m_run.pendingReason) {
                m_run.pendingReason = reason;
                Q_EMIT stageChanged(QStringLiteral("pending in Slurm: %1").arg(reason));
            }
            continue;
        }
        if (!header.startsWith("@@strata-file "))
            continue;
        const QList<QByteArray> parts = header.split(' ');
        if (parts.size() != 3)
            continue;
        const QString node = QString::fromUtf8(parts[1]);
        const qint64 size = parts[2].toLongLong();
        const QByteArray chunk = output.mid(pos, qMax<qint64>(0, size - m_run.offsets.value(node)));
        pos += chunk.size();
        m_run.offsets[node] += chunk.size();
        consume(node, chunk);
        if (!m_run.running)
            return; // a receiver cancelled
    }
    const QString endedAs = endState(state);
    if (!endedAs.isEmpty()) {
        // One more read after the end, for lines written as the job finished.
        if (++m_run.pollsAfterEnd > 1) {
            end(endedAs);
            return;
        }
        schedulePoll(200);
        return;
    }
    schedulePoll();
}

} // namespace strata
