// BurninReport: per GPU against its datasheet and the median of its peers, on a captured CPU
// run with a slowed GPU and on hand-built CUDA figures; the JSON export and the HTML page
// (self-contained, escaped).
#include "burnin/burnin_judge.h"
#include "captured_burnin_run.h"
#include "burnin/burnin_protocol_parser.h"
#include "burnin/burnin_report.h"

#include <QFile>
#include <QJsonArray>
#include <QTest>

using namespace strata;

namespace {

// Three H100s: GEMM 900, 800 and 600 TFLOPS against a datasheet of 989; one with a reason.
void handBuilt(BurninVerdict *verdict, QVector<BurninNodeRun> *runs)
{
    BurninNodeRun run;
    run.node = QStringLiteral("gpu-a");
    const double figures[] = {900, 800, 600};
    for (int i = 0; i < 3; ++i) {
        BurninResult r;
        r.gpu = i;
        r.test = QStringLiteral("gemm");
        r.backend = QStringLiteral("cuda");
        r.tflops = figures[i];
        r.specTflops = 989;
        BurninTelemetrySummary t;
        t.maxTempC = 70 + i;
        t.maxPowerW = 690;
        t.minSmClockMHz = 1980 - i * 100;
        r.telemetry = t;
        run.results << r;
        BurninGpuVerdict g;
        g.node = run.node;
        g.gpu = i;
        g.uuid = QStringLiteral("GPU-%1").arg(i);
        g.model = QStringLiteral("H100-SXM5-80GB");
        g.backend = QStringLiteral("cuda");
        g.passed = i < 2;
        BurninTestVerdict tv;
        tv.test = QStringLiteral("gemm");
        tv.passed = g.passed;
        tv.figure = figures[i];
        tv.pctOfSpec = 100.0 * figures[i] / 989;
        if (!g.passed) {
            tv.reasons << QStringLiteral("gpu-a GPU 2 gemm: 600 TFLOPS is below <the> floor & more");
            g.reasons = tv.reasons;
        }
        g.tests << tv;
        verdict->gpus << g;
    }
    verdict->passed = false;
    verdict->notes << QStringLiteral("a note");
    *runs = {run};
}

} // namespace

class TestBurninReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void againstSpecAndPeers()
    {
        BurninVerdict verdict;
        QVector<BurninNodeRun> runs;
        handBuilt(&verdict, &runs);
        const BurninReport report = BurninReport::build(verdict, runs);
        QCOMPARE(report.gpus.size(), 3);
        QCOMPARE(report.failedGpus(), 1);
        const BurninReportTest &fast = report.gpus[0].tests.first();
        QCOMPARE(fast.unit, QStringLiteral("TFLOPS"));
        QCOMPARE(*fast.figure, 900.0);
        QCOMPARE(*fast.specFigure, 989.0);
        QCOMPARE(*fast.peerMedian, 800.0);
        QCOMPARE(*fast.pctOfPeers, 112.5);
        QCOMPARE(fast.peers, 3);
        QCOMPARE(*report.gpus[2].tests.first().pctOfPeers, 75.0);
        QVERIFY(qAbs(*report.gpus[2].tests.first().pctOfSpec - 60.667) < 0.001);
        QCOMPARE(*report.gpus[2].maxTempC, 72.0);
        QCOMPARE(*report.gpus[2].minSmClockMHz, 1780.0);
        QCOMPARE(*report.gpus[1].maxPowerW, 690.0);
    }

    void capturedSlowGpu()
    {
        const QVector<BurninNodeRun> runs{capturedRun(QStringLiteral("gpu-node04"), QStringLiteral("cpu-gpu-node04-inject-slow-5.jsonl"))};
        const BurninVerdict verdict = BurninJudge::judge(runs, GpuCatalog::builtIn(), {});
        const BurninReport report = BurninReport::build(verdict, runs);
        QCOMPARE(report.gpus.size(), 8);
        QCOMPARE(report.passed, false);
        for (const BurninReportGpu &g : report.gpus) {
            QCOMPARE(g.node, QStringLiteral("gpu-node04"));
            QCOMPARE(g.passed, g.gpu != 5);
            QVERIFY(!g.maxTempC); // the cpu backend has no telemetry: a dash, not a zero
            const BurninReportTest *gemm = nullptr, *hbm = nullptr;
            for (const BurninReportTest &t : g.tests) {
                if (t.test == QLatin1String("gemm"))
                    gemm = &t;
                if (t.test == QLatin1String("hbm"))
                    hbm = &t;
            }
            QVERIFY(gemm && hbm);
            QVERIFY(!gemm->specFigure);
            QVERIFY(!gemm->pctOfSpec);
            QCOMPARE(gemm->peers, 8);
            QCOMPARE(hbm->unit, QStringLiteral("GB/s"));
            // The agent's TB/s as GB/s.
            for (const BurninResult &r : runs.first().results)
                if (r.gpu == g.gpu && r.test == QLatin1String("hbm"))
                    QCOMPARE(*hbm->figure, *r.copyTBps * 1000);
            if (g.gpu == 5)
                QVERIFY2(*gemm->pctOfPeers < 50, qPrintable(QString::number(*gemm->pctOfPeers)));
            else
                QVERIFY2(*gemm->pctOfPeers > 50, qPrintable(QString::number(*gemm->pctOfPeers)));
        }
    }

    void json()
    {
        BurninVerdict verdict;
        QVector<BurninNodeRun> runs;
        handBuilt(&verdict, &runs);
        BurninReport report = BurninReport::build(verdict, runs);
        report.jobId = QStringLiteral("77");
        report.startedAt = QDateTime(QDate(2026, 12, 3), QTime(5, 0), Qt::UTC);
        report.drained = {QStringLiteral("gpu-a")};
        const QJsonObject o = report.toJson();
        QCOMPARE(o.value(QLatin1String("schema")).toString(), QStringLiteral("strata.burnin-report/1"));
        QCOMPARE(o.value(QLatin1String("jobId")).toString(), QStringLiteral("77"));
        QCOMPARE(o.value(QLatin1String("startedAt")).toString(), QStringLiteral("2026-12-03T05:00:00Z"));
        QVERIFY(o.value(QLatin1String("finishedAt")).isNull());
        QCOMPARE(o.value(QLatin1String("failedGpus")).toInt(), 1);
        QCOMPARE(o.value(QLatin1String("drained")).toArray().first().toString(), QStringLiteral("gpu-a"));
        const QJsonObject g = o.value(QLatin1String("gpus")).toArray().at(2).toObject();
        QCOMPARE(g.value(QLatin1String("uuid")).toString(), QStringLiteral("GPU-2"));
        QCOMPARE(g.value(QLatin1String("passed")).toBool(), false);
        const QJsonObject t = g.value(QLatin1String("tests")).toArray().first().toObject();
        QCOMPARE(t.value(QLatin1String("figure")).toDouble(), 600.0);
        QCOMPARE(t.value(QLatin1String("peerMedian")).toDouble(), 800.0);
        QCOMPARE(t.value(QLatin1String("pctOfPeers")).toDouble(), 75.0);
        QCOMPARE(t.value(QLatin1String("specFigure")).toDouble(), 989.0);
    }

    void htmlIsSelfContainedAndEscaped()
    {
        BurninVerdict verdict;
        QVector<BurninNodeRun> runs;
        handBuilt(&verdict, &runs);
        BurninReport report = BurninReport::build(verdict, runs);
        report.jobId = QStringLiteral("77");
        const QString html = report.toHtml();
        QVERIFY(html.startsWith(QLatin1String("<!DOCTYPE html>")));
        QVERIFY(html.contains(QLatin1String("<style>")));
        for (const char *external : {"http://", "https://", "<script", "src=", "<link", "url("})
            QVERIFY2(!html.contains(QLatin1String(external)), external);
        QVERIFY(html.contains(QLatin1String("Burn-in 77: <span class=\"fail\">FAILED</span>")));
        QVERIFY(html.contains(QLatin1String("<th>gemm (TFLOPS)</th><th>of spec</th><th>of peers</th>")));
        QVERIFY2(html.contains(QLatin1String("<td class=\"fail\">600.0</td><td>61%</td><td>75%</td>")), qPrintable(html));
        QVERIFY(html.contains(QLatin1String("below &lt;the&gt; floor &amp; more")));
        QVERIFY(!html.contains(QLatin1String("<the>")));
        QVERIFY(html.contains(QLatin1String("<li>a note</li>")));
    }
};

QTEST_GUILESS_MAIN(TestBurninReport)
#include "tst_burnin_report.moc"
