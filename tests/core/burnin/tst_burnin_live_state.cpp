// BurninLiveState: a captured CPU-backend run with one slowed GPU folded event by event (rows
// waiting from the start, figures as they come, the agent's verdicts, then the judge's), rows
// for GPUs nobody expected, and agent errors.
#include "burnin/burnin_judge.h"
#include "burnin/burnin_live_state.h"
#include "burnin/burnin_protocol_parser.h"

#include <QFile>
#include <QTest>

using namespace strata;
using V = BurninLiveGpu::Verdict;

namespace {

QVector<BurninEvent> captured(const QString &file)
{
    QFile f(QStringLiteral(STRATA_TEST_DATA "/burnin/") + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file));
    return BurninProtocolParser::parseAll(f.readAll());
}

} // namespace

class TestBurninLiveState : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void capturedRunFormsItsVerdict()
    {
        const QString node = QStringLiteral("gpu-node04");
        const QVector<BurninEvent> events = captured(QStringLiteral("cpu-gpu-node04-inject-slow-5.jsonl"));
        const QStringList tests = std::get<BurninStart>(events.first()).tests;
        QCOMPARE(tests, (QStringList{QStringLiteral("gemm"), QStringLiteral("hbm")}));
        BurninLiveState state;
        state.reset({{node, 8}}, tests);
        QCOMPARE(state.gpus().size(), 8);
        QCOMPARE(state.testsExpected(), 16);
        for (const BurninLiveGpu &g : state.gpus())
            QCOMPARE(g.verdict, V::Waiting);

        bool sawRunningFigure = false;
        for (const BurninEvent &e : events) {
            QCOMPARE(state.newRows(node, e), 0);
            bool added = true;
            const QVector<int> changed = state.add(node, e, &added);
            QVERIFY(!added);
            if (const auto *p = std::get_if<BurninProgress>(&e)) {
                QCOMPARE(changed, QVector<int>{state.indexOf(node, p->gpu)});
                const BurninLiveGpu &g = state.gpus()[changed.first()];
                QCOMPARE(g.currentTest, p->test);
                if (p->figure == QLatin1String("tflops")) {
                    QCOMPARE(*g.tflops, p->value);
                    sawRunningFigure = true;
                }
                if (p->figure == QLatin1String("copyTBps"))
                    QCOMPARE(*g.bandwidthGBps, p->value * 1000);
            }
            if (std::holds_alternative<BurninStart>(e))
                QCOMPARE(changed.size(), 8);
        }
        QVERIFY(sawRunningFigure);
        QCOMPARE(state.testsDone(), 16);
        // The agent does not compare GPUs with each other: every one passes its own checks.
        for (const BurninLiveGpu &g : state.gpus()) {
            QCOMPARE(g.verdict, V::Passing);
            QCOMPARE(g.testsDone, 2);
            QVERIFY(g.tflops && *g.tflops > 0);
            QVERIFY(!g.tempC); // the cpu backend sends no telemetry: empty, never 0
        }
        QCOMPARE(state.failing(), 0);

        const BurninVerdict verdict = BurninJudge::judge({BurninNodeRun::fromEvents(node, events)}, GpuCatalog::builtIn(), {});
        state.finish(verdict);
        for (const BurninLiveGpu &g : state.gpus()) {
            QCOMPARE(g.verdict, g.gpu == 5 ? V::Failed : V::Passed);
            QCOMPARE(g.currentTest, QString());
        }
        QCOMPARE(state.failing(), 1);
        QVERIFY(state.gpus()[state.indexOf(node, 5)].reasons.first().startsWith(QLatin1String("gpu-node04 GPU 5 gemm: ")));
    }

    void unexpectedGpusAndErrors()
    {
        BurninLiveState state;
        state.reset({{QStringLiteral("n1"), 1}}, {QStringLiteral("gemm")});
        BurninProgress p;
        p.gpu = 3;
        p.test = QStringLiteral("gemm");
        p.figure = QStringLiteral("tflops");
        p.value = 1.5;
        QCOMPARE(state.newRows(QStringLiteral("n1"), p), 1);
        QCOMPARE(state.newRows(QStringLiteral("n2"), p), 1);
        bool added = false;
        state.add(QStringLiteral("n1"), p, &added);
        QVERIFY(added);
        QCOMPARE(state.gpus().size(), 2);
        QCOMPARE(state.indexOf(QStringLiteral("n1"), 3), 1);
        QCOMPARE(state.gpus()[1].verdict, V::Running);

        BurninError error;
        error.gpu = 0;
        error.message = QStringLiteral("cudaMalloc failed");
        state.add(QStringLiteral("n1"), error);
        QCOMPARE(state.gpus()[0].verdict, V::Failing);
        QCOMPARE(state.problems(), QStringList{QStringLiteral("n1: cudaMalloc failed")});

        BurninResult failed;
        failed.gpu = 3;
        failed.test = QStringLiteral("gemm");
        failed.reasons << QStringLiteral("2 mismatches");
        state.add(QStringLiteral("n1"), failed);
        QCOMPARE(state.gpus()[1].verdict, V::Failing);
        QCOMPARE(state.gpus()[1].reasons, QStringList{QStringLiteral("gemm: 2 mismatches")});
        QCOMPARE(*state.gpus()[1].tflops, 1.5); // the result had no figure: the last one stays

        // Judged without this GPU (it never reported properly): failed, not passed.
        state.finish(BurninVerdict{});
        QCOMPARE(state.gpus()[0].verdict, V::Failed);
    }
};

QTEST_GUILESS_MAIN(TestBurninLiveState)
#include "tst_burnin_live_state.moc"
