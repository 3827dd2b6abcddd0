// BurninHistory on a real SQLite file (QSQLITE), filled from captured agent runs.
#include "burnin/burnin_history.h"
#include "captured_burnin_run.h"
#include "burnin/burnin_judge.h"
#include "burnin/burnin_protocol_parser.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

BurninHistoryRun historyRun(const QString &id, const QVector<BurninNodeRun> &nodes, const QDateTime &time)
{
    BurninHistoryRun run;
    run.runId = id;
    run.jobId = QStringLiteral("4242");
    run.time = time;
    run.nodes = nodes;
    run.verdict = BurninJudge::judge(nodes, GpuCatalog::builtIn(), {});
    return run;
}

const QDateTime t0(QDate(2026, 11, 2), QTime(9, 0), Qt::UTC);

FabricHistoryRecord fabricRow(const QString &runId, double busbw, const QString &type = QStringLiteral("p5.48xlarge"), int nodes = 4)
{
    FabricHistoryRecord r;
    r.runId = runId;
    r.time = t0;
    r.instanceType = type;
    r.nodeCount = nodes;
    r.tool = QStringLiteral("nccl-tests");
    r.backend = QStringLiteral("nccl");
    r.op = QStringLiteral("all_reduce");
    r.largestMessageBytes = qint64(1) << 30;
    r.busbwGBps = busbw;
    r.latencyMicroseconds = 42.5;
    for (int i = 1; i <= nodes; ++i)
        r.nodes << QStringLiteral("gpu-node%1").arg(i, 2, 10, QLatin1Char('0'));
    return r;
}

} // namespace

class TestBurninHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recordsAndReadsARun();
    void gpuSeriesAcrossRuns();
    void refusesADuplicateRun();
    void keepsDataAcrossReopen();
    void refusesANewerSchema();
    void openErrors_data();
    void openErrors();
    void twoHistoriesAtOnce();
    void migratesAVersion1File();
    void fabricPeers();
    void notOpen();
};

void TestBurninHistory::recordsAndReadsARun()
{
    QTemporaryDir dir;
    BurninHistory history;
    QCOMPARE(history.open(dir.filePath("history.sqlite")), QString());
    const BurninHistoryRun run = historyRun(
        "run-1", {capturedRun("gpu-node03", "cpu-gpu-node03-inject-bitflip-3.jsonl"),
                  capturedRun("gpu-node04", "cpu-gpu-node04-inject-slow-5.jsonl")}, t0);
    QCOMPARE(history.record(run), QString());
    QVector<BurninHistoryRecord> rows;
    QCOMPARE(history.recordsForRun("run-1", &rows), QString());
    QCOMPARE(rows.size(), 32);
    int failing = 0;
    for (const BurninHistoryRecord &r : rows) {
        QCOMPARE(r.jobId, QString("4242"));
        QCOMPARE(r.backend, QString("cpu"));
        QCOMPARE(r.time, t0);
        QVERIFY(r.figure && *r.figure > 0);
        QVERIFY(QJsonDocument::fromJson(r.figuresJson).isObject());
        if (r.verdict == "fail")
            ++failing;
    }
    // gpu-node03 GPU 3 gemm+hbm (bit flip), gpu-node04 GPU 5 gemm+hbm (slow).
    QCOMPARE(failing, 4);
    const auto flipped = std::find_if(rows.cbegin(), rows.cend(), [](const BurninHistoryRecord &r) {
        return r.node == "gpu-node03" && r.gpuIndex == 3 && r.test == "gemm";
    });
    QVERIFY(flipped != rows.cend());
    QCOMPARE(flipped->verdict, QString("fail"));
    QCOMPARE(flipped->gpuUuid, QString("CPU-gpu-node03-3"));
    QVERIFY(flipped->reason.contains("silent data corruption"));
    QCOMPARE(QJsonDocument::fromJson(flipped->figuresJson).object().value("mismatches").toInt(), 1);
    const auto slow = std::find_if(rows.cbegin(), rows.cend(), [](const BurninHistoryRecord &r) {
        return r.node == "gpu-node04" && r.gpuIndex == 5 && r.test == "gemm";
    });
    QVERIFY(slow->reason.contains("of the best device on this node"));
    QStringList ids;
    QCOMPARE(history.runIds(10, &ids), QString());
    QCOMPARE(ids, QStringList{"run-1"});
}

void TestBurninHistory::gpuSeriesAcrossRuns()
{
    QTemporaryDir dir;
    BurninHistory history;
    QCOMPARE(history.open(dir.filePath("h.sqlite")), QString());
    // The same node three weeks running, its GPU 0 a little slower each time: recorded out
    // of order, read back oldest first.
    const double scale[] = {1.0, 0.97, 0.94};
    const int order[] = {2, 0, 1};
    for (int i : order) {
        BurninNodeRun node = capturedRun("gpu-node02", "cpu-gpu-node02-pass.jsonl");
        for (BurninResult &r : node.results)
            if (r.gpu == 0 && r.tflops)
                r.tflops = *r.tflops * scale[i];
        QCOMPARE(history.record(historyRun(QStringLiteral("week-%1").arg(i), {node}, t0.addDays(7 * i))), QString());
    }
    QVector<BurninHistoryRecord> series;
    QCOMPARE(history.recordsForGpu("CPU-gpu-node02-0", "gemm", &series), QString());
    QCOMPARE(series.size(), 3);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(series[i].runId, QStringLiteral("week-%1").arg(i));
        QCOMPARE(series[i].time, t0.addDays(7 * i));
    }
    QVERIFY(*series[0].figure > *series[1].figure && *series[1].figure > *series[2].figure);
    QVector<BurninHistoryRecord> all;
    QCOMPARE(history.recordsForGpu("CPU-gpu-node02-0", QString(), &all), QString());
    QCOMPARE(all.size(), 6); // gemm and hbm, three runs
    QStringList ids;
    QCOMPARE(history.runIds(2, &ids), QString());
    QCOMPARE(ids, (QStringList{"week-2", "week-1"}));
}

void TestBurninHistory::refusesADuplicateRun()
{
    QTemporaryDir dir;
    BurninHistory history;
    QCOMPARE(history.open(dir.filePath("h.sqlite")), QString());
    const BurninHistoryRun run = historyRun("dup", {capturedRun("gpu-node02", "cpu-gpu-node02-pass.jsonl")}, t0);
    QCOMPARE(history.record(run), QString());
    QCOMPARE(history.record(run), QString("burn-in history: run dup is already recorded"));
    BurninHistoryRun noId = run;
    noId.runId.clear();
    QVERIFY(history.record(noId).contains("needs a run id"));
    QVector<BurninHistoryRecord> rows;
    QCOMPARE(history.recordsForRun("dup", &rows), QString());
    QCOMPARE(rows.size(), 16);
}

void TestBurninHistory::keepsDataAcrossReopen()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("h.sqlite");
    {
        BurninHistory history;
        QCOMPARE(history.open(path), QString());
        QCOMPARE(history.record(historyRun("r", {capturedRun("gpu-node02", "cpu-gpu-node02-pass.jsonl")}, t0)), QString());
    }
    BurninHistory again;
    QCOMPARE(again.open(path), QString());
    QVector<BurninHistoryRecord> rows;
    QCOMPARE(again.recordsForRun("r", &rows), QString());
    QCOMPARE(rows.size(), 16);
    again.close();
    {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "inspect");
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec("PRAGMA user_version") && q.next());
        QCOMPARE(q.value(0).toInt(), BurninHistory::schemaVersion);
    }
    QSqlDatabase::removeDatabase("inspect");
}

void TestBurninHistory::refusesANewerSchema()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("future.sqlite");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "future");
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec("PRAGMA user_version = 7"));
    }
    QSqlDatabase::removeDatabase("future");
    BurninHistory history;
    const QString error = history.open(path);
    QVERIFY2(error.contains("schema version 7, newer than this Strata understands (2)"), qPrintable(error));
    QVERIFY(!history.isOpen());
}

void TestBurninHistory::openErrors_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("contents"); // written first when not empty
    QTest::addColumn<QString>("error");
    QTest::newRow("missing directory") << "/nonexistent-strata-dir/h.sqlite" << QByteArray() << "cannot open";
    QTest::newRow("not a database") << "garbage.sqlite" << QByteArray(4096, 'x') << "is not an SQLite database";
}

void TestBurninHistory::openErrors()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, contents);
    QFETCH(QString, error);
    QTemporaryDir dir;
    const QString full = path.startsWith('/') ? path : dir.filePath(path);
    if (!contents.isEmpty()) {
        QFile f(full);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(contents);
    }
    BurninHistory history;
    const QString actual = history.open(full);
    QVERIFY2(actual.contains(error), qPrintable(actual));
    QVERIFY(!history.isOpen());
}

void TestBurninHistory::twoHistoriesAtOnce()
{
    QTemporaryDir dir;
    BurninHistory a, b;
    QCOMPARE(a.open(dir.filePath("a.sqlite")), QString());
    QCOMPARE(b.open(dir.filePath("b.sqlite")), QString());
    QCOMPARE(a.record(historyRun("only-a", {capturedRun("gpu-node02", "cpu-gpu-node02-pass.jsonl")}, t0)), QString());
    QVector<BurninHistoryRecord> rows;
    QCOMPARE(b.recordsForRun("only-a", &rows), QString());
    QVERIFY(rows.isEmpty());
    QCOMPARE(a.recordsForRun("only-a", &rows), QString());
    QCOMPARE(rows.size(), 16);
}

// A file written by schema version 1 (burnin_results only, as Strata 0.x created it) gains the
// fabric table on open; its burn-in rows stay readable.
void TestBurninHistory::migratesAVersion1File()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("v1.sqlite");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "v1");
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec("CREATE TABLE burnin_results (id INTEGER PRIMARY KEY, run_id TEXT NOT NULL, job_id TEXT,"
                       " node TEXT NOT NULL, gpu_index INTEGER NOT NULL, gpu_uuid TEXT NOT NULL, model TEXT,"
                       " test TEXT NOT NULL, backend TEXT NOT NULL, figure REAL, figures TEXT,"
                       " verdict TEXT NOT NULL CHECK (verdict IN ('pass', 'fail', 'skip')), reason TEXT,"
                       " recorded_at TEXT NOT NULL)"));
        QVERIFY(q.exec("CREATE INDEX burnin_results_gpu ON burnin_results (gpu_uuid, test, recorded_at)"));
        QVERIFY(q.exec("CREATE INDEX burnin_results_run ON burnin_results (run_id)"));
        QVERIFY(q.exec("INSERT INTO burnin_results (run_id, job_id, node, gpu_index, gpu_uuid, model, test, backend,"
                       " figure, verdict, reason, recorded_at) VALUES ('old-run', '7', 'gpu-node01', 0, 'GPU-aaaa',"
                       " 'H100', 'gemm', 'cuda', 700.5, 'pass', '', '2026-10-01T08:00:00.000Z')"));
        QVERIFY(q.exec("PRAGMA user_version = 1"));
    }
    QSqlDatabase::removeDatabase("v1");

    BurninHistory history;
    QCOMPARE(history.open(path), QString());
    QVector<BurninHistoryRecord> rows;
    QCOMPARE(history.recordsForRun("old-run", &rows), QString());
    QCOMPARE(rows.size(), 1);
    QCOMPARE(*rows.first().figure, 700.5);
    QCOMPARE(history.recordFabric({fabricRow("fab-1", 310.0)}), QString());
    QVector<FabricHistoryRecord> peers;
    QCOMPARE(history.fabricPeers(fabricRow("fab-2", 300.0), &peers), QString());
    QCOMPARE(peers.size(), 1);
    history.close();
    {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "inspect-v2");
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec("PRAGMA user_version") && q.next());
        QCOMPARE(q.value(0).toInt(), 2);
    }
    QSqlDatabase::removeDatabase("inspect-v2");
    // Opened again: already version 2, nothing to migrate, the fabric row still there.
    BurninHistory again;
    QCOMPARE(again.open(path), QString());
    QCOMPARE(again.fabricPeers(fabricRow("fab-3", 300.0), &peers), QString());
    QCOMPARE(peers.size(), 1);
}

// The fleet query keeps the same instance type, node count, tool, backend, op and size, and
// leaves out the asking run's own rows.
void TestBurninHistory::fabricPeers()
{
    QTemporaryDir dir;
    BurninHistory history;
    QCOMPARE(history.open(dir.filePath("fabric.sqlite")), QString());
    FabricHistoryRecord otherSize = fabricRow("r3", 280.0);
    otherSize.largestMessageBytes = qint64(1) << 27;
    FabricHistoryRecord gloo = fabricRow("r4", 1.2);
    gloo.backend = QStringLiteral("gloo");
    FabricHistoryRecord shortGroup = fabricRow("r5", 150.0);
    shortGroup.verdict = FabricHistoryVerdict::Short;
    QCOMPARE(history.recordFabric({fabricRow("r1", 320.0), fabricRow("r2", 318.0, "p4d.24xlarge"), fabricRow("r2", 330.0, "p5.48xlarge", 2),
                                   otherSize, gloo, shortGroup, fabricRow("mine", 10.0)}),
             QString());
    QVector<FabricHistoryRecord> peers;
    QCOMPARE(history.fabricPeers(fabricRow("mine", 300.0), &peers), QString());
    QCOMPARE(peers.size(), 2);
    QCOMPARE(peers.at(0).runId, QString("r1"));
    QCOMPARE(peers.at(0).busbwGBps, 320.0);
    QCOMPARE(peers.at(0).latencyMicroseconds, 42.5);
    QCOMPARE(peers.at(0).nodes, QStringList({"gpu-node01", "gpu-node02", "gpu-node03", "gpu-node04"}));
    QCOMPARE(peers.at(0).time, t0);
    QCOMPARE(peers.at(1).runId, QString("r5"));
    QCOMPARE(peers.at(1).verdict, FabricHistoryVerdict::Short);
}

void TestBurninHistory::notOpen()
{
    BurninHistory history;
    QVector<BurninHistoryRecord> rows;
    QCOMPARE(history.recordsForGpu("x", QString(), &rows), QString("burn-in history: not open"));
    QCOMPARE(history.record({}), QString("burn-in history: not open"));
    QCOMPARE(history.recordFabric({}), QString("burn-in history: not open"));
}

QTEST_GUILESS_MAIN(TestBurninHistory)
#include "tst_burnin_history.moc"
