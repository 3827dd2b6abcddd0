#include "burnin_launcher.h"

#include "burnin_job_script.h"
#include "kubernetes/kubernetes_source.h"
#include "slurm/slurm_action_reconciler.h"
#include "slurm/slurm_commands.h"
#include "ssh/remote_shell.h"
#include "ssh/shell_quote.h"
#include "model/when_finished.h"

#include <QCryptographicHash>
#include <QRegularExpression>
#include <QFile>
#include <QFileInfo>
#include <QUuid>
#include <QRandomGenerator>

namespace strata {

namespace {

bool isActiveState(const QString &state)
{
    static const QStringList active{QStringLiteral("PENDING"), QStringLiteral("CONFIGURING"), QStringLiteral("RUNNING"),
                                    QStringLiteral("COMPLETING"), QStringLiteral("SUSPENDED"), QStringLiteral("REQUEUED"),
                                    QStringLiteral("RESIZING")};
    return active.contains(state);
}

} // namespace

BurninLauncher::BurninLauncher(std::shared_ptr<RemoteShell> shell, QObject *parent)
    : QObject(parent), m_shell(std::move(shell))
{
    m_pollTimer.setSingleShot(true);
    connect(&m_pollTimer, &QTimer::timeout, this, &BurninLauncher::poll);
}

QString BurninLauncher::defaultRemoteAgentPath(const QByteArray &agentSha256)
{
    return QStringLiteral(".cache/strata/strata-burn-") + QString::fromLatin1(agentSha256.toHex().left(12));
}

void BurninLauncher::fail(const QString &error)
{
    m_running = false;
    m_pollTimer.stop();
    Q_EMIT failed(error);
}

QStringList BurninLauncher::jobIds() const
{
    if (!m_kubeJobs.isEmpty())
        return m_kubeJobs.values();
    return m_jobId.isEmpty() ? QStringList() : QStringList{m_jobId};
}

void BurninLauncher::start(const BurninRequest &request)
{
    m_request = request;
    m_running = true;
    m_jobId.clear();
    m_offsets.clear();
    m_partialLines.clear();
    m_endState.clear();
    m_pollsAfterEnd = 0;
    m_kubeJobs.clear();
    m_nodesDone.clear();
    m_kubeJobsEnded = false;
    m_pollCount = 0;
    if (request.kubernetes) {
        // The image carries the agent: nothing to deploy.
        if (!m_kubernetes) {
            fail(QStringLiteral("internal: a Kubernetes burn-in needs the cluster's Kubernetes source"));
            return;
        }
        if (m_request.agentRemotePath.isEmpty())
            m_request.agentRemotePath = QStringLiteral("strata-burn");
        int gpus = 0;
        for (const QString &n : std::as_const(m_request.nodes))
            gpus = qMax(gpus, m_request.gpusByNode.value(n));
        submitKubernetes(gpus);
        return;
    }
    deploy();
}

void BurninLauncher::submitKubernetes(int gpus)
{
    Q_EMIT stageChanged(QStringLiteral("submitting"));
    if (m_request.image.isEmpty()) {
        fail(QStringLiteral("a Kubernetes burn-in needs an image with strata-burn (--image or the profile's burn-in image)"));
        return;
    }
    auto remaining = std::make_shared<int>(int(m_request.nodes.size()));
    for (const QString &node : std::as_const(m_request.nodes)) {
        JobSubmission job;
        // Unique per run: a Job of an earlier burn-in on this node may still exist.
        job.name = QStringLiteral("strata-burnin-%1-%2").arg(node).arg(QRandomGenerator::global()->bounded(0x100000), 5, 16, QLatin1Char('0'));
        job.partition = m_request.namespaceName;
        job.nodes = 1;
        job.nodeList = {node};
        job.gpusPerNode = m_request.gpusByNode.value(node, gpus);
        job.image = m_request.image;
        // A node under test is often cordoned (by --drain-on-fail of an earlier run, or by the
        // operator keeping work off it meanwhile): the agent's pod must land there regardless.
        job.tolerateCordon = true;
        job.command = BurninJobScript::agentArguments(m_request, job.gpusPerNode);
        const QString inject = m_request.injectByNode.value(node);
        if (!inject.isEmpty())
            job.command << QStringLiteral("--inject") << inject;
        whenFinished(m_kubernetes->submit(job), this, [this, node, remaining](const ActionResult &r) {
            onKubeJobCreated(node, remaining, r, false);
        });
    }
}

void BurninLauncher::onKubeJobCreated(const QString &node, const std::shared_ptr<int> &remaining, const ActionResult &r,
                                      bool readBack)
{
    if (!m_running)
        return;
    if (r.outcomeUnknown && !readBack) {
        // Sent, answer lost: read back once by its label, never created again.
        Q_EMIT stageChanged(QStringLiteral("%1: %2; looking for its Job by its label").arg(node, r.message));
        whenFinished(m_kubernetes->reconcile(r), this, [this, node, remaining](const ActionResult &settled) {
            onKubeJobCreated(node, remaining, settled, true);
        });
        return;
    }
    if (!r.ok) {
        m_outcomeUnknown = r.outcomeUnknown;
        fail(QStringLiteral("creating the burn-in Job for %1 failed: %2").arg(node, r.message));
        return;
    }
    m_kubeJobs.insert(node, r.jobId);
    m_offsets.insert(node, 0);
    if (--*remaining > 0)
        return;
    m_jobId = QStringList(m_kubeJobs.values()).join(QLatin1Char(','));
    const int tests = int(qMax<qsizetype>(1, m_request.tests.size()));
    m_deadline = QDateTime::currentDateTimeUtc().addSecs(qint64(m_request.durationSeconds) * tests + 300);
    Q_EMIT submitted(m_jobId);
    Q_EMIT stageChanged(QStringLiteral("running"));
    m_pollTimer.start(m_pollIntervalMs);
}

void BurninLauncher::pollKubernetes()
{
    m_polling = true;
    auto remaining = std::make_shared<int>(int(m_kubeJobs.size()));
    for (auto it = m_kubeJobs.constBegin(); it != m_kubeJobs.constEnd(); ++it) {
        const QString node = it.key();
        whenFinished(m_kubernetes->logs(it.value(), 100000), this, [this, node, remaining](const KubeLogResult &logs) {
            if (!m_running)
                return;
            if (logs.ok) {
                // Lines come as "[pod/NAME/container] {...}" (kubectl --prefix); the count of
                // lines already handed on is this node's offset.
                const QStringList lines = logs.text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
                for (qsizetype i = m_offsets.value(node); i < lines.size(); ++i) {
                    QString line = lines[i];
                    if (line.startsWith(QLatin1Char('[')) && line.indexOf(QLatin1String("] ")) > 0)
                        line = line.mid(line.indexOf(QLatin1String("] ")) + 2);
                    if (line.contains(QLatin1String("\"type\":\"summary\"")))
                        m_nodesDone.insert(node);
                    Q_EMIT lineReceived(node, line.toUtf8());
                }
                m_offsets[node] = qMax<qint64>(m_offsets.value(node), lines.size());
            }
            if (--*remaining > 0)
                return;
            m_polling = false;
            const bool allDone = m_nodesDone.size() == m_kubeJobs.size();
            if (allDone || m_kubeJobsEnded || QDateTime::currentDateTimeUtc() > m_deadline) {
                m_running = false;
                Q_EMIT finished(allDone ? QStringLiteral("COMPLETED") : m_kubeJobsEnded ? QStringLiteral("FAILED") : QStringLiteral("TIMEOUT"));
                return;
            }
            // An agent that never started (bad image, no agent in it) writes no summary: every
            // few polls ask the cluster whether the Jobs ended anyway; the next poll then
            // reads their last lines and finishes.
            if (++m_pollCount % 3 == 0) {
                whenFinished(m_kubernetes->refresh(), this, [this](const OrchestratorPart &part) {
                    if (!m_running || !part.error.isEmpty())
                        return;
                    int ended = 0;
                    for (const Job &j : part.jobs)
                        if (m_kubeJobs.values().contains(j.id) && (j.state == QLatin1String("SUCCEEDED") || j.state == QLatin1String("FAILED")))
                            ++ended;
                    m_kubeJobsEnded = ended == m_kubeJobs.size();
                });
            }
            m_pollTimer.start(m_pollIntervalMs);
        });
    }
}

void BurninLauncher::attach(const QString &jobId, const BurninRequest &request)
{
    m_request = request;
    // The id goes into the poll script (file names, squeue -j): the rule cancel uses, and it is
    // quoted there besides. Only Slurm jobs are followed by id.
    if (request.kubernetes || request.direct || !SlurmCommands::isValidJobId(jobId)) {
        fail(request.kubernetes || request.direct
                 ? QStringLiteral("--attach follows a Slurm burn-in job by its id")
                 : QStringLiteral("\"%1\" is not a Slurm job id (digits, or an array task as 12_3)").arg(jobId));
        return;
    }
    m_running = true;
    m_jobId = jobId;
    m_offsets.clear();
    for (const QString &n : request.nodes)
        m_offsets.insert(n, 0);
    Q_EMIT stageChanged(QStringLiteral("running"));
    poll();
}

void BurninLauncher::deploy()
{
    Q_EMIT stageChanged(QStringLiteral("deploying"));
    QFile agent(m_request.agentLocalPath);
    if (!agent.open(QIODevice::ReadOnly)) {
        fail(QStringLiteral("cannot read the burn-in agent %1: %2").arg(m_request.agentLocalPath, agent.errorString()));
        return;
    }
    const QByteArray binary = agent.readAll();
    const QByteArray sha = QCryptographicHash::hash(binary, QCryptographicHash::Sha256);
    // Absolute paths: the job's working directory need not be the login shell's.
    const QString script = QStringLiteral("cd && pwd");
    whenFinished(m_shell->runScript(script.toUtf8()), this, [this, binary, sha](const CommandResult &home) {
        if (!home.ok()) {
            fail(QStringLiteral("cannot reach the cluster: %1").arg(home.errorText()));
            return;
        }
        const QString homeDir = QString::fromUtf8(home.stdoutData).trimmed();
        auto absolute = [&](const QString &path) {
            return path.startsWith(QLatin1Char('/')) ? path : homeDir + QLatin1Char('/') + path;
        };
        if (m_request.agentRemotePath.isEmpty())
            m_request.agentRemotePath = defaultRemoteAgentPath(sha);
        m_request.agentRemotePath = absolute(m_request.agentRemotePath);
        if (m_request.outputDirectory.isEmpty())
            m_request.outputDirectory = QStringLiteral(".cache/strata/burnin");
        m_request.outputDirectory = absolute(m_request.outputDirectory);
        const QString remote = m_request.agentRemotePath;
        const QString check = QStringLiteral("mkdir -p %1 %2 && { sha256sum %3 2>/dev/null || true; }")
                                  .arg(ShellQuote::quote(QFileInfo(remote).path()), ShellQuote::quote(m_request.outputDirectory),
                                       ShellQuote::quote(remote));
        whenFinished(m_shell->runScript(check.toUtf8()), this, [this, binary, sha, remote](const CommandResult &sum) {
            if (!sum.ok()) {
                fail(QStringLiteral("cannot prepare %1 on the cluster: %2").arg(remote, sum.errorText()));
                return;
            }
            if (sum.stdoutData.startsWith(sha.toHex())) {
                submit(); // the same agent is installed already
                return;
            }
            // Upload beside it, then rename: a job starting meanwhile never sees half a file.
            const QString temporary = remote + QStringLiteral(".upload-") + QString::number(QRandomGenerator::global()->generate(), 16);
            whenFinished(m_shell->upload(temporary, binary, 0755), this, [this, remote, temporary](const CommandResult &up) {
                if (!up.ok()) {
                    fail(QStringLiteral("uploading the agent to %1 failed: %2").arg(remote, up.errorText()));
                    return;
                }
                whenFinished(m_shell->run({QStringLiteral("mv"), QStringLiteral("-f"), temporary, remote}), this, [this, remote](const CommandResult &mv) {
                    if (!mv.ok()) {
                        fail(QStringLiteral("installing the agent at %1 failed: %2").arg(remote, mv.errorText()));
                        return;
                    }
                    submit();
                });
            });
        });
    });
}

void BurninLauncher::submit()
{
    Q_EMIT stageChanged(QStringLiteral("submitting"));
    int gpus = 0;
    for (const QString &n : std::as_const(m_request.nodes))
        gpus = qMax(gpus, m_request.gpusByNode.value(n));
    m_offsets.clear();
    if (m_request.direct) {
        // Outside a scheduler: the agent runs on the SSH host itself, detached, into one file.
        const QString runId = QStringLiteral("direct%1").arg(QRandomGenerator::global()->bounded(1000000000));
        const QString node = m_request.nodes.value(0, QStringLiteral("host"));
        QStringList agent = BurninJobScript::agentArguments(m_request, gpus);
        const QString inject = m_request.injectByNode.value(node);
        if (!inject.isEmpty())
            agent << QStringLiteral("--inject") << inject;
        const QString file = BurninJobScript::outputFile(m_request.outputDirectory, runId, node);
        const QString script = QStringLiteral("nohup %1 >%2 2>/dev/null </dev/null &\necho $!\n")
                                   .arg(ShellQuote::join(agent), ShellQuote::quote(file));
        whenFinished(m_shell->runScript(script.toUtf8()), this, [this, runId, node](const CommandResult &r) {
            const QString pid = QString::fromUtf8(r.stdoutData).trimmed();
            static const QRegularExpression digits(QStringLiteral("^[1-9][0-9]*$"));
            // The pid goes back into `kill -0` and `kill`: what the host answered must be one.
            if (!r.ok() || !digits.match(pid).hasMatch()) {
                fail(QStringLiteral("starting the agent failed: %1").arg(r.errorText()));
                return;
            }
            m_jobId = runId;
            m_directPid = pid;
            m_offsets.insert(node, 0);
            Q_EMIT submitted(m_jobId);
            Q_EMIT stageChanged(QStringLiteral("running"));
            m_pollTimer.start(m_pollIntervalMs);
        });
        return;
    }
    QString error;
    if (m_request.tag.isEmpty())
        m_request.tag = QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QStringList argv = BurninJobScript::sbatchArguments(m_request, gpus, &error);
    if (argv.isEmpty()) {
        fail(error);
        return;
    }
    whenFinished(m_shell->run(argv, BurninJobScript::batchScript(m_request, gpus).toUtf8()), this, [this](const CommandResult &r) {
        if (!r.ran() && r.mayHaveRun) {
            findLaunchedJob(r.errorText(), 0);
            return;
        }
        const QString jobId = SlurmCommands::jobIdFromSbatchOutput(r.stdoutData);
        if (!r.ok() || jobId.isEmpty()) {
            fail(QStringLiteral("sbatch refused the burn-in: %1").arg(r.errorText()));
            return;
        }
        adoptJob(jobId);
    });
}

void BurninLauncher::adoptJob(const QString &jobId)
{
    m_jobId = jobId;
    for (const QString &n : std::as_const(m_request.nodes))
        m_offsets.insert(n, 0);
    Q_EMIT submitted(m_jobId);
    Q_EMIT stageChanged(QStringLiteral("running"));
    m_pollTimer.start(m_pollIntervalMs);
}

void BurninLauncher::findLaunchedJob(const QString &lostError, int attempt)
{
    const QString comment = SlurmCommands::submissionComment(m_request.tag);
    if (attempt == 0)
        Q_EMIT stageChanged(QStringLiteral("outcome unknown: %1; looking for the job with comment %2").arg(lostError, comment));
    whenFinished(m_shell->run(SlurmActionReconciler::submissionQuery()), this, [this, lostError, attempt, comment](const CommandResult &r) {
        if (!m_running)
            return;
        if (!r.ok()) {
            if (attempt < 2) {
                QTimer::singleShot(2000, this, [this, lostError, attempt] { findLaunchedJob(lostError, attempt + 1); });
                return;
            }
            m_outcomeUnknown = true;
            fail(QStringLiteral("outcome unknown: the burn-in's sbatch was sent but its answer was lost (%1), and the "
                                "cluster could not be read back (%2); look for a job with comment %3 before launching again")
                     .arg(lostError, r.errorText(), comment));
            return;
        }
        const QStringList jobs = SlurmActionReconciler::jobsWithComment(r.stdoutData, comment);
        if (jobs.isEmpty()) {
            fail(QStringLiteral("not launched: sbatch's answer was lost (%1) and no job carries the comment %2").arg(lostError, comment));
            return;
        }
        Q_EMIT stageChanged(QStringLiteral("found burn-in job %1 by its comment %2 after the answer was lost").arg(jobs.first(), comment));
        adoptJob(jobs.first());
    });
}

void BurninLauncher::poll()
{
    if (!m_running || m_polling)
        return;
    if (m_request.kubernetes) {
        pollKubernetes();
        return;
    }
    m_polling = true;
    QString script = BurninJobScript::pollScript(m_request.outputDirectory, m_jobId, m_offsets);
    if (m_request.direct)
        script += QStringLiteral("if kill -0 %1 2>/dev/null; then echo '@@strata-state RUNNING'; else echo '@@strata-state COMPLETED'; fi\n")
                      .arg(ShellQuote::quote(m_directPid));
    else
        script += QStringLiteral("echo \"@@strata-state $(squeue -h -t all -j %1 -o '%T %r' 2>/dev/null)\"\n")
                      .arg(ShellQuote::quote(m_jobId));
    whenFinished(m_shell->runScript(script.toUtf8()), this, [this](const CommandResult &r) {
        m_polling = false;
        if (!m_running)
            return;
        if (!r.ok()) {
            // One failed poll is not the end of the burn-in: the job runs on. Say so and retry.
            Q_EMIT stageChanged(QStringLiteral("reconnecting: ") + r.errorText());
            m_pollTimer.start(qMin(30000, m_pollIntervalMs * 4));
            return;
        }
        handlePollOutput(r.stdoutData);
    });
}

void BurninLauncher::handlePollOutput(const QByteArray &output)
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
            if (state == QLatin1String("PENDING") && reason != m_pendingReason) {
                m_pendingReason = reason;
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
        const qint64 fresh = qMax<qint64>(0, size - m_offsets.value(node));
        const QByteArray chunk = output.mid(pos, fresh);
        pos += chunk.size();
        m_offsets[node] += chunk.size();
        QByteArray &buffer = m_partialLines[node];
        buffer += chunk;
        qsizetype start = 0;
        for (qsizetype nl; (nl = buffer.indexOf('\n', start)) >= 0; start = nl + 1)
            Q_EMIT lineReceived(node, buffer.mid(start, nl - start));
        buffer.remove(0, start);
    }
    const bool ended = !isActiveState(state);
    if (ended) {
        // One more read after the end, for lines written as the job finished.
        if (++m_pollsAfterEnd > 1) {
            m_running = false;
            for (auto it = m_partialLines.begin(); it != m_partialLines.end(); ++it)
                if (!it->trimmed().isEmpty())
                    Q_EMIT lineReceived(it.key(), *it);
            Q_EMIT finished(state.isEmpty() ? QStringLiteral("ENDED") : state);
            return;
        }
        m_endState = state;
        m_pollTimer.start(200);
        return;
    }
    m_pollTimer.start(m_pollIntervalMs);
}

void BurninLauncher::cancel()
{
    if (!m_running)
        return;
    m_running = false;
    m_pollTimer.stop();
    if (m_jobId.isEmpty())
        return;
    if (m_request.kubernetes) {
        for (const QString &job : std::as_const(m_kubeJobs))
            m_kubernetes->cancel(job);
        Q_EMIT finished(QStringLiteral("CANCELLED"));
        return;
    }
    const QStringList argv = m_request.direct ? QStringList{QStringLiteral("kill"), m_directPid}
                                              : QStringList{QStringLiteral("scancel"), m_jobId};
    whenFinished(m_shell->run(argv), this, [this](const CommandResult &r) {
        if (!r.ok())
            Q_EMIT failed(QStringLiteral("cancelling burn-in %1 failed: %2").arg(m_jobId, r.errorText()));
        else
            Q_EMIT finished(QStringLiteral("CANCELLED"));
    });
}

} // namespace strata
