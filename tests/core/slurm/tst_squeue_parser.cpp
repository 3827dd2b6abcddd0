// SqueueParser on REAL squeue output in the record-marker format SlurmSource asks for
// (tests/data/slurm/marker, see its README): every field of every job, hostile names read
// back byte for byte (checked against the bytes submitted and against squeue --json of the
// same moment), and damaged output (truncated, foreign records) counted, never misread.
#include "slurm/squeue_parser.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace strata;

namespace {

QByteArray captured(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/marker/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

QByteArray marker()
{
    return captured(QStringLiteral("marker.txt"));
}

const Job *findJob(const QVector<Job> &jobs, const QString &id)
{
    for (const Job &j : jobs)
        if (j.id == id)
            return &j;
    return nullptr;
}

bool sameJob(const Job &a, const Job &b)
{
    return a.id == b.id && a.name == b.name && a.user == b.user && a.state == b.state && a.reason == b.reason
        && a.partition == b.partition && a.nodes == b.nodes && a.timeUsedSeconds == b.timeUsedSeconds
        && a.timeLimitSeconds == b.timeLimitSeconds && a.gpusRequested == b.gpusRequested
        && a.arrayJobId == b.arrayJobId && a.arrayTaskId == b.arrayTaskId && a.submitTime == b.submitTime
        && a.startTime == b.startTime;
}

// squeue --json's view of a job, keyed as %i prints it ("7_3" for array tasks).
QHash<QString, QJsonObject> jsonJobs(const QByteArray &json)
{
    QHash<QString, QJsonObject> out;
    for (const QJsonValue &v : QJsonDocument::fromJson(json).object().value(QLatin1String("jobs")).toArray()) {
        const QJsonObject o = v.toObject();
        const int arrayJob = o.value(QLatin1String("array_job_id")).toInt();
        const QJsonValue task = o.value(QLatin1String("array_task_id"));
        const QString id = arrayJob != 0 && task.isDouble()
            ? QStringLiteral("%1_%2").arg(arrayJob).arg(task.toInt())
            : QString::number(o.value(QLatin1String("job_id")).toInt());
        out.insert(id, o);
    }
    return out;
}

} // namespace

class TestSqueueParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mainCapture_data();
    void mainCapture();
    void mainCaptureHasEveryRecord();
    void hostileNamesByteForByte_data();
    void hostileNamesByteForByte();
    void hostileCaptureMatchesSqueueJson();
    void truncatedOutputNeverMisreads_data();
    void truncatedOutputNeverMisreads();
    void foreignAndBrokenRecordsAreCounted_data();
    void foreignAndBrokenRecordsAreCounted();
    void emptyAndAlienOutput();
    void formatArgument();
};

void TestSqueueParser::mainCapture_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("partition");
    QTest::addColumn<QStringList>("nodes");
    QTest::addColumn<int>("gpusRequested");
    QTest::addColumn<qint64>("timeLimitSeconds");
    QTest::addColumn<QString>("arrayJobId");
    QTest::addColumn<QString>("arrayTaskId");
    // The capture.sh scenario (tests/data/slurm/README.md) as submitted, seen while job 1 still ran.
    const QStringList node01{"gpu-node01"};
    const QStringList node02{"gpu-node02"};
    const qint64 day = 86400;
    QTest::newRow("1 time limit") << "1" << "hits time limit" << "RUNNING" << "" << "train" << node01 << 0 << qint64(60) << "" << "";
    QTest::newRow("2 unicode") << "2" << QStringLiteral("ünïcødé 训练 🚀 run") << "COMPLETED" << "" << "train" << node01 << 0 << 365 * day << "" << "";
    QTest::newRow("3 failed") << "3" << "fails with exit 3" << "FAILED" << "NonZeroExitCode" << "train" << node01 << 0 << 365 * day << "" << "";
    QTest::newRow("4 tab") << "4" << "tab\tin name" << "CANCELLED" << "" << "train" << node01 << 1 << 365 * day << "" << "";
    QTest::newRow("5 six GPUs") << "5" << "llama-70b pretrain" << "RUNNING" << "" << "train" << node01 << 6 << 7 * day << "" << "";
    QTest::newRow("6 two nodes") << "6" << "multi;node $(rm -rf /) `id`" << "RUNNING" << "" << "train"
                                 << QStringList{"gpu-node01", "gpu-node02"} << 2 << qint64(0) << "" << "";
    QTest::newRow("7_0 array running") << "7_0" << "sweep \"lr\" 'warmup'" << "RUNNING" << "" << "train" << node02 << 3 << qint64(12 * 3600) << "7" << "0";
    QTest::newRow("7_1 array running") << "7_1" << "sweep \"lr\" 'warmup'" << "RUNNING" << "" << "train" << node02 << 3 << qint64(12 * 3600) << "7" << "1";
    QTest::newRow("7_5 array pending") << "7_5" << "sweep \"lr\" 'warmup'" << "PENDING" << "Resources" << "train" << QStringList{} << 3 << qint64(12 * 3600) << "7" << "5";
    QTest::newRow("8 long name, no GPU") << "8" << QStringLiteral("data-prep-") + QString(120, QLatin1Char('0')) << "RUNNING" << "" << "train" << node01 << 0 << qint64(0) << "" << "";
    QTest::newRow("9 pipe, pending") << "9" << "eval|pipe name" << "PENDING" << "Resources" << "train" << QStringList{} << 8 << qint64(0) << "" << "";
    QTest::newRow("10 held") << "10" << "held job" << "PENDING" << "JobHeldUser" << "train" << QStringList{} << 1 << qint64(0) << "" << "";
    QTest::newRow("11 dependency") << "11" << "after pretrain" << "PENDING" << "Dependency" << "train" << QStringList{} << 8 << qint64(0) << "" << "";
    QTest::newRow("12 nodes drained") << "12" << "serve-llm" << "PENDING"
                                      << "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions"
                                      << "inference" << QStringList{} << 2 << day << "" << "";
    QTest::newRow("13 partition limit") << "13" << "too long for inference" << "PENDING" << "PartitionTimeLimit" << "inference" << QStringList{} << 1 << 2 * day << "" << "";
}

void TestSqueueParser::mainCapture()
{
    QFETCH(QString, id);
    QFETCH(QString, name);
    QFETCH(QString, state);
    QFETCH(QString, reason);
    QFETCH(QString, partition);
    QFETCH(QStringList, nodes);
    QFETCH(int, gpusRequested);
    QFETCH(qint64, timeLimitSeconds);
    QFETCH(QString, arrayJobId);
    QFETCH(QString, arrayTaskId);
    const SqueueParseResult r = SqueueParser::parse(captured(QStringLiteral("main_squeue_marker.txt")), marker());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    const Job *job = findJob(r.jobs, id);
    QVERIFY2(job, qPrintable(id));
    QCOMPARE(job->name, name);
    QCOMPARE(job->user, QStringLiteral("root"));
    QCOMPARE(job->state, state);
    QCOMPARE(job->reason, reason);
    QCOMPARE(job->partition, partition);
    QCOMPARE(job->nodes, nodes);
    QCOMPARE(job->gpusRequested, gpusRequested);
    QCOMPARE(job->timeLimitSeconds, timeLimitSeconds);
    QCOMPARE(job->arrayJobId, arrayJobId);
    QCOMPARE(job->arrayTaskId, arrayTaskId);
    QVERIFY(job->submitTime > 0);
    QCOMPARE(job->startTime > 0, state != QLatin1String("PENDING") || id == QLatin1String("9"));
    QVERIFY(job->timeUsedSeconds >= 0);
}

void TestSqueueParser::mainCaptureHasEveryRecord()
{
    const QByteArray output = captured(QStringLiteral("main_squeue_marker.txt"));
    const SqueueParseResult r = SqueueParser::parse(output, marker());
    QCOMPARE(r.malformedRecords, 0);
    QCOMPARE(r.jobs.size(), int(output.count(marker())));
    QCOMPARE(r.jobs.size(), 18); // 13 jobs, array 7 as 6 tasks
}

void TestSqueueParser::hostileNamesByteForByte_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QByteArray>("name");
    for (const QByteArray &line : captured(QStringLiteral("hostile_names.tsv")).split('\n')) {
        if (line.isEmpty())
            continue;
        const QList<QByteArray> cols = line.split('\t');
        QTest::newRow(cols[0].constData()) << QString::fromLatin1(cols[0]) << QByteArray::fromHex(cols[1]);
    }
}

void TestSqueueParser::hostileNamesByteForByte()
{
    QFETCH(QString, id);
    QFETCH(QByteArray, name);
    const SqueueParseResult r = SqueueParser::parse(captured(QStringLiteral("hostile_squeue_marker.txt")), marker());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    const Job *job = findJob(r.jobs, id);
    QVERIFY2(job, qPrintable(id));
    QCOMPARE(job->name.toUtf8(), name);
    QCOMPARE(job->state, QStringLiteral("RUNNING"));
    QCOMPARE(job->user, QStringLiteral("root"));
}

void TestSqueueParser::hostileCaptureMatchesSqueueJson()
{
    // Every job, not only the hostile ones, against the JSON of the same moment.
    const SqueueParseResult r = SqueueParser::parse(captured(QStringLiteral("hostile_squeue_marker.txt")), marker());
    QCOMPARE(r.malformedRecords, 0);
    const QHash<QString, QJsonObject> json = jsonJobs(captured(QStringLiteral("hostile_squeue.json")));
    QVERIFY(r.jobs.size() >= 10);
    for (const Job &job : r.jobs) {
        // squeue --json lists pending array tasks as one entry of the array job.
        const auto it = json.constFind(job.id);
        if (it == json.constEnd()) {
            QVERIFY2(job.isPending() && !job.arrayJobId.isEmpty(), qPrintable(job.id));
            continue;
        }
        QCOMPARE(job.name, it->value(QLatin1String("name")).toString());
        QCOMPARE(job.state, it->value(QLatin1String("job_state")).toString());
        QCOMPARE(job.user, it->value(QLatin1String("user_name")).toString());
        QCOMPARE(job.partition, it->value(QLatin1String("partition")).toString());
    }
    // The forged record inside a name did not become a job.
    QVERIFY(!findJob(r.jobs, QStringLiteral("999")));
}

void TestSqueueParser::truncatedOutputNeverMisreads_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("main") << "main_squeue_marker.txt";
    QTest::newRow("hostile") << "hostile_squeue_marker.txt";
}

void TestSqueueParser::truncatedOutputNeverMisreads()
{
    // Cut the output at every byte (a dropped stream, a full pipe): each job the parser returns
    // must be exactly the job of the full output, and any cut that is not at a record boundary
    // must be reported. One kind of cut cannot be seen in the bytes: right after a newline inside
    // a name, which looks like squeue's own record end. There, the reader relies on the
    // transport, which reports a broken stream as a failed command (no exit status).
    QFETCH(QString, file);
    const QByteArray full = captured(file);
    const QByteArray m = marker();
    const SqueueParseResult whole = SqueueParser::parse(full, m);
    QCOMPARE(whole.malformedRecords, 0);
    int undetectable = 0;
    for (qsizetype cut = 1; cut < full.size(); ++cut) {
        const QByteArray part = full.left(cut);
        const QByteArray rest = full.mid(cut);
        if (part.endsWith('\n') && !rest.startsWith(m)) {
            ++undetectable;
            continue;
        }
        const SqueueParseResult r = SqueueParser::parse(part, m);
        for (const Job &job : r.jobs) {
            const Job *original = findJob(whole.jobs, job.id);
            QVERIFY2(original && sameJob(job, *original), qPrintable(QStringLiteral("cut at %1 misread job %2").arg(cut).arg(job.id)));
        }
        const bool atBoundary = rest.startsWith(m) && part.endsWith('\n');
        if (!atBoundary) {
            QVERIFY2(r.malformedRecords >= 1, qPrintable(QStringLiteral("cut at %1 not reported").arg(cut)));
            QVERIFY(!r.error.isEmpty());
        } else {
            QCOMPARE(r.malformedRecords, 0);
            QVERIFY(r.jobs.size() < whole.jobs.size());
        }
    }
    // Only newlines in names make such cuts.
    qsizetype newlinesInNames = 0;
    for (const Job &j : whole.jobs)
        newlinesInNames += j.name.count(QLatin1Char('\n'));
    QCOMPARE(undetectable, int(newlinesInNames));
}

void TestSqueueParser::foreignAndBrokenRecordsAreCounted_data()
{
    QTest::addColumn<QByteArray>("insert");
    QTest::addColumn<int>("malformed");
    QTest::addColumn<QString>("errorContains");
    QTest::newRow("too few fields") << QByteArray("42\x1f" "42\x1f" "42\n") << 1 << "fields";
    QTest::newRow("no job id") << QByteArray(15, '\x1f') + QByteArray("name\n") << 1 << "without a job id";
    QTest::newRow("empty record") << QByteArray("\n") << 1 << "fields";
}

void TestSqueueParser::foreignAndBrokenRecordsAreCounted()
{
    // A broken record between two good ones costs only itself.
    QFETCH(QByteArray, insert);
    QFETCH(int, malformed);
    QFETCH(QString, errorContains);
    const QByteArray m = marker();
    const QByteArray full = captured(QStringLiteral("main_squeue_marker.txt"));
    const SqueueParseResult whole = SqueueParser::parse(full, m);
    const qsizetype at = full.indexOf(QByteArray("\n") + m, full.size() / 2) + 1;
    const QByteArray damaged = full.left(at) + m + insert + full.mid(at);
    const SqueueParseResult r = SqueueParser::parse(damaged, m);
    QCOMPARE(r.malformedRecords, malformed);
    QCOMPARE(r.jobs.size(), whole.jobs.size());
    QVERIFY2(r.error.contains(errorContains), qPrintable(r.error));
    QVERIFY2(r.error.contains(QLatin1String("record ")), qPrintable(r.error));
}

void TestSqueueParser::emptyAndAlienOutput()
{
    const QByteArray m = marker();
    SqueueParseResult r = SqueueParser::parse(QByteArray(), m);
    QVERIFY(r.jobs.isEmpty());
    QVERIFY(r.error.isEmpty());
    QCOMPARE(r.malformedRecords, 0);

    // Something printed before the records (a login banner, an old squeue): refused, named.
    r = SqueueParser::parse("Welcome to the cluster\n" + captured(QStringLiteral("main_squeue_marker.txt")), m);
    QVERIFY(r.jobs.isEmpty());
    QCOMPARE(r.malformedRecords, 1);
    QVERIFY2(r.error.contains(QLatin1String("Welcome to the cluster")), qPrintable(r.error));

    // A marker too short to be unguessable is a programming error, reported as such.
    r = SqueueParser::parse(captured(QStringLiteral("main_squeue_marker.txt")), "<<x>>");
    QVERIFY(r.jobs.isEmpty());
    QVERIFY(!r.error.isEmpty());
}

void TestSqueueParser::formatArgument()
{
    // What SlurmSource passes to `squeue -o`; the captures were made with exactly this text.
    const QString format = SqueueParser::formatArgument(marker());
    QVERIFY(format.startsWith(QString::fromLatin1(marker())));
    QVERIFY(format.endsWith(QLatin1String("\x1f%j")));
    QCOMPARE(format.count(QLatin1Char('\x1f')), 15);
}

QTEST_GUILESS_MAIN(TestSqueueParser)
#include "tst_squeue_parser.moc"
