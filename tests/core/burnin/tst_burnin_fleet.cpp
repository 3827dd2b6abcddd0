// BurninFleet: a run judged against every earlier result of its GPU model in a real SQLite
// history, filled from captured agent runs (CPU backend, 8 GPUs per node): gpu-node04's
// planted slow GPU 5 is named an outlier in GEMM and HBM among the 24 GPUs of three earlier
// runs, its healthy GPUs are not; an empty history has too few peers; the peers are one figure
// per other GPU, its latest, of the same backend and engine.
#include "burnin/burnin_fleet.h"
#include "captured_burnin_run.h"
#include "burnin/burnin_judge.h"
#include "burnin/burnin_protocol_parser.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

BurninHistoryRun historyRun(const QString &id, const QVector<BurninNodeRun> &nodes, int day)
{
    BurninHistoryRun run;
    run.runId = id;
    run.jobId = id;
    run.time = QDateTime(QDate(2026, 11, day), QTime(9, 0), Qt::UTC);
    run.nodes = nodes;
    run.verdict = BurninJudge::judge(nodes, GpuCatalog::builtIn(), {});
    return run;
}

BurninHistoryRecord row(const QString &uuid, double figure, const QString &backend = QStringLiteral("cuda"),
                        const QByteArray &figures = "{\"engine\":\"cublaslt-bf16\"}", const QString &verdict = QStringLiteral("pass"))
{
    BurninHistoryRecord r;
    r.gpuUuid = uuid;
    r.figure = figure;
    r.backend = backend;
    r.figuresJson = figures;
    r.verdict = verdict;
    return r;
}

} // namespace

class TestBurninFleet : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void slowGpuIsAFleetOutlier()
    {
        QTemporaryDir dir;
        BurninHistory history;
        QCOMPARE(history.open(dir.filePath(QStringLiteral("history.sqlite"))), QString());
        QCOMPARE(history.record(historyRun(QStringLiteral("1"), {capturedRun(QStringLiteral("gpu-node01"), QStringLiteral("cpu-gpu-node01-pass.jsonl"))}, 2)), QString());
        QCOMPARE(history.record(historyRun(QStringLiteral("2"), {capturedRun(QStringLiteral("gpu-node02"), QStringLiteral("cpu-gpu-node02-pass.jsonl"))}, 3)), QString());
        QCOMPARE(history.record(historyRun(QStringLiteral("3"), {capturedRun(QStringLiteral("gpu-node03"), QStringLiteral("cpu-gpu-node03-inject-bitflip-3.jsonl"))}, 4)), QString());

        BurninVerdict verdict = BurninJudge::judge({capturedRun(QStringLiteral("gpu-node04"), QStringLiteral("cpu-gpu-node04-inject-slow-5.jsonl"))},
                                                   GpuCatalog::builtIn(), {});
        QCOMPARE(BurninFleet::compare(verdict, history), QString());
        int compared = 0;
        for (const BurninGpuVerdict &g : std::as_const(verdict.gpus)) {
            for (const BurninTestVerdict &t : g.tests) {
                if (t.test != QLatin1String("gemm") && t.test != QLatin1String("hbm"))
                    continue;
                QVERIFY2(t.fleet, qPrintable(QStringLiteral("GPU %1 %2 not compared").arg(g.gpu).arg(t.test)));
                QCOMPARE(t.fleet->peers, 24);
                ++compared;
                const bool slow = g.gpu == 5;
                QCOMPARE(fleetStandingName(t.fleet->standing), slow ? QStringLiteral("outlier") : QStringLiteral("within"));
                if (slow)
                    QVERIFY2(t.fleet->ofMedian < 0.3 && t.fleet->robustZ < -50, qPrintable(t.fleet->explanation));
            }
            const bool named = g.notes.join(QLatin1Char('\n')).contains(QStringLiteral("an outlier in the fleet"));
            QCOMPARE(named, g.gpu == 5);
        }
        QCOMPARE(compared, 16);
        const BurninGpuVerdict *five = verdict.gpu(QStringLiteral("gpu-node04"), 5);
        QVERIFY(five->notes.join(QLatin1Char('\n')).contains(QStringLiteral("gpu-node04 GPU 5 gemm")));
        QVERIFY(five->notes.join(QLatin1Char('\n')).contains(QStringLiteral("scaled MADs below the fleet's median")));
    }

    void emptyHistoryHasTooFewPeers()
    {
        QTemporaryDir dir;
        BurninHistory history;
        QCOMPARE(history.open(dir.filePath(QStringLiteral("history.sqlite"))), QString());
        BurninVerdict verdict = BurninJudge::judge({capturedRun(QStringLiteral("gpu-node04"), QStringLiteral("cpu-gpu-node04-inject-slow-5.jsonl"))},
                                                   GpuCatalog::builtIn(), {});
        QCOMPARE(BurninFleet::compare(verdict, history), QString());
        for (const BurninGpuVerdict &g : std::as_const(verdict.gpus)) {
            QVERIFY(!g.notes.join(QLatin1Char('\n')).contains(QStringLiteral("fleet")));
            for (const BurninTestVerdict &t : g.tests)
                if (t.fleet)
                    QCOMPARE(fleetStandingName(t.fleet->standing), QStringLiteral("too-few-peers"));
        }
    }

    void notOpenIsAnError()
    {
        BurninHistory history;
        BurninVerdict verdict = BurninJudge::judge({capturedRun(QStringLiteral("gpu-node01"), QStringLiteral("cpu-gpu-node01-pass.jsonl"))},
                                                   GpuCatalog::builtIn(), {});
        QVERIFY(!BurninFleet::compare(verdict, history).isEmpty());
    }

    void peerFigures()
    {
        const QVector<BurninHistoryRecord> rows{
            row(QStringLiteral("a"), 700), row(QStringLiteral("a"), 790), // the latest per GPU: 790
            row(QStringLiteral("b"), 800),
            row(QStringLiteral("self"), 100),                             // the GPU judged
            row(QStringLiteral("c"), 810, QStringLiteral("cpu")),          // another backend
            row(QStringLiteral("d"), 400, QStringLiteral("cuda"), "{\"engine\":\"own-bf16\"}"), // another engine
            row(QStringLiteral("e"), 805, QStringLiteral("cuda"), "{\"engine\":\"cublaslt-bf16\"}", QStringLiteral("skip")),
            row(QString(), 805)};                                          // no UUID
        QVector<double> peers = BurninFleet::peerFigures(rows, QStringLiteral("cuda"), QStringLiteral("cublaslt-bf16"), QStringLiteral("self"));
        std::sort(peers.begin(), peers.end());
        QCOMPARE(peers, (QVector<double>{790, 800}));
        QCOMPARE(BurninFleet::peerFigures(rows, QStringLiteral("cuda"), QStringLiteral("own-bf16"), QStringLiteral("self")), QVector<double>{400});
        // The job judged again (strata burnin --attach) is not its own fleet.
        QVector<BurninHistoryRecord> again = rows;
        again[2].jobId = QStringLiteral("77");
        peers = BurninFleet::peerFigures(again, QStringLiteral("cuda"), QStringLiteral("cublaslt-bf16"), QStringLiteral("self"), QStringLiteral("77"));
        QCOMPARE(peers, QVector<double>{790});
    }
};

QTEST_GUILESS_MAIN(TestBurninFleet)
#include "tst_burnin_fleet.moc"
