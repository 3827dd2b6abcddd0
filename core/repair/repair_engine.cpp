#include "repair_engine.h"

#include "health_exposition.h"
#include "repair_records_query.h"

#include "burnin/burnin_session.h"
#include "model/when_finished.h"
#include "prometheus/metrics_source.h"
#include "prometheus/prometheus_client.h"
#include "prometheus/pushgateway_client.h"
#include "session/cluster_session.h"
#include "slurm/slurm_commands.h"
#include "ssh/remote_shell.h"
#include "ssh/shell_quote.h"

namespace strata {

namespace {

QString reservationName(const QString &node)
{
    return QStringLiteral("strata-repair-") + node;
}

QVector<int> allGpus(const SnapshotPtr &snapshot, const QString &node)
{
    QVector<int> indices;
    if (const Node *n = snapshot->node(node)) {
        for (const Gpu &g : n->gpus)
            indices << g.index;
    }
    return indices;
}

} // namespace

RepairEngine::RepairEngine(ClusterSession *cluster, Options options, QObject *parent)
    : QObject(parent), m_cluster(cluster), m_options(std::move(options))
{
}

RepairEngine::~RepairEngine() = default;

QString RepairEngine::configurationProblem() const
{
    const ClusterProfile &p = m_cluster->profile();
    if (!m_cluster->metrics())
        return QStringLiteral("the repair loop keeps its records in the cluster's Prometheus: the profile has no Prometheus URL");
    const bool dryRun = m_options.dryRun || m_options.policy.dryRun;
    if (!dryRun && !m_cluster->metrics()->pushgateway())
        return QStringLiteral("the repair loop publishes every step to a Pushgateway that Prometheus scrapes: the profile has "
                              "none (pushgatewayUrl, --pushgateway); a dry run needs none");
    if (!dryRun && m_options.policy.test == RepairTest::Burnin && p.orchestrator == OrchestratorKind::Slurm
        && m_options.agentLocalPath.isEmpty())
        return QStringLiteral("the policy's test is a burn-in and no local strata-burn was found to deploy (--agent-binary)");
    if (!dryRun && m_options.policy.test == RepairTest::Burnin && p.orchestrator == OrchestratorKind::Kubernetes
        && p.burninImage.isEmpty())
        return QStringLiteral("the policy's test is a burn-in and the profile names no image with strata-burn (burninImage)");
    return {};
}

void RepairEngine::loadRecords()
{
    if (const QString problem = configurationProblem(); !problem.isEmpty()) {
        Q_EMIT recordsLoaded(problem);
        return;
    }
    readRepairRecords(m_cluster->metrics()->client(), this, [this](const RepairRecords &read) {
        if (read.error.isEmpty()) {
            m_records = read.nodes;
            m_gpuRecords = read.gpus;
        }
        Q_EMIT recordsLoaded(read.error);
    });
}

bool RepairEngine::pass(const SnapshotPtr &snapshot)
{
    if (m_pendingActions > 0 || !snapshot || (m_lastActionEnd.isValid() && snapshot->takenAt < m_lastActionEnd))
        return false;
    RepairPlanInput in;
    in.snapshot = snapshot.get();
    in.records = m_records;
    in.testOutcomes = m_testOutcomes;
    in.policy = m_options.policy;
    in.dryRun = m_options.dryRun;
    in.now = QDateTime::currentDateTimeUtc();
    in.operatorUser = m_options.operatorUser;
    in.confirmed = m_options.confirmed;
    for (auto it = m_tests.begin(); it != m_tests.end(); ++it)
        in.testsRunning.insert(it.key());
    m_lastSteps = planRepairs(in);
    actionStarted(); // held until every step below has been handed out
    for (const RepairStep &step : std::as_const(m_lastSteps)) {
        if (!step.isTaken()) {
            Q_EMIT stepHeld(step);
            continue;
        }
        take(step, snapshot);
    }
    actionEnded();
    return true;
}

void RepairEngine::actionStarted()
{
    ++m_pendingActions;
}

void RepairEngine::actionEnded()
{
    m_lastActionEnd = QDateTime::currentDateTimeUtc();
    if (--m_pendingActions == 0)
        Q_EMIT passFinished();
}

void RepairEngine::finishStep(const RepairStep &step, const QString &error)
{
    Q_EMIT stepDone(step, error);
    actionEnded();
}

void RepairEngine::take(const RepairStep &step, const SnapshotPtr &snapshot)
{
    actionStarted();
    switch (step.kind) {
    case RepairStepKind::Suspect:
        record(step, snapshot, QStringLiteral("suspected"), step.gpu >= 0 ? QVector<int>{step.gpu} : allGpus(snapshot, step.node));
        finishStep(step, {});
        return;
    case RepairStepKind::ResumedOutside:
        record(step, snapshot, QString(), {});
        finishStep(step, {});
        return;
    case RepairStepKind::Drain:
        Q_EMIT message(QStringLiteral("draining %1: %2").arg(step.node, step.preview.summary()));
        whenFinished(m_cluster->drain({step.node}, repairDrainReason(step.evidenceCode, step.evidence)), this,
                     [this, step, snapshot](const ActionResult &r) {
                         if (r.ok)
                             record(step, snapshot, QStringLiteral("drained"), allGpus(snapshot, step.node));
                         finishStep(step, r.ok ? QString() : r.message);
                     },
                     [this, step](const QString &why) { finishStep(step, why); });
        return;
    case RepairStepKind::StartTest:
        startTest(step, snapshot);
        return;
    case RepairStepKind::Return:
    case RepairStepKind::Replace:
    case RepairStepKind::TestNotRun:
        endTest(step, snapshot);
        return;
    }
    finishStep(step, QStringLiteral("unknown step"));
}

void RepairEngine::startTest(const RepairStep &step, const SnapshotPtr &snapshot)
{
    if (m_tests.contains(step.node)) {
        finishStep(step, QStringLiteral("a test runs on %1 already").arg(step.node));
        return;
    }
    if (snapshot->orchestrator != OrchestratorKind::Slurm) {
        // Kubernetes: the burn-in's Jobs tolerate the cordon; the node stays cordoned.
        runBurnin(step, snapshot, QString());
        return;
    }
    if (!SlurmCommands::isValidNodeName(step.node)) {
        finishStep(step, QStringLiteral("\"%1\" is not a node name Strata passes to scontrol").arg(step.node));
        return;
    }
    // A maintenance reservation for the login's user on the node (kept if an interrupted run
    // left it), then the node resumed into it: Slurm starts no job on a drained node.
    const QString name = ShellQuote::quote(reservationName(step.node));
    const QString node = ShellQuote::quote(step.node);
    const int minutes = (m_options.policy.burninSeconds * int(m_options.policy.burninTests.size())) / 60 + kReservationMinutesSlack;
    const QString script = QStringLiteral("scontrol show reservation %1 >/dev/null 2>&1 || "
                                          "scontrol create reservation ReservationName=%1 StartTime=now Duration=%2 Nodes=%3 "
                                          "Users=\"$(id -un)\" Flags=MAINT,IGNORE_JOBS || exit 1\n"
                                          "scontrol update NodeName=%3 State=RESUME\n")
                               .arg(name)
                               .arg(minutes)
                               .arg(node);
    Q_EMIT message(QStringLiteral("%1: maintenance reservation %2, node resumed into it").arg(step.node, reservationName(step.node)));
    whenFinished(m_cluster->shell()->runScript(script.toUtf8()), this,
                 [this, step, snapshot](const CommandResult &r) {
                     if (!r.ok()) {
                         finishStep(step, QStringLiteral("the maintenance reservation for %1's test could not be made: %2")
                                              .arg(step.node, r.errorText()));
                         return;
                     }
                     runBurnin(step, snapshot, reservationName(step.node));
                 },
                 [this, step](const QString &why) { finishStep(step, why); });
}

void RepairEngine::runBurnin(const RepairStep &step, const SnapshotPtr &snapshot, const QString &reservation)
{
    const ClusterProfile &p = m_cluster->profile();
    BurninRequest request;
    request.nodes = {step.node};
    request.tests = m_options.policy.burninTests;
    request.durationSeconds = m_options.policy.burninSeconds;
    request.backend = m_options.burninBackend.isEmpty() ? m_options.policy.burninBackend : m_options.burninBackend;
    if (m_options.injectByNode.contains(step.node))
        request.injectByNode.insert(step.node, m_options.injectByNode.value(step.node));
    const Node *node = snapshot->node(step.node);
    request.gpusByNode.insert(step.node, node ? node->gpuCount : 0);
    request.reservation = reservation;
    request.transport = p.orchestrator == OrchestratorKind::Kubernetes ? BurninTransportKind::Kubernetes : BurninTransportKind::Slurm;
    request.image = p.burninImage;
    request.namespaceName = p.kubeNamespace;
    request.agentLocalPath = m_options.agentLocalPath;
    request.agentRemotePath = p.burninAgentPath;
    auto test = std::make_shared<BurninSession>(m_cluster, m_options.burninHistoryPath);
    m_tests.insert(step.node, test);
    record(step, snapshot, QString(), {});
    const QString nodeName = step.node;
    connect(test.get(), &BurninSession::stageChanged, this,
            [this, nodeName](const QString &stage) { Q_EMIT message(QStringLiteral("%1 test: %2").arg(nodeName, stage)); });
    connect(test.get(), &BurninSession::completed, this, [this, nodeName](const BurninVerdict &v) {
        // Passed; failed by a GPU's own test (evidence about the hardware); or judged without a
        // GPU verdict (the agent never ran, its output broke): not evidence, the node waits.
        int gpus = 0, failing = 0;
        for (const BurninGpuVerdict &g : v.gpus) {
            gpus += g.node == nodeName ? 1 : 0;
            failing += g.node == nodeName && !g.passed ? 1 : 0;
        }
        using Result = RepairTestOutcome::Result;
        const Result result = !v.failedNodes().contains(nodeName) && gpus > 0 ? Result::Passed
            : failing > 0                                                     ? Result::Failed
                                                                              : Result::NotRun;
        const QString evidence = result == Result::Passed ? QStringLiteral("burn-in passed on %1 GPUs").arg(gpus)
            : result == Result::Failed                    ? v.drainReason(nodeName)
                                                          : QStringLiteral("the burn-in judged no GPU: %1").arg(v.drainReason(nodeName));
        m_testOutcomes.insert(nodeName, {result, evidence});
        m_testVerdicts.insert(nodeName, v);
        if (auto done = m_tests.take(nodeName))
            done->deleteLater();
        Q_EMIT testFinished(nodeName, result == Result::Passed, evidence);
    });
    connect(test.get(), &BurninSession::failed, this, [this, nodeName](const QString &why) {
        // The test could not run: no verdict on the GPUs. The node goes back out, drained, with why.
        const QString evidence = QStringLiteral("the burn-in could not run: %1").arg(why);
        m_testOutcomes.insert(nodeName, {RepairTestOutcome::Result::NotRun, evidence});
        if (auto done = m_tests.take(nodeName))
            done->deleteLater();
        Q_EMIT testFinished(nodeName, false, evidence);
    });
    test->start(request);
    finishStep(step, {});
}

void RepairEngine::endTest(const RepairStep &step, const SnapshotPtr &snapshot)
{
    const bool slurm = snapshot->orchestrator == OrchestratorKind::Slurm;
    const BurninVerdict verdict = m_testVerdicts.value(step.node);
    const auto done = [this, step, snapshot, verdict](const QString &error) {
        if (!error.isEmpty()) {
            finishStep(step, error);
            return;
        }
        if (step.kind == RepairStepKind::Return) {
            record(step, snapshot, QStringLiteral("test-passed"), allGpus(snapshot, step.node));
        } else if (step.kind == RepairStepKind::TestNotRun) {
            record(step, snapshot, QString(), {}); // no verdict: nothing on the GPUs' records
        } else {
            QVector<int> failing;
            for (const BurninGpuVerdict &g : verdict.gpus) {
                if (g.node == step.node && !g.passed)
                    failing << g.gpu;
            }
            record(step, snapshot, QStringLiteral("test-failed"), failing.isEmpty() ? allGpus(snapshot, step.node) : failing);
        }
        m_testOutcomes.remove(step.node); // after record(): it reads the verdict's figures
        m_testVerdicts.remove(step.node);
        finishStep(step, {});
    };
    const auto release = [this, slurm, step, done](const QString &error) {
        if (!error.isEmpty() || !slurm)
            return done(error);
        deleteReservation(step.node, done);
    };
    if (step.kind == RepairStepKind::Replace || step.kind == RepairStepKind::TestNotRun) {
        // Out again (on Slurm it was resumed into the test's reservation), its reason saying why.
        const QString code = step.kind == RepairStepKind::Replace ? nodeHealthStateName(NodeHealthState::Replace) : step.evidenceCode;
        whenFinished(m_cluster->drain({step.node}, repairDrainReason(code, step.evidence)), this,
                     [release](const ActionResult &r) { release(r.ok ? QString() : r.message); },
                     [release](const QString &why) { release(why); });
    } else if (!slurm) {
        whenFinished(m_cluster->resume({step.node}), this,
                     [release](const ActionResult &r) { release(r.ok ? QString() : r.message); },
                     [release](const QString &why) { release(why); });
    } else {
        release({}); // Slurm: resumed into the reservation already; deleting it returns the node
    }
}

void RepairEngine::deleteReservation(const QString &node, std::function<void(const QString &)> done)
{
    // Gone already (an interrupted test's, deleted by hand) is fine: the node is out of it.
    const QString name = ShellQuote::quote(reservationName(node));
    const QString script = QStringLiteral("scontrol show reservation %1 >/dev/null 2>&1 || exit 0\n"
                                          "scontrol delete ReservationName=%1\n")
                               .arg(name);
    whenFinished(m_cluster->shell()->runScript(script.toUtf8()), this,
                 [done, node](const CommandResult &r) {
                     done(r.ok() ? QString()
                                 : QStringLiteral("the reservation %1 could not be deleted (%2): delete it with `scontrol delete "
                                                  "ReservationName=%1`")
                                       .arg(reservationName(node), r.errorText()));
                 },
                 [done](const QString &why) { done(why); });
}

void RepairEngine::record(const RepairStep &step, const SnapshotPtr &snapshot, const QString &gpuEvent, const QVector<int> &gpus)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    NodeHealthRecord &r = m_records[step.node];
    r.node = step.node;
    r.state = step.to;
    r.since = now;
    if (step.kind == RepairStepKind::Drain)
        r.drainedAt = now;
    if (step.kind != RepairStepKind::StartTest) {
        r.evidenceCode = step.kind == RepairStepKind::Replace ? QStringLiteral("test-failed") : step.evidenceCode;
        r.evidence = step.evidence;
    }
    r.gpuUuids.clear();
    const Node *node = snapshot->node(step.node);
    if (node) {
        for (const Gpu &g : node->gpus) {
            if (g.index >= 0 && g.index < 1024) {
                if (r.gpuUuids.size() <= g.index)
                    r.gpuUuids.resize(g.index + 1);
                r.gpuUuids[g.index] = g.uuid;
            }
        }
    }
    publishNode(step.node);
    if (gpuEvent.isEmpty() || !node)
        return;
    QStringList events{gpuEvent};
    if (step.kind == RepairStepKind::Suspect && !step.evidenceCode.isEmpty())
        events << step.evidenceCode; // which XIDs, ECC and row-remap findings the GPU had
    if (step.kind == RepairStepKind::Return)
        events << QStringLiteral("returned");
    if (step.kind == RepairStepKind::Replace)
        events << QStringLiteral("replace");
    for (const Gpu &g : node->gpus) {
        if (g.uuid.isEmpty() || !gpus.contains(g.index))
            continue;
        GpuHealthRecord &gr = m_gpuRecords[g.uuid];
        gr.uuid = g.uuid;
        for (const QString &event : std::as_const(events))
            gr.count(event, step.node, g.index, now);
        if (const BurninGpuVerdict *v = m_testVerdicts.value(step.node).gpu(step.node, g.index)) {
            for (const BurninTestVerdict &t : v->tests) {
                if (t.figure)
                    gr.burninFigures[t.test] = *t.figure;
            }
        }
        publishGpu(g.uuid);
    }
}

void RepairEngine::publishNode(const QString &node)
{
    publish(HealthExposition::nodeGroupPath(node), HealthExposition::nodeGroup(m_records.value(node)));
}

void RepairEngine::publishGpu(const QString &uuid)
{
    publish(HealthExposition::gpuGroupPath(uuid), HealthExposition::gpuGroup(m_gpuRecords.value(uuid)));
}

void RepairEngine::publish(const QString &groupPath, const QByteArray &text)
{
    PushgatewayClient *pushgateway = m_cluster->metrics() ? m_cluster->metrics()->pushgateway() : nullptr;
    if (!pushgateway)
        return;
    actionStarted();
    const auto done = [this](const QString &error) {
        Q_EMIT published(error);
        actionEnded();
    };
    whenFinished(pushgateway->replaceGroup(groupPath, text), this, [done](const PushgatewayClient::Result &r) { done(r.error); }, done);
}

} // namespace strata
