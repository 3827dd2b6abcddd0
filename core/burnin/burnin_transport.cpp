#include "burnin_transport.h"

#include "burnin_protocol_parser.h"

#include <utility>

namespace strata {

BurninTransport::BurninTransport(QObject *parent)
    : QObject(parent)
{
    m_pollTimer.setSingleShot(true);
    connect(&m_pollTimer, &QTimer::timeout, this, &BurninTransport::poll);
}

BurninTransport::~BurninTransport() = default;

void BurninTransport::start(const BurninRequest &request)
{
    m_pollTimer.stop();
    m_run = BurninRunState{};
    m_run.request = request;
    m_run.running = true;
    const QString refused = refusal(request);
    if (!refused.isEmpty()) {
        fail(refused);
        return;
    }
    launch();
}

QString BurninTransport::refusal(const BurninRequest &request) const
{
    return request.nodes.isEmpty() ? QStringLiteral("burn-in needs at least one node") : QString();
}

void BurninTransport::attach(const QString &jobId, const BurninRequest &request)
{
    Q_UNUSED(jobId);
    m_run = BurninRunState{};
    m_run.request = request;
    fail(QStringLiteral("--attach follows a Slurm burn-in job by its id; a %1 burn-in cannot be re-attached")
             .arg(burninTransportName(kind())));
}

QStringList BurninTransport::jobIds() const
{
    return m_run.jobId.isEmpty() ? QStringList() : QStringList{m_run.jobId};
}

void BurninTransport::fail(const QString &error)
{
    m_run.running = false;
    m_pollTimer.stop();
    Q_EMIT failed(error);
}

void BurninTransport::halt()
{
    m_run.running = false;
    m_pollTimer.stop();
}

void BurninTransport::end(const QString &jobState)
{
    m_run.running = false;
    m_pollTimer.stop();
    flushPartialLines();
    Q_EMIT finished(jobState);
}

void BurninTransport::announceRunning()
{
    Q_EMIT submitted(m_run.jobId);
    Q_EMIT stageChanged(QStringLiteral("running"));
    schedulePoll();
}

void BurninTransport::schedulePoll(int ms)
{
    if (m_run.running)
        m_pollTimer.start(ms < 0 ? m_pollIntervalMs : ms);
}

void BurninTransport::consume(const QString &node, const QByteArray &chunk)
{
    // Lines are taken out of the run's buffer before any is handed on: a receiver may cancel
    // or start another run, which replaces m_run.
    QByteArrayList lines;
    {
        QByteArray &buffer = m_run.partialLines[node];
        buffer += chunk;
        qsizetype start = 0;
        for (qsizetype nl; (nl = buffer.indexOf('\n', start)) >= 0; start = nl + 1)
            lines << buffer.mid(start, nl - start);
        buffer.remove(0, start);
    }
    // A node is done when its agent's summary record arrives: read as the protocol parser reads
    // it (any spacing or key order), looked at only on lines that mention one.
    for (const QByteArray &line : std::as_const(lines))
        if (line.contains("summary")
            && std::holds_alternative<BurninSummary>(BurninProtocolParser::parseLine(line, 0)))
            m_run.nodesDone.insert(node);
    for (const QByteArray &line : std::as_const(lines))
        Q_EMIT lineReceived(node, line);
}

void BurninTransport::flushPartialLines()
{
    const QMap<QString, QByteArray> rest = std::exchange(m_run.partialLines, {});
    for (auto it = rest.constBegin(); it != rest.constEnd(); ++it)
        if (!it->trimmed().isEmpty())
            Q_EMIT lineReceived(it.key(), *it);
}

} // namespace strata
