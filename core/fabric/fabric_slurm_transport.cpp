#include "fabric_slurm_transport.h"

#include "fabric_job_script.h"
#include "fabric_output_parser.h"
#include "model/when_finished.h"
#include "slurm/slurm_commands.h"
#include "ssh/remote_shell.h"

#include <cmath>

namespace strata {

namespace {

// How much of a job's output is read: the probe prints a few lines per size, nccl-tests a
// table; anything past this is the job's own noise.
constexpr int kOutputReadBytes = 1 << 20;

int roundsAtMost(qsizetype nodes)
{
    return int(std::ceil(std::log2(double(qMax<qsizetype>(2, nodes))))) + 2;
}

} // namespace

FabricSlurmTransport::FabricSlurmTransport(std::shared_ptr<RemoteShell> shell, QObject *parent)
    : FabricTransport(parent)
    , m_shell(std::move(shell))
{
    m_pollTimer.setSingleShot(true);
    connect(&m_pollTimer, &QTimer::timeout, this, &FabricSlurmTransport::poll);
}

FabricSlurmTransport::~FabricSlurmTransport() = default;

void FabricSlurmTransport::prepare(const FabricRequest &request)
{
    ++m_generation;
    m_pollTimer.stop();
    m_request = request;
    m_ownReservation = false;
    m_reservation.clear();
    m_jobIds.clear();
    m_probe = FabricJobScript::probeSource();
    Q_EMIT stageChanged(QStringLiteral("preparing the output directory"));
    const quint64 gen = m_generation;
    // Absolute paths: the jobs' working directory need not be the login shell's.
    whenFinished(m_shell->runScript("cd && pwd"), this, [this, gen](const CommandResult &home) {
        if (gen != m_generation)
            return;
        if (!home.ok()) {
            Q_EMIT failed(QStringLiteral("cannot reach the cluster: %1").arg(home.errorText()));
            return;
        }
        QString dir = m_request.outputDirectory.isEmpty() ? QStringLiteral(".cache/strata/fabric") : m_request.outputDirectory;
        if (!dir.startsWith(QLatin1Char('/')))
            dir = QString::fromUtf8(home.stdoutData).trimmed() + QLatin1Char('/') + dir;
        // A directory per run: job ids repeat (a reinstalled cluster, two labs sharing a home).
        m_request.outputDirectory = dir + QStringLiteral("/run-") + m_request.tag.left(12);
        whenFinished(m_shell->run({QStringLiteral("mkdir"), QStringLiteral("-p"), m_request.outputDirectory}), this,
                     [this, gen](const CommandResult &made) {
            if (gen != m_generation)
                return;
            if (!made.ok()) {
                Q_EMIT failed(QStringLiteral("cannot create %1 on the cluster: %2").arg(m_request.outputDirectory, made.errorText()));
                return;
            }
            createReservation();
        });
    });
}

void FabricSlurmTransport::createReservation()
{
    if (!m_request.reservation.isEmpty()) {
        m_reservation = m_request.reservation;
        Q_EMIT prepared();
        return;
    }
    const QString name = FabricJobScript::reservationName(m_request.tag);
    const int minutes = qMax(1, m_request.timeLimitMinutes) * roundsAtMost(m_request.nodes.size()) + 5;
    Q_EMIT stageChanged(QStringLiteral("creating maintenance reservation %1 on %2 for at most %3 min").arg(name, m_request.nodes.join(QLatin1Char(','))).arg(minutes));
    const quint64 gen = m_generation;
    whenFinished(m_shell->runScript(FabricJobScript::createReservationScript(m_request, minutes).toUtf8()), this,
                 [this, gen, name](const CommandResult &r) {
        if (gen != m_generation)
            return;
        if (!r.ok()) {
            if (!r.ran() && r.mayHaveRun) // it may exist: delete it rather than leave it behind
                m_ownReservation = true, m_reservation = name;
            Q_EMIT failed(QStringLiteral("creating the maintenance reservation %1 failed: %2 (Slurm operators and "
                                         "administrators may create one; or pass an existing one with --reservation)")
                              .arg(name, r.errorText()));
            return;
        }
        m_ownReservation = true;
        m_reservation = name;
        Q_EMIT prepared();
    });
}

void FabricSlurmTransport::runGroups(int round, const QList<QStringList> &groups)
{
    m_round = round;
    m_groups = groups;
    m_jobIds = QStringList(m_groups.size());
    m_finalStates.clear();
    m_waitingForNode.clear();
    m_results.clear();
    Q_EMIT stageChanged(QStringLiteral("round %1: submitting %2 group(s)").arg(round).arg(m_groups.size()));
    submitGroup(0);
}

void FabricSlurmTransport::submitGroup(int index)
{
    if (index >= m_groups.size()) {
        Q_EMIT groupsStarted(m_jobIds);
        poll();
        return;
    }
    QString error;
    const QStringList argv = FabricJobScript::sbatchArguments(m_request, m_groups.at(index), m_reservation, &error);
    if (argv.isEmpty()) {
        Q_EMIT failed(error);
        return;
    }
    const quint64 gen = m_generation;
    whenFinished(m_shell->run(argv, FabricJobScript::batchScript(m_request, m_probe).toUtf8()), this, [this, gen, index](const CommandResult &r) {
        if (gen != m_generation)
            return;
        const QString jobId = SlurmCommands::jobIdFromSbatchOutput(r.stdoutData);
        if (!r.ok() || jobId.isEmpty()) {
            Q_EMIT failed(!r.ran() && r.mayHaveRun
                              ? QStringLiteral("sbatch's answer was lost (%1): a job named strata-fabric with comment %2 may be running; "
                                               "cancel it before testing again")
                                    .arg(r.errorText(), SlurmCommands::submissionComment(m_request.tag))
                              : QStringLiteral("sbatch refused the fabric test on %1: %2").arg(m_groups.at(index).join(QLatin1Char(',')), r.errorText()));
            return;
        }
        m_jobIds[index] = jobId;
        submitGroup(index + 1);
    });
}

void FabricSlurmTransport::poll()
{
    const quint64 gen = m_generation;
    whenFinished(m_shell->run({QStringLiteral("squeue"), QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("all"),
                               QStringLiteral("-j"), m_jobIds.join(QLatin1Char(',')), QStringLiteral("-o"), QStringLiteral("%i %T %r")}),
                 this, [this, gen](const CommandResult &r) {
        if (gen != m_generation)
            return;
        if (!r.ran()) {
            // A passing failure of the login: keep following, the jobs run on.
            Q_EMIT stageChanged(QStringLiteral("cannot read the jobs' states (%1); trying again").arg(r.errorText()));
            m_pollTimer.start(m_pollIntervalMs);
            return;
        }
        const auto states = FabricJobScript::parseJobStates(r.stdoutData);
        QStringList waiting;
        bool allEnded = true;
        for (const QString &id : std::as_const(m_jobIds)) {
            const auto it = states.constFind(id);
            // Gone from squeue (MinJobAge passed): it ended; its output tells how.
            if (it == states.constEnd() || hasEnded(it->state)) {
                m_finalStates.insert(id, it == states.constEnd() ? QStringLiteral("(no longer listed)") : it->word);
                continue;
            }
            allEnded = false;
            if (it->state == JobState::Pending)
                waiting << QStringLiteral("%1 pending (%2)").arg(id, it->reason);
            if (!it->waitsForUnavailableNode) {
                m_waitingForNode.remove(id);
                continue;
            }
            auto since = m_waitingForNode.find(id);
            if (since == m_waitingForNode.end()) {
                since = m_waitingForNode.insert(id, QElapsedTimer());
                since->start();
            } else if (since->hasExpired(m_unavailableNodeGraceMs)) {
                Q_EMIT failed(QStringLiteral("job %1 waited %2 s for a node Slurm cannot use (%3): a node of the test is drained, "
                                             "down or not responding; resume it or leave it out")
                                  .arg(id).arg(since->elapsed() / 1000).arg(it->reason));
                return;
            }
        }
        if (allEnded) {
            readOutputs();
            return;
        }
        Q_EMIT stageChanged(QStringLiteral("round %1: %2").arg(m_round).arg(waiting.isEmpty() ? QStringLiteral("running") : waiting.join(QLatin1String("; "))));
        m_pollTimer.start(m_pollIntervalMs);
    });
}

void FabricSlurmTransport::readOutputs()
{
    m_results = QList<FabricGroupResult>(m_groups.size());
    m_outputsPending = int(m_groups.size());
    for (int i = 0; i < m_groups.size(); ++i)
        readOutput(i);
}

void FabricSlurmTransport::readOutput(int index)
{
    const QString jobId = m_jobIds.at(index);
    const QString file = FabricJobScript::outputFile(m_request.outputDirectory, jobId);
    const quint64 gen = m_generation;
    whenFinished(m_shell->run({QStringLiteral("tail"), QStringLiteral("-c"), QString::number(kOutputReadBytes), file}), this,
                 [this, gen, index, jobId, file](const CommandResult &r) {
        if (gen != m_generation)
            return;
        FabricGroupResult result;
        if (r.ok()) {
            result = groupResultFromOutput(r.stdoutData, QStringLiteral("job ") + jobId, m_finalStates.value(jobId));
        } else {
            result.error = QStringLiteral("cannot read %1: %2").arg(file, r.errorText());
        }
        result.nodes = m_groups.at(index);
        result.jobId = jobId;
        m_results[index] = result;
        if (--m_outputsPending == 0) {
            m_jobIds.clear(); // all ended: nothing to cancel
            Q_EMIT groupsEnded(m_results);
        }
    });
}

void FabricSlurmTransport::release()
{
    const quint64 gen = ++m_generation;
    m_pollTimer.stop();
    QStringList live;
    for (const QString &id : std::as_const(m_jobIds))
        if (!id.isEmpty() && !m_finalStates.contains(id))
            live << id;
    m_jobIds.clear();
    if (live.isEmpty()) {
        deleteReservation(0);
        return;
    }
    Q_EMIT stageChanged(QStringLiteral("cancelling job(s) %1").arg(live.join(QLatin1Char(','))));
    QStringList argv{QStringLiteral("scancel")};
    argv << live;
    whenFinished(m_shell->run(argv), this, [this, gen](const CommandResult &) {
        if (gen == m_generation)
            deleteReservation(0);
    });
}

void FabricSlurmTransport::deleteReservation(int attempt)
{
    if (!m_ownReservation || m_reservation.isEmpty()) {
        Q_EMIT released({});
        return;
    }
    const QString name = m_reservation;
    const quint64 gen = m_generation;
    Q_EMIT stageChanged(QStringLiteral("deleting reservation %1").arg(name));
    whenFinished(m_shell->run(FabricJobScript::deleteReservationCommand(name)), this, [this, gen, name, attempt](const CommandResult &r) {
        if (gen != m_generation)
            return;
        // Jobs just cancelled may still be completing in the reservation, and Slurm refuses to
        // delete it then: a few tries a second apart.
        if (!r.ok() && r.ran() && attempt < 5) {
            QTimer::singleShot(1000, this, [this, gen, attempt] {
                if (gen == m_generation)
                    deleteReservation(attempt + 1);
            });
            return;
        }
        m_ownReservation = false;
        Q_EMIT released(r.ok() ? QString()
                               : QStringLiteral("the reservation %1 could not be deleted (%2): delete it with `scontrol delete ReservationName=%1`")
                                     .arg(name, r.errorText()));
    });
}

} // namespace strata
