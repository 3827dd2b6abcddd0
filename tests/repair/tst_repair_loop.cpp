// The repair loop's pure parts (issue 28): the policy as a shared profile may write it, the drain
// preview, the planner's steps and guardrails (cap at once, per partition, per hour; another
// user's job needs a confirmation; a node others took out is left alone; dry run), the published
// exposition and its reading back from a real Prometheus answer captured in the lab.
#include "drain_preview.h"
#include "health_exposition.h"
#include "health_series_reader.h"
#include "model/cluster_snapshot.h"
#include "prometheus/prometheus_response_parser.h"
#include "repair_planner.h"
#include "repair_policy.h"

#include <QFile>
#include <QJsonDocument>
#include <QTest>

using namespace strata;

namespace {

const QDateTime kNow = QDateTime(QDate(2026, 12, 6), QTime(22, 0), Qt::UTC);

Node gpuNode(const QString &name, const QString &state = QStringLiteral("idle"))
{
    Node n;
    n.name = name;
    n.state = state;
    if (state.contains(QLatin1String("drain")))
        n.stateFlags << QStringLiteral("DRAIN");
    n.partitions << QStringLiteral("gpu");
    n.gpuCount = 8;
    for (int i = 0; i < 8; ++i) {
        Gpu g;
        g.index = i;
        g.uuid = QStringLiteral("GPU-%1-%2").arg(name).arg(i);
        n.gpus << g;
    }
    return n;
}

Job runningJob(const QString &id, const QString &user, const QStringList &nodes, int gpus)
{
    Job j;
    j.id = id;
    j.name = QStringLiteral("train-") + id;
    j.user = user;
    j.setState(QStringLiteral("RUNNING"));
    j.nodes = nodes;
    j.gpusRequested = gpus;
    return j;
}

// Four H100 nodes in partition gpu, alice's 2-node job on 01-02, bob's job on 04 (GPUs 0-3).
ClusterSnapshot fourNodes(const QStringList &states = {})
{
    ClusterSnapshot s;
    for (int i = 1; i <= 4; ++i)
        s.nodes << gpuNode(QStringLiteral("gpu-node0%1").arg(i), states.value(i - 1, QStringLiteral("idle")));
    Partition p;
    p.name = QStringLiteral("gpu");
    for (const Node &n : std::as_const(s.nodes))
        p.nodes << n.name;
    s.partitions << p;
    s.jobs << runningJob(QStringLiteral("101"), QStringLiteral("alice"), {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")}, 16);
    Job bob = runningJob(QStringLiteral("102"), QStringLiteral("bob"), {QStringLiteral("gpu-node04")}, 4);
    bob.gpus.insert(QStringLiteral("gpu-node04"), {0, 1, 2, 3});
    s.jobs << bob;
    Job pending = runningJob(QStringLiteral("103"), QStringLiteral("carol"), {QStringLiteral("gpu-node03")}, 8);
    pending.setState(QStringLiteral("PENDING"));
    s.jobs << pending;
    s.finalize();
    return s;
}

Finding xid(const QString &node, int code)
{
    return Finding::make(Finding::Severity::Critical, node, 3, QStringLiteral("xid-%1").arg(code),
                         QStringLiteral("%1 GPU 3: XID %2").arg(node).arg(code));
}

RepairPolicy applyingPolicy()
{
    RepairPolicy p;
    p.dryRun = false;
    p.maxNodesOut = 2;
    p.maxPartitionPercent = 50;
    p.maxDrainsPerHour = 10;
    return p;
}

NodeHealthRecord record(const QString &node, NodeHealthState state, const QString &code = QStringLiteral("xid-79"),
                        const QDateTime &drainedAt = {})
{
    NodeHealthRecord r;
    r.node = node;
    r.state = state;
    r.since = kNow.addSecs(-600);
    r.drainedAt = drainedAt;
    r.evidenceCode = code;
    r.evidence = QStringLiteral("GPU 3: XID 79");
    return r;
}

QString describe(const QVector<RepairStep> &steps)
{
    QStringList out;
    for (const RepairStep &s : steps)
        out << s.node + QLatin1Char(' ') + repairStepKindName(s.kind) + (s.isTaken() ? QString() : QLatin1Char('/') + repairHoldName(s.hold));
    return out.join(QStringLiteral("; "));
}

} // namespace

class TestRepairLoop : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void policyDefaultsAndRoundTrip()
    {
        QString error;
        const std::optional<RepairPolicy> empty = RepairPolicy::fromJson({}, &error);
        QVERIFY2(empty, qPrintable(error));
        QVERIFY(!empty->dryRun); // acting is armed by the operator's --apply, not by a file
        QVERIFY(empty->suspects(QStringLiteral("xid-79")));
        QVERIFY(!empty->suspects(QStringLiteral("gpu-temp-high")));
        RepairPolicy p = applyingPolicy();
        p.suspectOn = {QStringLiteral("straggler"), QStringLiteral("row-remap-*")};
        p.test = RepairTest::None;
        p.burninBackend = QStringLiteral("cpu");
        const std::optional<RepairPolicy> back = RepairPolicy::fromJson(p.toJson(), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->toJson(), p.toJson());
        QVERIFY(back->suspects(QStringLiteral("row-remap-failure")));
        QVERIFY(!back->suspects(QStringLiteral("row-remap")));
        QVERIFY(back->suspects(QStringLiteral("straggler")));
        QVERIFY(!back->suspects(QStringLiteral("straggler-2")));
    }

    void policyRefusesWhatAFileMustNotAsk_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("said");
        QTest::newRow("unknown field") << QByteArray(R"({"maxNodes": 3})") << QStringLiteral("repair.maxNodes is not a field");
        QTest::newRow("negative cap") << QByteArray(R"({"maxNodesOut": -1})") << QStringLiteral("repair.maxNodesOut must be a whole number from 0");
        QTest::newRow("fraction") << QByteArray(R"({"maxDrainsPerHour": 1.5})") << QStringLiteral("repair.maxDrainsPerHour must be a whole number");
        QTest::newRow("huge") << QByteArray(R"({"maxNodesOut": 1e12})") << QStringLiteral("from 0 to 100000");
        QTest::newRow("percent") << QByteArray(R"({"maxPartitionPercent": 101})") << QStringLiteral("from 0 to 100");
        QTest::newRow("dry run as text") << QByteArray(R"({"dryRun": "false"})") << QStringLiteral("repair.dryRun must be true or false");
        QTest::newRow("shell in a code") << QByteArray(R"({"suspectOn": ["xid-79; rm -rf /"]})") << QStringLiteral("repair.suspectOn[0] is not a finding code");
        QTest::newRow("star inside") << QByteArray(R"({"suspectOn": ["x*d"]})") << QStringLiteral("repair.suspectOn[0]");
        QTest::newRow("empty list") << QByteArray(R"({"suspectOn": []})") << QStringLiteral("must hold 1 to 64 entries, not 0");
        QTest::newRow("test") << QByteArray(R"({"test": "reboot"})") << QStringLiteral("repair.test must be \"burnin\" or \"none\"");
        QTest::newRow("burn-in test") << QByteArray(R"({"burninTests": ["gemm", "fire"]})") << QStringLiteral("\"fire\" is not a burn-in test");
        QTest::newRow("seconds") << QByteArray(R"({"burninSeconds": 1})") << QStringLiteral("repair.burninSeconds must be a whole number from 5");
        QTest::newRow("backend") << QByteArray(R"({"burninBackend": "--gpus=all"})") << QStringLiteral("repair.burninBackend must be");
    }
    void policyRefusesWhatAFileMustNotAsk()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, said);
        QString error;
        QVERIFY(!RepairPolicy::fromJson(QJsonDocument::fromJson(json).object(), &error));
        QVERIFY2(error.contains(said), qPrintable(error));
    }

    void drainPreviewListsJobsOwnersAndCapacity()
    {
        const ClusterSnapshot s = fourNodes({QString(), QString(), QStringLiteral("drained")});
        const DrainPreview p = DrainPreview::of(s, QStringLiteral("gpu-node04"));
        QVERIFY(p.nodeKnown);
        QCOMPARE(p.jobs.size(), 1);
        QCOMPARE(p.jobs[0].id, QStringLiteral("102"));
        QCOMPARE(p.jobs[0].user, QStringLiteral("bob"));
        QCOMPARE(p.jobs[0].gpusOnNode, 4); // its indices there, not the node's 8
        QCOMPARE(p.otherUsers(QStringLiteral("alice")), QStringList{QStringLiteral("bob")});
        QVERIFY(p.otherUsers(QStringLiteral("bob")).isEmpty());
        QCOMPARE(p.partitions.size(), 1);
        QCOMPARE(p.partitions[0].nodes, 4);
        QCOMPARE(p.partitions[0].nodesInService, 3); // node03 is drained
        QCOMPARE(p.partitions[0].nodesInServiceAfter, 2);
        QCOMPARE(p.partitions[0].gpusInService, 24);
        QCOMPARE(p.partitions[0].gpusInServiceAfter, 16);
        QCOMPARE(p.summary(), QStringLiteral("gpu-node04 runs 1 job: 102 \"train-102\" (bob, 4 GPUs); partition gpu keeps 2 of 4 nodes "
                                             "(16 of 24 GPUs) in service"));
        // A two-node job's share on one node; the pending job on node03 holds nothing.
        const DrainPreview p1 = DrainPreview::of(s, QStringLiteral("gpu-node01"));
        QCOMPARE(p1.jobs.size(), 1);
        QCOMPARE(p1.jobs[0].gpusOnNode, 8);
        QVERIFY(DrainPreview::of(s, QStringLiteral("gpu-node03")).jobs.isEmpty());
        QVERIFY(!DrainPreview::of(s, QStringLiteral("gpu-node09")).nodeKnown);
    }

    void hostileJobNameIsShownQuotedAndCut()
    {
        ClusterSnapshot s = fourNodes();
        s.jobs[1].name = QStringLiteral("x\n\x1b[2Jevil") + QString(60, QLatin1Char('a'));
        const QString line = DrainPreview::of(s, QStringLiteral("gpu-node04")).summary();
        QVERIFY(!line.contains(QLatin1Char('\n')));
        QVERIFY(!line.contains(QChar(0x1b)));
        QVERIFY2(line.contains(QStringLiteral("\"x??[2Jevil")), qPrintable(line));
        QVERIFY(line.contains(QStringLiteral("...\" (bob")));
    }

    void findingSuspectsAndDrainsAnIdleNode()
    {
        ClusterSnapshot s = fourNodes();
        s.findings << xid(QStringLiteral("gpu-node03"), 79)
                   << Finding::make(Finding::Severity::Warning, QStringLiteral("gpu-node02"), 1, QStringLiteral("gpu-temp-high"), QStringLiteral("hot"));
        RepairPlanInput in{&s, {}, {}, applyingPolicy(), false, kNow, QStringLiteral("ops"), {}, {}};
        const QVector<RepairStep> steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node03 suspect; gpu-node03 drain"));
        QCOMPARE(steps[1].from, NodeHealthState::Suspected);
        QCOMPARE(steps[1].to, NodeHealthState::Drained);
        QCOMPARE(steps[1].evidenceCode, QStringLiteral("xid-79"));
        QCOMPARE(steps[1].evidence, QStringLiteral("gpu-node03 GPU 3: XID 79"));
        QVERIFY(steps[1].preview.jobs.isEmpty());
        // Dry run: the same steps, none taken.
        in.dryRun = true;
        QCOMPARE(describe(planRepairs(in)), QStringLiteral("gpu-node03 suspect/dry-run; gpu-node03 drain/dry-run"));
    }

    void anotherUsersJobNeedsConfirmation()
    {
        ClusterSnapshot s = fourNodes();
        s.findings << xid(QStringLiteral("gpu-node04"), 48);
        RepairPlanInput in{&s, {}, {}, applyingPolicy(), false, kNow, QStringLiteral("ops"), {}, {}};
        QVector<RepairStep> steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node04 suspect; gpu-node04 drain/needs-confirmation"));
        QCOMPARE(steps[1].holdReason, QStringLiteral("gpu-node04 runs jobs of bob: an operator must confirm this drain (strata watch --confirm gpu-node04)"));
        QCOMPARE(steps[1].preview.jobs.size(), 1);
        in.operatorUser = QStringLiteral("bob"); // the operator's own job needs none
        QCOMPARE(describe(planRepairs(in)), QStringLiteral("gpu-node04 suspect; gpu-node04 drain"));
        in.operatorUser = QStringLiteral("ops");
        in.confirmed << QStringLiteral("gpu-node04");
        QCOMPARE(describe(planRepairs(in)), QStringLiteral("gpu-node04 suspect; gpu-node04 drain"));
    }

    // Three planted faults, cap two: the third stays suspected, held with why.
    void capAtOnceHoldsTheThirdNode()
    {
        ClusterSnapshot s = fourNodes();
        s.jobs.clear();
        s.findings << xid(QStringLiteral("gpu-node01"), 79) << xid(QStringLiteral("gpu-node02"), 79) << xid(QStringLiteral("gpu-node03"), 79);
        RepairPolicy policy = applyingPolicy();
        policy.maxPartitionPercent = 100;
        RepairPlanInput in{&s, {}, {}, policy, false, kNow, QStringLiteral("ops"), {}, {}};
        const QVector<RepairStep> steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node01 suspect; gpu-node01 drain; gpu-node02 suspect; gpu-node02 drain; "
                                                 "gpu-node03 suspect; gpu-node03 drain/cap-nodes-out"));
        QCOMPARE(steps[5].holdReason, QStringLiteral("the policy allows at most 2 nodes out of service through Strata at once; out now: gpu-node01, gpu-node02"));
        // A dry run shows the same holds: its drains count against the cap.
        in.dryRun = true;
        QCOMPARE(describe(planRepairs(in)), QStringLiteral("gpu-node01 suspect/dry-run; gpu-node01 drain/dry-run; gpu-node02 suspect/dry-run; "
                                                           "gpu-node02 drain/dry-run; gpu-node03 suspect/dry-run; gpu-node03 drain/cap-nodes-out"));
        in.dryRun = false;
        // The next round: two out (records), the third still suspected and still held.
        in.records.insert(QStringLiteral("gpu-node01"), record(QStringLiteral("gpu-node01"), NodeHealthState::Testing, QStringLiteral("xid-79"), kNow.addSecs(-60)));
        in.records.insert(QStringLiteral("gpu-node02"), record(QStringLiteral("gpu-node02"), NodeHealthState::Replace, QStringLiteral("test-failed"), kNow.addSecs(-60)));
        in.records.insert(QStringLiteral("gpu-node03"), record(QStringLiteral("gpu-node03"), NodeHealthState::Suspected));
        s.nodes[0].state = s.nodes[1].state = QStringLiteral("drained");
        s.nodes[0].stateFlags = s.nodes[1].stateFlags = {QStringLiteral("DRAIN")};
        QCOMPARE(describe(planRepairs(in)), QStringLiteral("gpu-node03 drain/cap-nodes-out"));
        // Another cluster's nodes in the shared store do not count: only this snapshot's.
        in.records.remove(QStringLiteral("gpu-node02"));
        in.records.insert(QStringLiteral("kube-gpu-07"), record(QStringLiteral("kube-gpu-07"), NodeHealthState::Replace, QStringLiteral("test-failed"), kNow.addSecs(-60)));
        s.nodes[1].state = QStringLiteral("idle");
        s.nodes[1].stateFlags.clear();
        s.findings.removeAt(1); // gpu-node02 was replaced: no finding there now
        QCOMPARE(describe(planRepairs(in)), QStringLiteral("gpu-node03 drain"));
    }

    // What the loop writes as the scheduler's reason it reads back; nobody else's reason reads as its.
    void drainReasonReadsBack()
    {
        const QString written = repairDrainReason(QStringLiteral("xid-79"), QStringLiteral("gpu-node03 GPU 3:\n XID 79"));
        QCOMPARE(written, QStringLiteral("strata repair: xid-79: gpu-node03 GPU 3: XID 79"));
        const std::optional<RepairDrainReason> read = parseRepairDrainReason(written);
        QVERIFY(read);
        QCOMPARE(read->code, QStringLiteral("xid-79"));
        QCOMPARE(read->evidence, QStringLiteral("gpu-node03 GPU 3: XID 79"));
        QCOMPARE(repairDrainReason(QStringLiteral("replace"), QString(250, QLatin1Char('x'))).size(), 200);
        QCOMPARE(parseRepairDrainReason(QStringLiteral("strata repair: replace"))->code, QStringLiteral("replace"));
        for (const QString &foreign : {QStringLiteral("hw check by ops"), QStringLiteral("strata repair: Not A Code: x"),
                                       QStringLiteral("strata repair:"), QStringLiteral("Strata repair: xid-79: x")})
            QVERIFY2(!parseRepairDrainReason(foreign), qPrintable(foreign));
    }

    // A suspected node is drained on the finding it shows now: its record may be a round old (the
    // GPU it named recovered, another GPU raised the same code), and the drain reason an operator
    // reads in the scheduler must name the GPU at fault. No finding now: the record's word.
    void suspectedNodeDrainsOnWhatItShowsNow()
    {
        ClusterSnapshot s = fourNodes();
        s.jobs.clear();
        Finding now = Finding::make(Finding::Severity::Critical, QStringLiteral("gpu-node03"), 5, QStringLiteral("xid-48"),
                                    QStringLiteral("gpu-node03 GPU 5: XID 48"));
        s.findings << Finding::make(Finding::Severity::Critical, QStringLiteral("gpu-node03"), 1, QStringLiteral("xid-79"),
                                    QStringLiteral("gpu-node03 GPU 1: XID 79"))
                   << now;
        RepairPlanInput in{&s, {}, {}, applyingPolicy(), false, kNow, QStringLiteral("ops"), {}, {}};
        NodeHealthRecord old = record(QStringLiteral("gpu-node03"), NodeHealthState::Suspected, QStringLiteral("xid-48"));
        old.evidence = QStringLiteral("gpu-node03 GPU 2: XID 48");
        in.records.insert(old.node, old);
        QVector<RepairStep> steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node03 drain"));
        QCOMPARE(steps[0].evidenceCode, QStringLiteral("xid-48")); // the record's code first, on the GPU that shows it
        QCOMPARE(steps[0].evidence, QStringLiteral("gpu-node03 GPU 5: XID 48"));
        s.findings.removeLast(); // another code only: that one
        steps = planRepairs(in);
        QCOMPARE(steps[0].evidenceCode, QStringLiteral("xid-79"));
        QCOMPARE(steps[0].evidence, QStringLiteral("gpu-node03 GPU 1: XID 79"));
        s.findings.clear(); // nothing now: the record's word
        steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node03 drain"));
        QCOMPARE(steps[0].evidence, QStringLiteral("gpu-node03 GPU 2: XID 48"));
    }

    void capPerPartitionAndPerHour()
    {
        ClusterSnapshot s = fourNodes();
        s.jobs.clear();
        s.findings << xid(QStringLiteral("gpu-node01"), 79) << xid(QStringLiteral("gpu-node02"), 79);
        RepairPolicy policy = applyingPolicy();
        policy.maxPartitionPercent = 25; // one of four
        RepairPlanInput in{&s, {}, {}, policy, false, kNow, QStringLiteral("ops"), {}, {}};
        QVector<RepairStep> steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node01 suspect; gpu-node01 drain; gpu-node02 suspect; gpu-node02 drain/cap-partition"));
        QCOMPARE(steps[3].holdReason, QStringLiteral("draining it would take 2 of partition gpu's 4 nodes out through Strata; the policy allows 25 % (1 node)"));
        policy.maxPartitionPercent = 10; // floor: 10 % of 4 nodes is none
        in.policy = policy;
        QCOMPARE(describe(planRepairs(in)), QStringLiteral("gpu-node01 suspect; gpu-node01 drain/cap-partition; gpu-node02 suspect; gpu-node02 drain/cap-partition"));
        // Per hour: a node drained 30 min ago and returned since counts; one 2 h ago does not.
        policy.maxPartitionPercent = 100;
        policy.maxDrainsPerHour = 1;
        in.policy = policy;
        in.records.insert(QStringLiteral("gpu-node04"), record(QStringLiteral("gpu-node04"), NodeHealthState::Returned, QStringLiteral("xid-48"), kNow.addSecs(-1800)));
        steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node01 suspect; gpu-node01 drain/cap-per-hour; gpu-node02 suspect; gpu-node02 drain/cap-per-hour"));
        QCOMPARE(steps[1].holdReason, QStringLiteral("the policy allows at most 1 drain an hour; 1 in the last hour"));
        in.records[QStringLiteral("gpu-node04")].drainedAt = kNow.addSecs(-7200);
        QCOMPARE(describe(planRepairs(in)), QStringLiteral("gpu-node01 suspect; gpu-node01 drain; gpu-node02 suspect; gpu-node02 drain/cap-per-hour"));
    }

    void nodeOthersTookOutIsLeftToThem()
    {
        ClusterSnapshot s = fourNodes({QString(), QString(), QStringLiteral("drained")});
        s.nodes[2].reason = QStringLiteral("rack work");
        s.findings << xid(QStringLiteral("gpu-node03"), 79);
        RepairPlanInput in{&s, {}, {}, applyingPolicy(), false, kNow, QStringLiteral("ops"), {}, {}};
        const QVector<RepairStep> steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node03 suspect; gpu-node03 drain/out-by-others"));
        QCOMPARE(steps[1].holdReason, QStringLiteral("gpu-node03 is already out of service (drained: rack work), not through Strata: left to whoever took it out"));
    }

    void drainedNodeIsTestedThenReturnedOrReplaced()
    {
        ClusterSnapshot s = fourNodes({QStringLiteral("drained"), QStringLiteral("drained"), QStringLiteral("drained")});
        s.jobs.clear(); // their jobs ended: the drained nodes are idle
        s.nodes[0].reason = QStringLiteral("strata repair: xid-79: gpu-node01 GPU 3: XID 79");
        s.findings << xid(QStringLiteral("gpu-node01"), 79);
        RepairPlanInput in{&s, {}, {}, applyingPolicy(), false, kNow, QStringLiteral("ops"), {}, {}};
        in.records.insert(QStringLiteral("gpu-node01"), record(QStringLiteral("gpu-node01"), NodeHealthState::Drained));
        in.records.insert(QStringLiteral("gpu-node02"), record(QStringLiteral("gpu-node02"), NodeHealthState::Testing));
        in.records.insert(QStringLiteral("gpu-node03"), record(QStringLiteral("gpu-node03"), NodeHealthState::Testing));
        in.testOutcomes.insert(QStringLiteral("gpu-node02"), {RepairTestOutcome::Result::Passed, QStringLiteral("8 GPUs passed gemm, hbm")});
        in.testOutcomes.insert(QStringLiteral("gpu-node03"), {RepairTestOutcome::Result::Failed, QStringLiteral("GPU 3 gemm: 2 mismatches")});
        const QVector<RepairStep> steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node01 start-test; gpu-node02 return; gpu-node03 replace"));
        QCOMPARE(steps[0].evidence, QStringLiteral("burn-in gemm,hbm, 60 s each"));
        QCOMPARE(steps[1].to, NodeHealthState::Returned);
        QCOMPARE(steps[1].evidenceCode, QStringLiteral("xid-79")); // returned with the code that suspected it
        QCOMPARE(steps[2].to, NodeHealthState::Replace);
        QCOMPARE(steps[2].evidence, QStringLiteral("GPU 3 gemm: 2 mismatches"));
        // Test none: a drained node waits for an operator.
        in.policy.test = RepairTest::None;
        QCOMPARE(describe(planRepairs(in)), QStringLiteral("gpu-node02 return; gpu-node03 replace"));
    }

    // A test that judged no GPU (the agent never ran) is no evidence: the node goes back out,
    // drained, and is not tested again until an operator resumes it.
    void testThatDidNotRunIsNoEvidence()
    {
        ClusterSnapshot s = fourNodes({QStringLiteral("idle")});
        s.jobs.clear();
        RepairPlanInput in{&s, {}, {}, applyingPolicy(), false, kNow, QStringLiteral("ops"), {}, {}};
        in.records.insert(QStringLiteral("gpu-node01"), record(QStringLiteral("gpu-node01"), NodeHealthState::Testing));
        in.testOutcomes.insert(QStringLiteral("gpu-node01"), {RepairTestOutcome::Result::NotRun, QStringLiteral("the agent wrote nothing")});
        QVector<RepairStep> steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node01 test-not-run"));
        QCOMPARE(steps[0].to, NodeHealthState::Drained);
        QCOMPARE(steps[0].evidenceCode, QStringLiteral("test-not-run"));
        // Next pass: drained again with the loop's reason, its record says the test did not run.
        s.nodes[0].state = QStringLiteral("drained");
        s.nodes[0].stateFlags = {QStringLiteral("DRAIN")};
        s.nodes[0].reason = QStringLiteral("strata repair: test-not-run: the agent wrote nothing");
        in.testOutcomes.clear();
        in.records[QStringLiteral("gpu-node01")] = record(QStringLiteral("gpu-node01"), NodeHealthState::Drained, QStringLiteral("test-not-run"));
        steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node01 start-test/test-not-run"));
        // Resumed by an operator: followed, healthy again.
        s.nodes[0].state = QStringLiteral("idle");
        s.nodes[0].stateFlags.clear();
        QCOMPARE(describe(planRepairs(in)), QStringLiteral("gpu-node01 resumed-outside"));
    }

    // A node left "testing" by a test that was interrupted (a watch killed, a window closed):
    // once the test would surely have ended, it goes back out as test-not-run; a test this
    // engine runs, or one still within its time, is waited for.
    void interruptedTestEnds()
    {
        ClusterSnapshot s = fourNodes();
        s.jobs.clear();
        RepairPlanInput in{&s, {}, {}, applyingPolicy(), false, kNow, QStringLiteral("ops"), {}, {}};
        QCOMPARE(interruptedTestSeconds(in.policy), 60 * 2 + 600);
        NodeHealthRecord r = record(QStringLiteral("gpu-node01"), NodeHealthState::Testing);
        r.since = kNow.addSecs(-721);
        in.records.insert(r.node, r);
        QVector<RepairStep> steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node01 test-not-run"));
        QCOMPARE(steps[0].evidence, QStringLiteral("its test was interrupted: no test runs on it since 2026-12-06T21:47:59Z"));
        in.testsRunning << QStringLiteral("gpu-node01");
        QVERIFY(planRepairs(in).isEmpty());
        in.testsRunning.clear();
        in.records[r.node].since = kNow.addSecs(-700);
        QVERIFY(planRepairs(in).isEmpty());
    }

    // A record says "drained" (forged in the Pushgateway, or stale) for a node an operator
    // drained for other work: Strata never resumes it into a test.
    void nodeDrainedBySomeoneElseIsNeverTested()
    {
        ClusterSnapshot s = fourNodes({QStringLiteral("drained")});
        s.jobs.clear();
        s.nodes[0].reason = QStringLiteral("rack 12 power work");
        RepairPlanInput in{&s, {}, {}, applyingPolicy(), false, kNow, QStringLiteral("ops"), {}, {}};
        in.records.insert(QStringLiteral("gpu-node01"), record(QStringLiteral("gpu-node01"), NodeHealthState::Drained));
        const QVector<RepairStep> steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node01 start-test/out-by-others"));
        QCOMPARE(steps[0].holdReason, QStringLiteral("gpu-node01 is drained by someone else (rack 12 power work), not by Strata's repair "
                                                     "loop: Strata tests and returns only nodes it drained"));
        // Records for nodes in service (forged "testing" without a test of this engine, "replace"):
        // nothing is resumed or drained; "replace" on a node in service is followed as resumed.
        in.records.insert(QStringLiteral("gpu-node02"), record(QStringLiteral("gpu-node02"), NodeHealthState::Testing));
        in.records.insert(QStringLiteral("gpu-node03"), record(QStringLiteral("gpu-node03"), NodeHealthState::Replace));
        QCOMPARE(describe(planRepairs(in)), QStringLiteral("gpu-node01 start-test/out-by-others; gpu-node03 resumed-outside"));
    }

    // Slurm: a node under test is resumed into its maintenance reservation (not drained): no
    // "resumed outside"; a drained node still running jobs (draining) is tested once they end.
    void testingNodeInServiceAndDrainingNodeWait()
    {
        ClusterSnapshot s = fourNodes({QString(), QString(), QString(), QStringLiteral("mixed+drain")});
        s.nodes[3].reason = QStringLiteral("strata repair: xid-48: gpu-node04 GPU 2: XID 48");
        RepairPlanInput in{&s, {}, {}, applyingPolicy(), false, kNow, QStringLiteral("ops"), {}, {}};
        in.records.insert(QStringLiteral("gpu-node03"), record(QStringLiteral("gpu-node03"), NodeHealthState::Testing));
        in.records.insert(QStringLiteral("gpu-node04"), record(QStringLiteral("gpu-node04"), NodeHealthState::Drained));
        QVERIFY2(planRepairs(in).isEmpty(), qPrintable(describe(planRepairs(in))));
        s.jobs.removeAt(1); // bob's job on gpu-node04 ended
        QCOMPARE(describe(planRepairs(in)), QStringLiteral("gpu-node04 start-test"));
    }

    // A watch started right after another drained a node reads the record Prometheus had before
    // it scraped that drain's publish ("suspected", or none). The scheduler's reason is the loop's
    // own: the node is planned as drained (tested), or as replace, never left "out by others".
    void recordOlderThanStrataDrainFollowsTheScheduler()
    {
        ClusterSnapshot s = fourNodes({QStringLiteral("drained"), QStringLiteral("drained"), QStringLiteral("drained"),
                                       QStringLiteral("drained")});
        s.jobs.clear();
        s.nodes[0].reason = QStringLiteral("strata repair: xid-48: gpu-node01 GPU 5: XID 48 (double-bit ECC error)");
        s.nodes[1].reason = QStringLiteral("strata repair: replace: strata burn-in: gpu-node02 GPU 4 gemm: 1 mismatches");
        s.nodes[2].reason = QStringLiteral("strata repair: test-not-run: the agent wrote nothing");
        s.nodes[3].reason = QStringLiteral("strata repair: xid-79: gpu-node04 GPU 3: XID 79");
        s.findings << xid(QStringLiteral("gpu-node01"), 48) << xid(QStringLiteral("gpu-node04"), 79);
        RepairPlanInput in{&s, {}, {}, applyingPolicy(), false, kNow, QStringLiteral("ops"), {}, {}};
        in.policy.maxNodesOut = 4;
        in.policy.maxPartitionPercent = 100;
        in.records.insert(QStringLiteral("gpu-node01"), record(QStringLiteral("gpu-node01"), NodeHealthState::Suspected, QStringLiteral("xid-48")));
        in.records.insert(QStringLiteral("gpu-node02"), record(QStringLiteral("gpu-node02"), NodeHealthState::Testing));
        in.records.insert(QStringLiteral("gpu-node03"), record(QStringLiteral("gpu-node03"), NodeHealthState::Returned));
        // gpu-node04: no record at all (its publish failed, or was never scraped)
        QVector<RepairStep> steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node01 start-test; gpu-node03 start-test/test-not-run; gpu-node04 start-test"));
        QCOMPARE(steps[0].from, NodeHealthState::Drained);
        QCOMPARE(steps[0].evidenceCode, QStringLiteral("xid-48"));
        QCOMPARE(steps[2].evidenceCode, QStringLiteral("xid-79"));
        // gpu-node02's record lags a replace: the reason keeps it out, nothing resumes it.
        in.records[QStringLiteral("gpu-node02")] = record(QStringLiteral("gpu-node02"), NodeHealthState::Suspected);
        steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node01 start-test; gpu-node03 start-test/test-not-run; gpu-node04 start-test"));
        // Counted out through Strata: with a cap of 3, a healthy node's finding is held.
        s.nodes[3].state = QStringLiteral("idle");
        s.nodes[3].stateFlags.clear();
        s.nodes[3].reason.clear();
        in.policy.maxNodesOut = 3;
        steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node01 start-test; gpu-node03 start-test/test-not-run; gpu-node04 suspect; "
                                                 "gpu-node04 drain/cap-nodes-out"));
        QCOMPARE(steps[3].holdReason, QStringLiteral("the policy allows at most 3 nodes out of service through Strata at once; out "
                                                     "now: gpu-node01, gpu-node02, gpu-node03"));
        // A drain reason that is not the loop's own, or has no code the loop writes, is still
        // someone else's.
        for (const char *reason : {"strata repairs are done by ops: rack work", "strata repair: Rack 12 power: ops"}) {
            s.nodes[0].reason = QString::fromLatin1(reason);
            QVERIFY2(describe(planRepairs(in)).startsWith(QStringLiteral("gpu-node01 drain/out-by-others")), reason);
        }
    }

    void returnedNodeIsNotSuspectedAgainByTheSameCode()
    {
        ClusterSnapshot s = fourNodes();
        s.jobs.clear();
        s.findings << xid(QStringLiteral("gpu-node01"), 79);
        RepairPlanInput in{&s, {}, {}, applyingPolicy(), false, kNow, QStringLiteral("ops"), {}, {}};
        in.records.insert(QStringLiteral("gpu-node01"), record(QStringLiteral("gpu-node01"), NodeHealthState::Returned));
        QVERIFY(planRepairs(in).isEmpty());
        s.findings << xid(QStringLiteral("gpu-node01"), 48);
        QCOMPARE(describe(planRepairs(in)), QStringLiteral("gpu-node01 suspect; gpu-node01 drain"));
    }

    void resumedByHandIsFollowed()
    {
        ClusterSnapshot s = fourNodes();
        RepairPlanInput in{&s, {}, {}, applyingPolicy(), false, kNow, QStringLiteral("ops"), {}, {}};
        in.records.insert(QStringLiteral("gpu-node02"), record(QStringLiteral("gpu-node02"), NodeHealthState::Replace));
        const QVector<RepairStep> steps = planRepairs(in);
        QCOMPARE(describe(steps), QStringLiteral("gpu-node02 resumed-outside"));
        QCOMPARE(steps[0].to, NodeHealthState::Healthy);
    }

    void exposition()
    {
        NodeHealthRecord r = record(QStringLiteral("gpu-node03"), NodeHealthState::Drained, QStringLiteral("xid-79"), kNow);
        r.since = kNow;
        r.evidence = QStringLiteral("GPU 3: \"XID 79\"\nfallen off the bus \\ reset");
        r.gpuUuids = {QStringLiteral("GPU-a"), QStringLiteral("GPU-b")};
        const QByteArray text = HealthExposition::nodeGroup(r);
        QVERIFY(text.contains("strata_node_health_state{state=\"drained\"} 1\n"));
        QVERIFY(text.contains("strata_node_health_state{state=\"healthy\"} 0\n"));
        QVERIFY(text.contains("strata_node_health_since_timestamp_seconds 1796594400.000\n"));
        QVERIFY(text.contains("strata_node_health_drained_timestamp_seconds 1796594400.000\n"));
        QVERIFY2(text.contains("strata_node_health_evidence_info{code=\"xid-79\",evidence=\"GPU 3: \\\"XID 79\\\"\\nfallen off the bus \\\\ reset\"} 1\n"), text.constData());
        QVERIFY(text.contains("strata_node_health_gpu_info{gpu=\"1\",uuid=\"GPU-b\"} 1\n"));
        QCOMPARE(HealthExposition::nodeGroupPath(QStringLiteral("gpu-node03")), QStringLiteral("/metrics/job/strata_repair/node@base64/Z3B1LW5vZGUwMw"));
        QCOMPARE(HealthExposition::nodeGroupPath(QStringLiteral("a/b")), QStringLiteral("/metrics/job/strata_repair/node@base64/YS9i"));
        GpuHealthRecord g;
        g.uuid = QStringLiteral("GPU-a");
        g.count(QStringLiteral("drained"), QStringLiteral("gpu-node03"), 0, kNow);
        g.count(QStringLiteral("drained"), QStringLiteral("gpu-node07"), 2, kNow);
        const QByteArray gtext = HealthExposition::gpuGroup(g);
        QVERIFY(gtext.contains("strata_gpu_health_node_info{node=\"gpu-node07\",gpu=\"2\"} 1\n"));
        QVERIFY(gtext.contains("strata_gpu_health_events{event=\"drained\"} 2\n"));
        QVERIFY(gtext.contains("strata_gpu_health_last_event_timestamp_seconds{event=\"drained\"} 1796594400.000\n"));
        g.burninFigures.insert(QStringLiteral("gemm"), 612.5);
        QVERIFY(HealthExposition::gpuGroup(g).contains("strata_gpu_health_burnin_figure{test=\"gemm\"} 612.5\n"));
    }

    // The real Prometheus's answers (lab, Pushgateway scraped with honor_labels) to the two
    // queries, after Strata pushed a drained node and a GPU seen on two nodes.
    void readBackFromCapturedPrometheus()
    {
        QFile nodes(QStringLiteral(STRATA_TEST_DATA "/repair/prometheus_node_health.json"));
        QVERIFY(nodes.open(QIODevice::ReadOnly));
        const PrometheusResponse nr = PrometheusResponseParser::parse(nodes.readAll());
        QVERIFY2(nr.ok, qPrintable(nr.error));
        const QHash<QString, NodeHealthRecord> records = HealthSeriesReader::nodeRecords(nr.series);
        QCOMPARE(records.size(), 2);
        const NodeHealthRecord r = records.value(QStringLiteral("gpu-node03"));
        QCOMPARE(r.state, NodeHealthState::Drained);
        QCOMPARE(r.evidenceCode, QStringLiteral("xid-79"));
        QCOMPARE(r.evidence, QStringLiteral("gpu-node03 GPU 3: XID 79 \"fallen off the bus\""));
        QCOMPARE(r.since, QDateTime(QDate(2026, 12, 6), QTime(22, 0), Qt::UTC));
        QCOMPARE(r.drainedAt, QDateTime(QDate(2026, 12, 6), QTime(22, 0), Qt::UTC));
        QCOMPARE(r.gpuUuids.size(), 8);
        QCOMPARE(r.gpuUuids[3], QStringLiteral("GPU-632fedd3-69e6-cc15-da35-fe2d580a43d3"));
        QCOMPARE(records.value(QStringLiteral("gpu-node01")).state, NodeHealthState::Healthy);
        QVERIFY(!records.value(QStringLiteral("gpu-node01")).drainedAt.isValid());

        QFile gpus(QStringLiteral(STRATA_TEST_DATA "/repair/prometheus_gpu_health.json"));
        QVERIFY(gpus.open(QIODevice::ReadOnly));
        const PrometheusResponse gr = PrometheusResponseParser::parse(gpus.readAll());
        QVERIFY2(gr.ok, qPrintable(gr.error));
        const QHash<QString, GpuHealthRecord> g = HealthSeriesReader::gpuRecords(gr.series);
        const GpuHealthRecord moved = g.value(QStringLiteral("GPU-632fedd3-69e6-cc15-da35-fe2d580a43d3"));
        QCOMPARE(moved.node, QStringLiteral("gpu-node01"));
        QCOMPARE(moved.index, 5);
        QCOMPARE(moved.events.value(QStringLiteral("drained")), 2);
        QCOMPARE(moved.events.value(QStringLiteral("test-failed")), 1);
        QCOMPARE(moved.lastEvent.value(QStringLiteral("drained")), QDateTime(QDate(2026, 12, 6), QTime(22, 0), Qt::UTC));
    }

    // A node with two states at 1 (two writers raced) is not a record: never a guess.
    void twoStatesAtOneIsNoRecord()
    {
        auto series = [](const QString &state) {
            PrometheusSeries s;
            s.labels = {{QStringLiteral("__name__"), QStringLiteral("strata_node_health_state")},
                        {QStringLiteral("node"), QStringLiteral("n1")}, {QStringLiteral("state"), state}};
            s.samples << PrometheusSample{0, 1};
            return s;
        };
        QVERIFY(HealthSeriesReader::nodeRecords({series(QStringLiteral("drained"))}).contains(QStringLiteral("n1")));
        QVERIFY(HealthSeriesReader::nodeRecords({series(QStringLiteral("drained")), series(QStringLiteral("healthy"))}).isEmpty());
        QVERIFY(HealthSeriesReader::nodeRecords({series(QStringLiteral("rebooting"))}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRepairLoop)
#include "tst_repair_loop.moc"
