// Issue 33: after a job ended its output path, command and work dir vanished from the pane
// (the placement read while it ran was dropped). applyPlacements keeps them for an ended job
// still listed, and gives its GPUs to no one.
#include "slurm/slurm_source.h"

#include <QTest>

using namespace strata;

class TestEndedJobPlacement : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void endedJobKeepsItsTextsNotItsGpus_data()
    {
        QTest::addColumn<QString>("state");
        QTest::addColumn<bool>("holdsGpus");
        QTest::newRow("running") << "RUNNING" << true;
        QTest::newRow("completing") << "COMPLETING" << true;
        QTest::newRow("completed") << "COMPLETED" << false;
        QTest::newRow("failed") << "FAILED" << false;
        QTest::newRow("cancelled") << "CANCELLED" << false;
        QTest::newRow("timeout") << "TIMEOUT" << false;
    }
    void endedJobKeepsItsTextsNotItsGpus()
    {
        QFETCH(QString, state);
        QFETCH(bool, holdsGpus);
        QVector<Node> nodes(1);
        nodes[0].name = QStringLiteral("gpu-node01");
        nodes[0].gpuCount = 4;
        QVector<Job> jobs(1);
        jobs[0].id = QStringLiteral("12");
        jobs[0].setState(state);
        JobGpuPlacement placement;
        placement.jobId = QStringLiteral("12");
        placement.gpus.insert(QStringLiteral("gpu-node01"), {1, 2});
        placement.workDir = QStringLiteral("/home/ops");
        placement.stdoutPath = QStringLiteral("/home/ops/slurm-12.out");
        placement.command = QStringLiteral("/home/ops/run.sh --fast");
        applyPlacements(nodes, jobs, {{placement.jobId, placement}});
        QCOMPARE(jobs[0].stdoutPath, placement.stdoutPath);
        QCOMPARE(jobs[0].workDir, placement.workDir);
        QCOMPARE(jobs[0].command, placement.command);
        QCOMPARE(jobs[0].gpuCountHeld(), holdsGpus ? 2 : 0);
        QCOMPARE(nodes[0].gpus[1].jobId, holdsGpus ? QStringLiteral("12") : QString());
        QCOMPARE(nodes[0].gpus[2].jobId, holdsGpus ? QStringLiteral("12") : QString());
        QVERIFY(nodes[0].gpus[0].jobId.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestEndedJobPlacement)
#include "tst_ended_job_placement.moc"
