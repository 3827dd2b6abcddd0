// `strata burnin history` through the real binary on a real SQLite history: three runs of one
// GPU whose GEMM figure declines and one captured CPU-backend run of another node; the per-GPU
// runs, figures and fitted trend in JSON and text, --node, and a missing file.

#include "strata_without_display.h"

#include "burnin/burnin_history.h"
#include "burnin/burnin_judge.h"
#include "burnin/burnin_protocol_parser.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;
using strata::test::runStrataWithoutDisplay;

namespace {

const QDateTime t0(QDate(2026, 11, 2), QTime(9, 0), Qt::UTC);

// One run of gpu-node07 GPU 0 with the given GEMM TFLOPS and HBM copy TB/s.
BurninHistoryRun handRun(int day, double tflops, double copyTBps, bool gemmPassed)
{
    BurninNodeRun node;
    node.node = QStringLiteral("gpu-node07");
    BurninGpuVerdict gpu;
    gpu.node = node.node;
    gpu.gpu = 0;
    gpu.uuid = QStringLiteral("GPU-7f3a");
    gpu.model = QStringLiteral("H100-SXM5-80GB");
    gpu.backend = QStringLiteral("cuda");
    gpu.passed = gemmPassed;
    for (const QString &test : {QStringLiteral("gemm"), QStringLiteral("hbm")}) {
        BurninResult r;
        r.gpu = 0;
        r.uuid = gpu.uuid;
        r.test = test;
        r.backend = gpu.backend;
        r.passed = test == QLatin1String("hbm") || gemmPassed;
        node.results << r;
        BurninTestVerdict t;
        t.test = test;
        t.passed = r.passed;
        t.figure = test == QLatin1String("gemm") ? tflops : copyTBps;
        if (!r.passed)
            t.reasons << QStringLiteral("gpu-node07 GPU 0 gemm: too slow");
        gpu.tests << t;
    }
    BurninHistoryRun run;
    run.runId = QStringLiteral("run-%1").arg(day);
    run.jobId = QString::number(100 + day);
    run.time = t0.addDays(day);
    run.nodes = {node};
    run.verdict.gpus = {gpu};
    run.verdict.passed = gemmPassed;
    return run;
}

BurninHistoryRun capturedRun()
{
    QFile f(QStringLiteral(STRATA_TEST_DATA "/burnin/cpu-gpu-node01-pass.jsonl"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing test data");
    const BurninNodeRun node = BurninNodeRun::fromEvents(QStringLiteral("gpu-node01"), BurninProtocolParser::parseAll(f.readAll()));
    BurninHistoryRun run;
    run.runId = QStringLiteral("captured");
    run.jobId = QStringLiteral("4242");
    run.time = t0.addDays(10);
    run.nodes = {node};
    run.verdict = BurninJudge::judge(run.nodes, GpuCatalog::builtIn(), {});
    return run;
}

} // namespace

class TestCliBurninHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("burnin.sqlite"));
        BurninHistory history;
        QCOMPARE(history.open(m_path), QString());
        QCOMPARE(history.record(handRun(0, 700, 3.0, true)), QString());
        QCOMPARE(history.record(handRun(1, 690, 3.0, true)), QString());
        QCOMPARE(history.record(handRun(2, 680, 3.0, false)), QString());
        QCOMPARE(history.record(capturedRun()), QString());
    }

    void jsonForOneNode()
    {
        const auto r = runStrataWithoutDisplay({QStringLiteral("burnin"), QStringLiteral("history"), QStringLiteral("--node"),
                                                QStringLiteral("gpu-node07"), QStringLiteral("--history"), m_path,
                                                QStringLiteral("--format"), QStringLiteral("json")},
                                               m_dir.path(), 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("schema")).toString(), QStringLiteral("strata.burnin-history/1"));
        QCOMPARE(o.value(QLatin1String("node")).toString(), QStringLiteral("gpu-node07"));
        const QJsonArray gpus = o.value(QLatin1String("gpus")).toArray();
        QCOMPARE(gpus.size(), 1);
        const QJsonObject g = gpus.first().toObject();
        QCOMPARE(g.value(QLatin1String("uuid")).toString(), QStringLiteral("GPU-7f3a"));
        QCOMPARE(g.value(QLatin1String("gpu")).toInt(), 0);
        QCOMPARE(g.value(QLatin1String("model")).toString(), QStringLiteral("H100-SXM5-80GB"));
        QCOMPARE(g.value(QLatin1String("failedRuns")).toInt(), 1);
        // 700, 690, 680: the fitted line falls 20 TFLOPS from 700, -2.857 %; bandwidth flat.
        QVERIFY(qAbs(g.value(QLatin1String("tflopsChangePct")).toDouble() - (-20.0 / 7.0)) < 1e-9);
        QCOMPARE(g.value(QLatin1String("bandwidthChangePct")).toDouble(), 0.0);
        const QJsonArray runs = g.value(QLatin1String("runs")).toArray();
        QCOMPARE(runs.size(), 3);
        QCOMPARE(runs[0].toObject().value(QLatin1String("tflops")).toDouble(), 700.0);
        QCOMPARE(runs[2].toObject().value(QLatin1String("tflops")).toDouble(), 680.0);
        QCOMPARE(runs[1].toObject().value(QLatin1String("bandwidthGBps")).toDouble(), 3000.0);
        QCOMPARE(runs[0].toObject().value(QLatin1String("jobId")).toString(), QStringLiteral("100"));
        QCOMPARE(runs[0].toObject().value(QLatin1String("time")).toString(), QStringLiteral("2026-11-02T09:00:00Z"));
        QCOMPARE(runs[0].toObject().value(QLatin1String("passed")).toBool(), true);
        QCOMPARE(runs[2].toObject().value(QLatin1String("passed")).toBool(), false);
    }

    void jsonForAllNodes()
    {
        const auto r = runStrataWithoutDisplay({QStringLiteral("burnin"), QStringLiteral("history"), QStringLiteral("--history"),
                                                m_path, QStringLiteral("--format"), QStringLiteral("json")},
                                               m_dir.path(), 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray gpus = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("gpus")).toArray();
        QCOMPARE(gpus.size(), 9); // 8 simulated GPUs of gpu-node01, then gpu-node07's
        const QJsonObject first = gpus.first().toObject();
        QCOMPARE(first.value(QLatin1String("node")).toString(), QStringLiteral("gpu-node01"));
        QCOMPARE(first.value(QLatin1String("uuid")).toString(), QStringLiteral("CPU-gpu-node01-0"));
        const QJsonObject run = first.value(QLatin1String("runs")).toArray().first().toObject();
        // The captured agent's own figures: gemm 0.0036807929 TFLOPS on GPU 0.
        QCOMPARE(run.value(QLatin1String("tflops")).toDouble(), 0.0036807929);
        QCOMPARE(run.value(QLatin1String("backend")).toString(), QStringLiteral("cpu"));
        QVERIFY(run.value(QLatin1String("bandwidthGBps")).toDouble() > 0);
        QVERIFY(first.value(QLatin1String("tflopsChangePct")).isNull()); // one run: no trend
        QCOMPARE(gpus.last().toObject().value(QLatin1String("node")).toString(), QStringLiteral("gpu-node07"));
    }

    void textTable()
    {
        const auto r = runStrataWithoutDisplay({QStringLiteral("burnin"), QStringLiteral("history"), QStringLiteral("--node"),
                                                QStringLiteral("gpu-node07"), QStringLiteral("--history"), m_path},
                                               m_dir.path(), 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList lines = r.out.split(QLatin1Char('\n'));
        QVERIFY2(lines.value(0).startsWith(QLatin1String("NODE        GPU  UUID      RUNS  FAILED  LAST TFLOPS  TFLOPS TREND")), qPrintable(r.out));
        QCOMPARE(lines.value(1).simplified(), QStringLiteral("gpu-node07 0 GPU-7f3a 3 1 680.0 -2.9% 3000.0 +0.0%"));
        QVERIFY2(r.out.contains(QLatin1String("2026-11-04T09:00:00Z  102  cuda     FAIL     680.0   3000.0")), qPrintable(r.out));
    }

    void missingFileIsSaid()
    {
        const QString missing = m_dir.filePath(QStringLiteral("none.sqlite"));
        const auto r = runStrataWithoutDisplay({QStringLiteral("burnin"), QStringLiteral("history"), QStringLiteral("--history"), missing},
                                               m_dir.path(), 30000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("no burn-in history at %1").arg(missing)), qPrintable(r.err));
        QVERIFY(!QFile::exists(missing));
    }

    void helpNamesTheSubcommand()
    {
        const auto r = runStrataWithoutDisplay({QStringLiteral("help"), QStringLiteral("burnin"), QStringLiteral("history")}, m_dir.path(), 30000);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QLatin1String("strata burnin history [--node NODE]")), qPrintable(r.out));
        const auto overview = runStrataWithoutDisplay({QStringLiteral("--help")}, m_dir.path(), 30000);
        QVERIFY2(overview.out.contains(QLatin1String("  burnin history  Print the burn-in history")), qPrintable(overview.out));
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
};

QTEST_GUILESS_MAIN(TestCliBurninHistory)
#include "tst_cli_burnin_history.moc"
