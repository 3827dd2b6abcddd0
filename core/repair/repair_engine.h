#pragma once

#include "gpu_health_record.h"
#include "node_health_record.h"
#include "repair_planner.h"
#include "repair_policy.h"

#include "burnin/burnin_verdict.h"
#include "model/cluster_snapshot.h"

#include <QDateTime>
#include <QHash>
#include <QMap>
#include <QObject>
#include <QSet>

#include <memory>

namespace strata {

class BurninSession;
class ClusterSession;

// The repair loop's engine (issue 28): the same for `strata watch` (headless, unattended) and
// the window. Reads the loop's records from the cluster's Prometheus (what any Strata published
// through the Pushgateway: the shared store, no database of its own), plans on each snapshot
// (planRepairs: policy, cap, confirmation, dry run) and takes the steps through the session:
// drain/resume (Slurm) or cordon/uncordon (Kubernetes) through the orchestrator source; the test
// as a burn-in (BurninSession) - on Slurm in a maintenance reservation the engine creates on the
// node, which it then resumes into (Slurm starts no job on a drained node, not even in a
// reservation), so nobody else's job lands there; each state change and GPU event published to
// the Pushgateway at once (HealthExposition), records keyed by GPU UUID. Everything through the
// session's sources (its shell, orchestrator and metrics clients): the engine opens no
// connection of its own. Lives on the session's thread; never blocks.
//
// A pass acts on a snapshot taken after its last action ended (an older one does not show the
// drain yet); passFinished says when its actions and publishing are done. Tests run past their
// pass: testFinished, then the next pass returns or replaces the node.
class RepairEngine : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        RepairPolicy policy;
        bool dryRun = false;          // or the policy's
        QString operatorUser;         // whose jobs need no confirmation (the login's user)
        QSet<QString> confirmed;      // nodes an operator confirmed draining despite others' jobs
        // The burn-in: the agent to deploy, its backend ("cpu": the lab's stand-in for a GPU; empty:
        // the agent picks cuda), self-test faults by node (the lab's planted failures), history file.
        QString agentLocalPath;
        QString burninBackend;        // overrides the policy's burninBackend when set
        QMap<QString, QString> injectByNode;
        QString burninHistoryPath;
    };

    RepairEngine(ClusterSession *cluster, Options options, QObject *parent = nullptr);
    ~RepairEngine() override;

    // Reads the records back from Prometheus; recordsLoaded says how it went. Needs the
    // profile's Prometheus (the store) and, unless dry run, its Pushgateway (the publishing).
    void loadRecords();
    // One planning pass on `snapshot` (ignored while a pass runs or when the snapshot is older
    // than the last action: returns false then).
    bool pass(const SnapshotPtr &snapshot);

    // What the next pass runs with (the window's policy editor, Plan and Apply).
    void setPolicy(const RepairPolicy &policy) { m_options.policy = policy; }
    void setDryRun(bool dryRun) { m_options.dryRun = dryRun; }
    void setConfirmed(const QSet<QString> &nodes) { m_options.confirmed = nodes; }
    const Options &options() const { return m_options; }

    bool isPassRunning() const { return m_pendingActions > 0; }
    bool isTestRunning() const { return !m_tests.isEmpty(); }
    // Why the engine cannot run with this session's profile (no Prometheus, no Pushgateway,
    // a burn-in without an agent); empty when it can.
    QString configurationProblem() const;
    const QHash<QString, NodeHealthRecord> &records() const { return m_records; }
    const QHash<QString, GpuHealthRecord> &gpuRecords() const { return m_gpuRecords; }
    // The steps of the last pass, taken and held.
    const QVector<RepairStep> &lastSteps() const { return m_lastSteps; }

    static constexpr int kReservationMinutesSlack = 10;

Q_SIGNALS:
    void recordsLoaded(const QString &error); // empty: read
    // A step taken (error empty) or failed (error: why; the record did not move).
    void stepDone(const strata::RepairStep &step, const QString &error);
    void stepHeld(const strata::RepairStep &step);
    void published(const QString &error); // one group written (error empty) or not
    // A test ended: passed, or not (failed by a GPU, or did not run: the evidence says which).
    void testFinished(const QString &node, bool passed, const QString &evidence);
    void message(const QString &text);    // what runs now, for a log or a status line
    void passFinished();

private:
    void take(const RepairStep &step, const SnapshotPtr &snapshot);
    void startTest(const RepairStep &step, const SnapshotPtr &snapshot);
    void runBurnin(const RepairStep &step, const SnapshotPtr &snapshot, const QString &reservation);
    void endTest(const RepairStep &step, const SnapshotPtr &snapshot);
    void deleteReservation(const QString &node, std::function<void(const QString &)> done);
    void actionStarted();
    void actionEnded();
    // The record moves to step.to (now), with the step's evidence; GPU events counted; both published.
    void record(const RepairStep &step, const SnapshotPtr &snapshot, const QString &gpuEvent, const QVector<int> &gpus);
    void publishNode(const QString &node);
    void publishGpu(const QString &uuid);
    // One group replaced in the Pushgateway (none in the profile: nothing); published() says how.
    void publish(const QString &groupPath, const QByteArray &text);
    void finishStep(const RepairStep &step, const QString &error);

    ClusterSession *m_cluster;
    Options m_options;
    QHash<QString, NodeHealthRecord> m_records;
    QHash<QString, GpuHealthRecord> m_gpuRecords;
    QHash<QString, RepairTestOutcome> m_testOutcomes;   // finished tests not yet acted on
    QHash<QString, BurninVerdict> m_testVerdicts;       // node -> its test's verdict (failing GPUs)
    QHash<QString, std::shared_ptr<BurninSession>> m_tests; // node -> its running test
    QVector<RepairStep> m_lastSteps;
    int m_pendingActions = 0;
    QDateTime m_lastActionEnd; // UTC
};

} // namespace strata
