// GpuCapacity's one rule (issue 25): every GPU in exactly one of busy, idle, starting, launchable,
// unavailable, by the node's power state and scheduler state as Slurm reports them on a
// ParallelCluster-style cluster; the Totals line counts CONFIGURING jobs; a failed launch is a
// finding naming the node, the reason and the jobs that waited for it.
#include "model/cluster_snapshot.h"
#include "model/gpu_capacity.h"
#include "model/power_findings.h"

#include <QTest>

using namespace strata;

namespace {

Node node(const QString &name, const QString &state, const QStringList &flags, PowerState power, int gpus, int allocated)
{
    Node n;
    n.name = name;
    n.state = state;
    n.stateFlags = flags;
    n.power = power;
    n.gpuCount = gpus;
    n.gpusAllocated = allocated;
    return n;
}

Job job(const QString &id, const QString &state)
{
    Job j;
    j.id = id;
    j.setState(state);
    return j;
}

} // namespace

class TestGpuCapacity : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void oneNode_data()
    {
        QTest::addColumn<Node>("n");
        QTest::addColumn<int>("busy");
        QTest::addColumn<int>("idle");
        QTest::addColumn<int>("starting");
        QTest::addColumn<int>("launchable");
        QTest::addColumn<int>("unavailable");
        QTest::addColumn<bool>("down");
        const QStringList cloud{QStringLiteral("CLOUD")};
        // sinfo `idle`, `mix`: a launched node.
        QTest::newRow("idle") << node("gpu-st-p5-1", "idle", {}, PowerState::Launched, 8, 0) << 0 << 8 << 0 << 0 << 0 << false;
        QTest::newRow("mixed") << node("gpu-st-p5-1", "mixed", {}, PowerState::Launched, 8, 3) << 3 << 5 << 0 << 0 << 0 << false;
        // `idle~`: the instance does not exist; a job would launch it. Not idle.
        QTest::newRow("idle~") << node("gpu-dy-p5-1", "idle+cloud+powered_down", cloud + QStringList{"POWERED_DOWN"},
                                       PowerState::PoweredDown, 8, 0)
                               << 0 << 0 << 0 << 8 << 0 << false;
        // `alloc#`: 22.05 sets NOT_RESPONDING while it boots: starting, not down.
        QTest::newRow("alloc#") << node("gpu-dy-p5-1", "allocated+cloud+not_responding+powering_up",
                                        cloud + QStringList{"NOT_RESPONDING", "POWERING_UP"}, PowerState::PoweringUp, 8, 8)
                                << 0 << 0 << 8 << 0 << 0 << false;
        // `idle%`: powering down, "not capable of running any job".
        QTest::newRow("idle%") << node("gpu-dy-p5-2", "idle+cloud+powering_down", cloud + QStringList{"POWERING_DOWN"},
                                       PowerState::PoweringDown, 8, 0)
                               << 0 << 0 << 0 << 0 << 8 << false;
        // `down~` after ResumeTimeout.
        QTest::newRow("down~") << node("gpu-dy-p5-3", "down+cloud+powered_down", cloud + QStringList{"POWERED_DOWN"},
                                       PowerState::FailedToLaunch, 8, 0)
                               << 0 << 0 << 0 << 0 << 8 << true;
        // A drained powered-down node cannot be launched for work.
        QTest::newRow("drained~") << node("gpu-dy-p5-2", "drained+cloud+powered_down", {"DRAIN", "CLOUD", "POWERED_DOWN"},
                                          PowerState::PoweredDown, 8, 0)
                                  << 0 << 0 << 0 << 0 << 8 << false;
        // Draining: its running work is busy, its free GPUs out of service.
        QTest::newRow("draining") << node("gpu-st-p5-1", "draining", {"DRAIN"}, PowerState::Launched, 8, 6)
                                  << 6 << 0 << 0 << 0 << 2 << false;
        // Not responding on a launched node: down, whatever it held.
        QTest::newRow("idle*") << node("gpu-st-p5-1", "mixed+not_responding", {"NOT_RESPONDING"}, PowerState::Launched, 8, 4)
                               << 0 << 0 << 0 << 0 << 8 << true;
        QTest::newRow("down") << node("gpu-st-p5-1", "down", {}, PowerState::Launched, 8, 0) << 0 << 0 << 0 << 0 << 8 << true;
        // A refused GPU count is in no bucket.
        QTest::newRow("refused") << node("gpu-st-p5-1", "idle", {}, PowerState::Launched, 0, 0) << 0 << 0 << 0 << 0 << 0 << false;
        // A CPU instance: no GPUs anywhere.
        QTest::newRow("cpu~") << node("cpu-dy-c5-1", "idle+cloud+powered_down", cloud + QStringList{"POWERED_DOWN"},
                                      PowerState::PoweredDown, 0, 0)
                              << 0 << 0 << 0 << 0 << 0 << false;
        // More held than it has (a scheduler's word): never more busy than GPUs.
        QTest::newRow("overheld") << node("gpu-st-p5-1", "allocated", {}, PowerState::Launched, 8, 12) << 8 << 0 << 0 << 0 << 0 << false;
    }
    void oneNode()
    {
        QFETCH(Node, n);
        QFETCH(int, busy);
        QFETCH(int, idle);
        QFETCH(int, starting);
        QFETCH(int, launchable);
        QFETCH(int, unavailable);
        QFETCH(bool, down);
        QCOMPARE(n.isDown(), down);
        const GpuCapacity c = GpuCapacity::of(n);
        QCOMPARE(c.busy, busy);
        QCOMPARE(c.idle, idle);
        QCOMPARE(c.starting, starting);
        QCOMPARE(c.launchable, launchable);
        QCOMPARE(c.unavailable, unavailable);
        QCOMPARE(c.total(), n.gpuCount);
    }

    // The cluster of the issue: 2 static launched p5 (one running 8 GPUs), 4 dynamic powered
    // down, 2 powering up for a CONFIGURING 2-node job, 1 failed launch, 1 powering down.
    void totalsAndTheirWords()
    {
        ClusterSnapshot s;
        const QStringList pd{QStringLiteral("CLOUD"), QStringLiteral("POWERED_DOWN")};
        s.nodes << node("gpu-st-p5-1", "allocated", {}, PowerState::Launched, 8, 8)
                << node("gpu-st-p5-2", "idle", {}, PowerState::Launched, 8, 0);
        for (int i = 1; i <= 4; ++i)
            s.nodes << node(QStringLiteral("gpu-dy-p5-%1").arg(i), "idle+cloud+powered_down", pd, PowerState::PoweredDown, 8, 0);
        for (int i = 5; i <= 6; ++i)
            s.nodes << node(QStringLiteral("gpu-dy-p5-%1").arg(i), "allocated+cloud+not_responding+powering_up",
                            {"CLOUD", "NOT_RESPONDING", "POWERING_UP"}, PowerState::PoweringUp, 8, 8);
        Node failed = node("gpu-dy-p5-7", "down+cloud+powered_down", pd, PowerState::FailedToLaunch, 8, 0);
        failed.reason = QStringLiteral("ResumeTimeout reached");
        failed.jobsAwaitingLaunch = {QStringLiteral("41")};
        s.nodes << failed << node("gpu-dy-p5-8", "idle+cloud+powering_down", {"CLOUD", "POWERING_DOWN"}, PowerState::PoweringDown, 8, 0);
        s.jobs << job("40", "RUNNING") << job("42", "CONFIGURING") << job("41", "PENDING") << job("43", "PENDING")
               << job("39", "COMPLETED");
        s.finalize();
        const ClusterSnapshot::Totals t = s.totals();
        QCOMPARE(t.gpus, 80);
        QCOMPARE(t.gpusBusy, 8);
        QCOMPARE(t.gpusIdle, 8);
        QCOMPARE(t.gpusStarting, 16);
        QCOMPARE(t.gpusLaunchable, 32);
        QCOMPARE(t.gpusUnavailable, 16);
        QCOMPARE(t.jobsRunning, 1);
        QCOMPARE(t.jobsStarting, 1);
        QCOMPARE(t.jobsPending, 2);
        QCOMPARE(t.jobsOther, 1);
        const QLocale c = QLocale::c();
        QCOMPARE(t.gpuSplitText(c), QStringLiteral("8 busy, 8 idle, 16 starting, 32 launchable, 16 unavailable"));
        QCOMPARE(t.jobSplitText(c), QStringLiteral("1 running, 1 starting, 2 pending"));

        // Exactly one finding, for the failed launch: no metric or state finding for the rest.
        QCOMPARE(s.findings.size(), 1);
        const Finding &f = s.findings.first();
        QCOMPARE(f.code, PowerFindings::launchFailedCode());
        QCOMPARE(f.node, QStringLiteral("gpu-dy-p5-7"));
        QCOMPARE(f.job, QStringLiteral("41"));
        QVERIFY2(f.message.contains(QLatin1String("ResumeTimeout reached")), qPrintable(f.message));
        QVERIFY2(f.message.contains(QLatin1String("41 (PENDING now)")), qPrintable(f.message));
        // finalize() again (a metrics merge): still one.
        s.finalize();
        QCOMPARE(s.findings.size(), 1);
    }

    void totalsWithoutCloudNodesKeepTheirWords()
    {
        ClusterSnapshot::Totals t;
        t.gpusBusy = 1200;
        t.gpusIdle = 3;
        t.gpusUnavailable = 16;
        t.jobsRunning = 2;
        t.jobsPending = 50000;
        const QLocale c = QLocale::c();
        QCOMPARE(t.gpuSplitText(c), QStringLiteral("1200 busy, 3 idle, 16 unavailable"));
        QCOMPARE(t.jobSplitText(c), QStringLiteral("2 running, 50000 pending"));
    }

    void failedLaunchWithoutAJobSeen()
    {
        Node failed = node("gpu-dy-p5-3", "down+cloud+powered_down", {"CLOUD", "POWERED_DOWN"}, PowerState::FailedToLaunch, 8, 0);
        failed.reason = QStringLiteral("ResumeTimeout reached");
        const QVector<Finding> f = PowerFindings::findings({failed, node("gpu-dy-p5-1", "idle+cloud+powered_down",
                                                                         {"CLOUD", "POWERED_DOWN"}, PowerState::PoweredDown, 8, 0)},
                                                           {});
        QCOMPARE(f.size(), 1);
        QCOMPARE(f.first().severity, Finding::Severity::Warning);
        QVERIFY(f.first().job.isEmpty());
        QVERIFY2(f.first().message.contains(QLatin1String("no job Strata saw")), qPrintable(f.first().message));
    }
};

QTEST_GUILESS_MAIN(TestGpuCapacity)
#include "tst_gpu_capacity.moc"
