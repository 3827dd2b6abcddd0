// The burn-in progress line: every (node, GPU, test) counts once, results as done, progress
// events as their fraction; the agent's start event corrects the planned GPU count; time left
// from the plan before there is progress, from the rate after.

#include "cli/burnin_progress_meter.h"

#include <QTest>

using namespace strata;

class TestBurninProgressMeter : public QObject
{
    Q_OBJECT

    static BurninResult result(int gpu, const QString &test, bool passed = true)
    {
        BurninResult r;
        r.gpu = gpu;
        r.test = test;
        r.passed = passed;
        return r;
    }
    static BurninProgress progress(int gpu, const QString &test, double fraction)
    {
        BurninProgress p;
        p.gpu = gpu;
        p.test = test;
        p.fraction = fraction;
        return p;
    }

private Q_SLOTS:
    void waitsForTheAgents()
    {
        const BurninProgressMeter meter({{QStringLiteral("n1"), 8}}, {QStringLiteral("gemm"), QStringLiteral("hbm")}, 60);
        QCOMPARE(meter.resultsExpected(), 16);
        QVERIFY(!meter.started());
        QCOMPARE(meter.secondsLeft(5000), std::nullopt);
        QCOMPARE(meter.line(5000), QStringLiteral("burn-in: waiting for the agents to start"));
    }

    void planBeforeProgressThenRate()
    {
        BurninProgressMeter meter({{QStringLiteral("n1"), 2}, {QStringLiteral("n2"), 2}}, {QStringLiteral("gemm"), QStringLiteral("hbm")}, 60);
        meter.record(QStringLiteral("n1"), progress(0, QStringLiteral("gemm"), 0.01), 1000);
        // Plan: 2 tests x 60 s, GPUs in parallel, 10 s gone.
        QCOMPARE(meter.secondsLeft(11000), 110);
        for (int gpu = 0; gpu < 2; ++gpu) {
            meter.record(QStringLiteral("n1"), result(gpu, QStringLiteral("gemm")), 61000);
            meter.record(QStringLiteral("n2"), result(gpu, QStringLiteral("gemm")), 61000);
        }
        QCOMPARE(meter.resultsDone(), 4);
        QCOMPARE(meter.resultsExpected(), 8);
        QCOMPARE(meter.fraction(), 0.5);
        // Half done in 60 s: 60 s left.
        QCOMPARE(meter.secondsLeft(61000), 60);
        QCOMPARE(meter.line(61000), QStringLiteral("burn-in [##########          ]  50%  4/8 GPU tests  about 1m 00s left"));
    }

    void resultCountsOnceAndProgressNeverGoesBack()
    {
        BurninProgressMeter meter({{QStringLiteral("n1"), 1}}, {QStringLiteral("gemm"), QStringLiteral("hbm")}, 10);
        meter.record(QStringLiteral("n1"), progress(0, QStringLiteral("gemm"), 0.8), 0);
        meter.record(QStringLiteral("n1"), progress(0, QStringLiteral("gemm"), 0.4), 100);
        QCOMPARE(meter.fraction(), 0.4);
        meter.record(QStringLiteral("n1"), result(0, QStringLiteral("gemm"), false), 200);
        meter.record(QStringLiteral("n1"), result(0, QStringLiteral("gemm"), false), 300);
        QCOMPARE(meter.resultsDone(), 1);
        QCOMPARE(meter.fraction(), 0.5);
        meter.record(QStringLiteral("n1"), result(0, QStringLiteral("hbm")), 400);
        QCOMPARE(meter.fraction(), 1.0);
        QCOMPARE(meter.secondsLeft(400), 0);
    }

    void agentStartCorrectsThePlan()
    {
        // --direct: the node's GPU count is unknown until the agent says.
        BurninProgressMeter meter({{QStringLiteral("login"), 0}}, {QStringLiteral("gemm")}, 60);
        QCOMPARE(meter.resultsExpected(), 0);
        BurninStart start;
        start.gpus.resize(4);
        start.tests = {QStringLiteral("gemm"), QStringLiteral("hbm"), QStringLiteral("pcie")};
        start.durationSeconds = 2;
        meter.record(QStringLiteral("login"), start, 0);
        QCOMPARE(meter.resultsExpected(), 12);
        QCOMPARE(meter.secondsLeft(1000), 5); // 3 tests x 2 s - 1 s
    }

    void formatDuration_data()
    {
        QTest::addColumn<qint64>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("0") << qint64(0) << "0s";
        QTest::newRow("59") << qint64(59) << "59s";
        QTest::newRow("60") << qint64(60) << "1m 00s";
        QTest::newRow("125") << qint64(125) << "2m 05s";
        QTest::newRow("3600") << qint64(3600) << "1h 00m";
        QTest::newRow("7380") << qint64(7380) << "2h 03m";
    }
    void formatDuration()
    {
        QFETCH(qint64, seconds);
        QFETCH(QString, text);
        QCOMPARE(BurninProgressMeter::formatDuration(seconds), text);
    }
};

QTEST_GUILESS_MAIN(TestBurninProgressMeter)
#include "tst_burnin_progress_meter.moc"
