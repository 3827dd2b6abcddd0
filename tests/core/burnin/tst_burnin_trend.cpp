// BurninTrend: the fitted change across runs on rows of figures, and history rows grouped into
// one point per GPU and run.
#include "burnin/burnin_trend.h"

#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace strata;

namespace {

BurninHistoryRecord record(const QString &run, int day, const QString &node, int gpu, const QString &uuid,
                           const QString &test, std::optional<double> figure, const QString &verdict = QStringLiteral("pass"))
{
    BurninHistoryRecord r;
    r.runId = run;
    r.jobId = run + QStringLiteral("-job");
    r.node = node;
    r.gpuIndex = gpu;
    r.gpuUuid = uuid;
    r.model = QStringLiteral("H100");
    r.test = test;
    r.backend = QStringLiteral("cuda");
    r.figure = figure;
    r.verdict = verdict;
    r.time = QDateTime(QDate(2026, 11, 1 + day), QTime(8, 0), Qt::UTC);
    return r;
}

} // namespace

class TestBurninTrend : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fittedChange_data()
    {
        QTest::addColumn<QVector<double>>("values");
        QTest::addColumn<double>("change"); // NaN: none
        const double none = std::nan("");
        QTest::newRow("no run") << QVector<double>{} << none;
        QTest::newRow("one run") << QVector<double>{700} << none;
        QTest::newRow("flat") << QVector<double>{700, 700, 700} << 0.0;
        QTest::newRow("two runs, -10%") << QVector<double>{100, 90} << -10.0;
        QTest::newRow("slow decline") << QVector<double>{700, 690, 680} << -20.0 / 7.0;
        QTest::newRow("noise around a decline") << QVector<double>{100, 104, 96, 100, 92} << -7.8125;
        QTest::newRow("rising") << QVector<double>{1, 2, 3} << 200.0;
        QTest::newRow("line from zero") << QVector<double>{0, 1} << none;
    }
    void fittedChange()
    {
        QFETCH(QVector<double>, values);
        QFETCH(double, change);
        const std::optional<double> got = BurninTrend::fittedChangePct(values);
        if (std::isnan(change)) {
            QVERIFY(!got);
            return;
        }
        QVERIFY(got);
        QVERIFY2(qAbs(*got - change) < 1e-9, qPrintable(QString::number(*got)));
    }

    void groupsRowsIntoRunsPerGpu()
    {
        const QVector<BurninHistoryRecord> records{
            record("r2", 2, "n2", 0, "U-n2-0", "gemm", 680, "fail"),
            record("r2", 2, "n2", 0, "U-n2-0", "hbm", 3.0),
            record("r1", 1, "n2", 0, "U-n2-0", "gemm", 690),
            record("r1", 1, "n2", 0, "U-n2-0", "hbm", 3.1),
            record("r0", 0, "n2", 0, "U-n2-0", "gemm", 700),
            record("r0", 0, "n2", 0, "U-n2-0", "pcie", 50),
            record("r0", 0, "n1", 1, "", "gemm", 650),
            record("r0", 0, "n1", 0, "U-n1-0", "gemm", std::nullopt, "skip"),
        };
        const QVector<BurninGpuTrend> trends = BurninTrend::build(records);
        QCOMPARE(trends.size(), 3);
        QCOMPARE(trends[0].node, QStringLiteral("n1"));
        QCOMPARE(trends[0].gpu, 0);
        QVERIFY(!trends[0].points.first().tflops); // skipped: no figure, not a zero
        QCOMPARE(trends[1].gpu, 1);
        QCOMPARE(trends[1].uuid, QString()); // keyed by node and index without a UUID
        QCOMPARE(*trends[1].points.first().tflops, 650.0);

        const BurninGpuTrend &t = trends[2];
        QCOMPARE(t.uuid, QStringLiteral("U-n2-0"));
        QCOMPARE(t.points.size(), 3);
        QCOMPARE(t.points[0].runId, QStringLiteral("r0")); // oldest first, whatever the row order
        QCOMPARE(*t.points[0].tflops, 700.0);
        QVERIFY(!t.points[0].bandwidthGBps); // that run had no hbm
        QCOMPARE(*t.points[1].bandwidthGBps, 3100.0);
        QCOMPARE(t.points[2].passed, false);
        QCOMPARE(t.points[1].passed, true);
        QCOMPARE(t.failedRuns(), 1);
        QVERIFY(qAbs(*t.tflopsChangePct - (-20.0 / 7.0)) < 1e-9);
        QVERIFY(qAbs(*t.bandwidthChangePct - (-100.0 / 31.0)) < 1e-9);

        const QJsonArray json = BurninTrend::toJson(trends);
        QCOMPARE(json.size(), 3);
        const QJsonObject last = json.at(2).toObject();
        QCOMPARE(last.value(QLatin1String("failedRuns")).toInt(), 1);
        QCOMPARE(last.value(QLatin1String("runs")).toArray().at(1).toObject().value(QLatin1String("bandwidthGBps")).toDouble(), 3100.0);
        QVERIFY(last.value(QLatin1String("runs")).toArray().at(0).toObject().value(QLatin1String("bandwidthGBps")).isNull());
        QCOMPARE(last.value(QLatin1String("runs")).toArray().at(0).toObject().value(QLatin1String("time")).toString(),
                 QStringLiteral("2026-11-01T08:00:00Z"));
    }
};

QTEST_GUILESS_MAIN(TestBurninTrend)
#include "tst_burnin_trend.moc"
