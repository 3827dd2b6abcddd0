#include "burnin_ssh_transport.h"

#include "burnin_job_script.h"
#include "model/when_finished.h"
#include "ssh/remote_shell.h"
#include "ssh/shell_quote.h"

#include <QRandomGenerator>
#include <QRegularExpression>

namespace strata {

namespace {

const QRegularExpression &processId()
{
    static const QRegularExpression digits(QStringLiteral("^[1-9][0-9]{0,9}\\z"));
    return digits;
}

} // namespace

BurninSshTransport::BurninSshTransport(std::shared_ptr<RemoteShell> shell, QObject *parent)
    : BurninFileTransport(std::move(shell), parent)
{
}

bool BurninSshTransport::isValidHostName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_.\\-]{0,252}\\z"));
    return re.match(name).hasMatch();
}

QString BurninSshTransport::nodeFunction(const QStringList &nodeShell)
{
    const QStringList hop = nodeShell.isEmpty()
        ? QStringList{QStringLiteral("ssh"), QStringLiteral("-o"), QStringLiteral("BatchMode=yes"), QStringLiteral("-o"),
                      QStringLiteral("ConnectTimeout=10")}
        : nodeShell;
    // The login host itself needs no hop (a single workstation, or a node used as login).
    return QStringLiteral("on_node() {\n"
                          "  if [ \"$1\" = \"$(hostname)\" ] || [ \"$1\" = \"$(hostname -s 2>/dev/null)\" ] || [ \"$1\" = localhost ]; then\n"
                          "    sh -c \"$2\"\n"
                          "  else\n"
                          "    %1 \"$1\" \"$2\" </dev/null\n"
                          "  fi\n"
                          "}\n")
        .arg(ShellQuote::join(hop));
}

QString BurninSshTransport::refusal(const BurninRequest &request) const
{
    for (const QString &n : request.nodes)
        if (!isValidHostName(n))
            return QStringLiteral("\"%1\" is not a host name the login node can reach over SSH").arg(n);
    return BurninFileTransport::refusal(request);
}

void BurninSshTransport::submit()
{
    const BurninRequest &request = m_run.request;
    const QString runId = QStringLiteral("ssh%1").arg(QRandomGenerator::global()->bounded(1000000000));
    // One line per node, "@@strata-pid NODE PID": the node's agent started, detached.
    QString script = nodeFunction(request.nodeShell);
    for (const QString &node : request.nodes) {
        QStringList agent = BurninJobScript::agentArguments(request, request.gpusByNode.value(node));
        const QString inject = request.injectByNode.value(node);
        if (!inject.isEmpty())
            agent << QStringLiteral("--inject") << inject;
        const QString file = BurninJobScript::outputFile(request.outputDirectory, runId, node);
        const QString start = QStringLiteral("nohup %1 >%2 2>%3 </dev/null & echo $!")
                                  .arg(ShellQuote::join(agent), ShellQuote::quote(file),
                                       ShellQuote::quote(file.chopped(6) + QStringLiteral(".err")));
        script += QStringLiteral("echo \"@@strata-pid %1 $(on_node %1 %2)\"\n").arg(ShellQuote::quote(node), ShellQuote::quote(start));
    }
    whenFinished(m_shell->runScript(script.toUtf8()), this, [this, runId](const CommandResult &r) {
        if (!m_run.running)
            return;
        QStringList notStarted;
        for (const QByteArray &raw : r.stdoutData.split('\n')) {
            const QList<QByteArray> words = raw.trimmed().split(' ');
            if (words.size() != 3 || words[0] != "@@strata-pid")
                continue;
            const QString node = QString::fromUtf8(words[1]);
            const QString pid = QString::fromUtf8(words[2]);
            // The pid goes back into `kill -0` and `kill`: what the node answered must be one.
            if (m_run.request.nodes.contains(node) && processId().match(pid).hasMatch())
                m_run.handleByNode.insert(node, pid);
        }
        for (const QString &node : std::as_const(m_run.request.nodes))
            if (!m_run.handleByNode.contains(node))
                notStarted << node;
        m_run.jobId = runId;
        if (m_run.handleByNode.isEmpty()) {
            fail(QStringLiteral("starting the agent over SSH failed on %1: %2")
                     .arg(notStarted.join(QLatin1String(", ")), r.ok() ? QString::fromUtf8(r.stderrData).trimmed() : r.errorText()));
            return;
        }
        // Nodes that did not start are still followed: their file stays missing, and the
        // verdict says the agent wrote nothing there.
        if (!notStarted.isEmpty())
            Q_EMIT stageChanged(QStringLiteral("the agent did not start on %1: %2")
                                    .arg(notStarted.join(QLatin1String(", ")), QString::fromUtf8(r.stderrData).trimmed()));
        for (const QString &node : std::as_const(m_run.request.nodes))
            m_run.offsets.insert(node, 0);
        const int tests = int(qMax<qsizetype>(1, m_run.request.tests.size()));
        m_run.deadline = QDateTime::currentDateTimeUtc().addSecs(qint64(m_run.request.durationSeconds) * tests + 300);
        announceRunning();
    });
}

QString BurninSshTransport::stateScript() const
{
    // RUNNING while any node's agent lives; a node that cannot be asked counts as running
    // (the deadline ends the wait), one whose agent is gone as ended.
    QString script = nodeFunction(m_run.request.nodeShell) + QStringLiteral("running=0\n");
    for (auto it = m_run.handleByNode.constBegin(); it != m_run.handleByNode.constEnd(); ++it) {
        const QString probe = QStringLiteral("if kill -0 %1 2>/dev/null; then echo alive; else echo gone; fi").arg(it.value());
        script += QStringLiteral("case \"$(on_node %1 %2 2>/dev/null)\" in gone) ;; *) running=1 ;; esac\n")
                      .arg(ShellQuote::quote(it.key()), ShellQuote::quote(probe));
    }
    script += QStringLiteral("if [ $running = 1 ]; then echo '@@strata-state RUNNING'; else echo '@@strata-state COMPLETED'; fi\n");
    return script;
}

QString BurninSshTransport::endState(const QString &state) const
{
    // Every agent wrote its summary: done, even when a node stopped answering the probe.
    if (m_run.nodesDone.size() >= m_run.handleByNode.size())
        return QStringLiteral("COMPLETED");
    if (QDateTime::currentDateTimeUtc() > m_run.deadline)
        return QStringLiteral("TIMEOUT");
    return BurninFileTransport::endState(state);
}

void BurninSshTransport::cancel()
{
    if (!m_run.running)
        return;
    halt();
    if (m_run.handleByNode.isEmpty())
        return;
    QString script = nodeFunction(m_run.request.nodeShell);
    for (auto it = m_run.handleByNode.constBegin(); it != m_run.handleByNode.constEnd(); ++it)
        script += QStringLiteral("on_node %1 %2\n").arg(ShellQuote::quote(it.key()), ShellQuote::quote(QStringLiteral("kill ") + it.value()));
    const QString runId = m_run.jobId;
    whenFinished(m_shell->runScript(script.toUtf8()), this, [this, runId](const CommandResult &r) {
        if (!r.ok())
            Q_EMIT failed(QStringLiteral("cancelling burn-in %1 failed: %2").arg(runId, r.errorText()));
        else
            Q_EMIT finished(QStringLiteral("CANCELLED"));
    });
}

} // namespace strata
