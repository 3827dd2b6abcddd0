#include "fabric_test_runner.h"

#include "fabric_job_script.h"
#include "fabric_slurm_transport.h"

#include <QUuid>

namespace strata {

FabricTestRunner::FabricTestRunner(std::shared_ptr<RemoteShell> shell, QObject *parent)
    : FabricTestRunner(std::make_unique<FabricSlurmTransport>(std::move(shell)), parent)
{
}

FabricTestRunner::FabricTestRunner(std::unique_ptr<FabricTransport> transport, QObject *parent)
    : QObject(parent), m_transport(std::move(transport))
{
    connect(m_transport.get(), &FabricTransport::stageChanged, this,
            &FabricTestRunner::stageChanged);
    connect(m_transport.get(), &FabricTransport::prepared, this, &FabricTestRunner::runRound);
    connect(m_transport.get(), &FabricTransport::groupsStarted, this,
            &FabricTestRunner::onGroupsStarted);
    connect(m_transport.get(), &FabricTransport::groupsEnded, this,
            &FabricTestRunner::onGroupsEnded);
    connect(m_transport.get(), &FabricTransport::failed, this,
            &FabricTestRunner::onTransportFailed);
    connect(m_transport.get(), &FabricTransport::released, this, &FabricTestRunner::complete);
}

FabricTestRunner::~FabricTestRunner() = default;

void FabricTestRunner::start(const FabricRequest &request)
{
    m_request = request;
    m_running = true;
    m_ending = false;
    m_groups.clear();
    if (m_request.tag.isEmpty())
        m_request.tag = QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_isolation.emplace(m_request.nodes, m_request.floorGBps, m_request.shortRatio,
                        m_request.isolate);
    if (m_isolation->done()) {
        finishWith(std::nullopt, m_isolation->verdict().explanation);
        return;
    }
    if (FabricJobScript::probeSource().isEmpty()) {
        finishWith(std::nullopt,
                   QStringLiteral("the fabric probe is missing from this build's resources"));
        return;
    }
    m_transport->prepare(m_request);
}

void FabricTestRunner::runRound()
{
    if (!m_running || m_ending)
        return;
    m_groups = m_isolation->nextRound();
    m_transport->runGroups(int(m_isolation->rounds().size()) + 1, m_groups);
}

void FabricTestRunner::onGroupsStarted(const QStringList &jobIds)
{
    if (m_running && !m_ending)
        Q_EMIT roundStarted(int(m_isolation->rounds().size()) + 1, m_groups, jobIds);
}

void FabricTestRunner::onGroupsEnded(const QList<FabricGroupResult> &results)
{
    if (!m_running || m_ending)
        return;
    m_isolation->record(results);
    const FabricRound &round = m_isolation->rounds().last();
    for (const FabricRoundGroup &g : round.groups)
        Q_EMIT groupFinished(round.number, g.result, g.shortOfReference);
    if (m_isolation->done()) {
        finishWith(m_isolation->verdict(), {});
        return;
    }
    runRound();
}

void FabricTestRunner::onTransportFailed(const QString &error)
{
    if (m_running && !m_ending)
        finishWith(std::nullopt, error);
}

void FabricTestRunner::cancel()
{
    if (!m_running || m_ending)
        return;
    finishWith(std::nullopt, QStringLiteral("cancelled"));
}

void FabricTestRunner::finishWith(std::optional<FabricVerdict> verdict, const QString &error)
{
    m_ending = true;
    m_endVerdict = std::move(verdict);
    m_endError = error;
    m_transport->release();
}

void FabricTestRunner::complete(const QString &cleanupProblem)
{
    if (!m_running || !m_ending)
        return;
    m_running = false;
    m_ending = false;
    if (m_endVerdict) {
        if (!cleanupProblem.isEmpty())
            Q_EMIT stageChanged(cleanupProblem);
        Q_EMIT finished(*m_endVerdict);
    } else {
        Q_EMIT failed(cleanupProblem.isEmpty()
                          ? m_endError
                          : m_endError + QStringLiteral("; ") + cleanupProblem);
    }
}

} // namespace strata
