// SqueueParser on REAL squeue output in the record-marker format SlurmSource asks for
// (`squeue -O ...,Name:MARKER`, tests/data/slurm/marker, see its README), on Slurm 22.05 and
// 24.11: every field of every job, the GPUs each way of asking for them adds up to, hostile
// names read back byte for byte (checked against the bytes submitted and against squeue --json
// of the same moment), and damaged output (truncated, foreign records) counted, never misread.
#include "slurm/slurm_json.h"
#include "slurm/squeue_parser.h"
#include "model/string_interner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace strata;

namespace {

// DIR is "" (22.05) or "24.11/".
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

// squeue --json's view of a job (either release's shapes), keyed as %i prints it ("7_3").
QHash<QString, QJsonObject> jsonJobs(const QByteArray &json)
{
    QHash<QString, QJsonObject> out;
    for (const QJsonValue &v : QJsonDocument::fromJson(json).object().value(QLatin1String("jobs")).toArray()) {
        const QJsonObject o = v.toObject();
        const qint64 arrayJob = SlurmJson::number(o.value(QLatin1String("array_job_id"))).value_or(0);
        const std::optional<qint64> task = SlurmJson::number(o.value(QLatin1String("array_task_id")));
        const QString id = arrayJob != 0 && task
            ? QStringLiteral("%1_%2").arg(arrayJob).arg(*task)
            : QString::number(SlurmJson::number(o.value(QLatin1String("job_id"))).value_or(0));
        out.insert(id, o);
    }
    return out;
}

void addReleaseRows()
{
    QTest::addColumn<QString>("dir");
    QTest::newRow("22.05") << "";
    QTest::newRow("24.11") << "24.11/";
}

} // namespace

class TestSqueueParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mainCapture_data();
    void mainCapture();
    void mainCaptureHasEveryRecord_data();
    void mainCaptureHasEveryRecord();
    void repeatedStringsAreShared_data();
    void repeatedStringsAreShared();
    void hostileNamesByteForByte_data();
    void hostileNamesByteForByte();
    void hostileCaptureMatchesSqueueJson_data();
    void hostileCaptureMatchesSqueueJson();
    void truncatedOutputNeverMisreads_data();
    void truncatedOutputNeverMisreads();
    void foreignAndBrokenRecordsAreCounted_data();
    void foreignAndBrokenRecordsAreCounted();
    void emptyAndAlienOutput();
    void formatArgument_data();
    void formatArgument();
    void gpuRequests_data();
    void gpuRequests();
};

void TestSqueueParser::mainCapture_data()
{
    QTest::addColumn<QString>("dir");
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
    const QString reason12 = QStringLiteral("Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions");
    for (const QString &release : {QStringLiteral("22.05"), QStringLiteral("24.11")}) {
        const QString dir = release == QLatin1String("22.05") ? QString() : QStringLiteral("24.11/");
        // Jobs without -t: squeue prints UNLIMITED (0) or 365-00:00:00, depending on when
        // slurmctld filled the limit in; each capture holds one, asserted as captured.
        const bool old = release == QLatin1String("22.05");
        const qint64 year = 365 * day;
        auto row = [&](const char *what) -> QTestData & { return QTest::newRow(qPrintable(release + QLatin1Char(' ') + QLatin1String(what))) << dir; };
        row("1 time limit") << "1" << "hits time limit" << "RUNNING" << "" << "train" << node01 << 0 << qint64(60) << "" << "";
        row("2 unicode") << "2" << QStringLiteral("ünïcødé 训练 🚀 run") << "COMPLETED" << "" << "train" << node01 << 0 << (old ? 0 : year) << "" << "";
        row("3 failed") << "3" << "fails with exit 3" << "FAILED" << "NonZeroExitCode" << "train" << node01 << 0 << qint64(0) << "" << "";
        row("4 tab") << "4" << "tab\tin name" << "CANCELLED" << "" << "train" << node01 << 1 << qint64(0) << "" << "";
        row("5 six GPUs") << "5" << "llama-70b pretrain" << "RUNNING" << "" << "train" << node01 << 6 << 7 * day << "" << "";
        row("6 two nodes") << "6" << "multi;node $(rm -rf /) `id`" << "RUNNING" << "" << "train"
                           << QStringList{"gpu-node01", "gpu-node02"} << 2 << (old ? year : 0) << "" << "";
        row("7_0 array running") << "7_0" << "sweep \"lr\" 'warmup'" << "RUNNING" << "" << "train" << node02 << 3 << qint64(12 * 3600) << "7" << "0";
        row("7_1 array running") << "7_1" << "sweep \"lr\" 'warmup'" << "RUNNING" << "" << "train" << node02 << 3 << qint64(12 * 3600) << "7" << "1";
        row("7_5 array pending") << "7_5" << "sweep \"lr\" 'warmup'" << "PENDING" << "Resources" << "train" << QStringList{} << 3 << qint64(12 * 3600) << "7" << "5";
        // 24.11 prints -c 4 as tres-per-task "cpu=4": not a GPU.
        row("8 long name, no GPU") << "8" << QStringLiteral("data-prep-") + QString(120, QLatin1Char('0')) << "RUNNING" << "" << "train" << node01 << 0 << (old ? year : 0) << "" << "";
        row("9 pipe, pending") << "9" << "eval|pipe name" << "PENDING" << "Resources" << "train" << QStringList{} << 8 << qint64(0) << "" << "";
        row("10 held") << "10" << "held job" << "PENDING" << "JobHeldUser" << "train" << QStringList{} << 1 << qint64(0) << "" << "";
        row("11 dependency") << "11" << "after pretrain" << "PENDING" << "Dependency" << "train" << QStringList{} << 8 << qint64(0) << "" << "";
        row("12 nodes drained") << "12" << "serve-llm" << "PENDING" << reason12 << "inference" << QStringList{} << 2 << day << "" << "";
        row("13 partition limit") << "13" << "too long for inference" << "PENDING" << "PartitionTimeLimit" << "inference" << QStringList{} << 1 << 2 * day << "" << "";
    }
}

void TestSqueueParser::mainCapture()
{
    QFETCH(QString, dir);
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
    const SqueueParseResult r = SqueueParser::parse(captured(dir + QStringLiteral("main_squeue_marker.txt")), marker());
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
    // Pending jobs show a start time only where backfill has planned one: job 9 (and, on
    // 24.11, the pending array tasks).
    const bool planned = id == QLatin1String("9") || (!dir.isEmpty() && id.startsWith(QLatin1String("7_")));
    QCOMPARE(job->startTime > 0, state != QLatin1String("PENDING") || planned);
    QVERIFY(job->timeUsedSeconds >= 0);
}

void TestSqueueParser::mainCaptureHasEveryRecord_data()
{
    addReleaseRows();
}

void TestSqueueParser::mainCaptureHasEveryRecord()
{
    QFETCH(QString, dir);
    const QByteArray output = captured(dir + QStringLiteral("main_squeue_marker.txt"));
    const SqueueParseResult r = SqueueParser::parse(output, marker());
    QCOMPARE(r.malformedRecords, 0);
    QCOMPARE(r.jobs.size(), int(output.count(marker())));
    QCOMPARE(r.jobs.size(), 18); // 13 jobs, array 7 as 6 tasks
}

void TestSqueueParser::repeatedStringsAreShared_data()
{
    addReleaseRows();
}

// 18 jobs of one user in two partitions: one user string, one per partition and state, one
// name for the tasks of array 7, and a job's nodes are the strings the interner was seeded with
// (the node list's own, in SlurmSource).
void TestSqueueParser::repeatedStringsAreShared()
{
    QFETCH(QString, dir);
    StringInterner strings;
    const QString node01 = strings.intern(QStringLiteral("gpu-node01"));
    const SqueueParseResult r = SqueueParser::parse(captured(dir + QStringLiteral("main_squeue_marker.txt")), marker(), strings);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.jobs.size(), 18);
    QHash<QString, const QChar *> seen;
    int onNode01 = 0;
    QStringList arrayNames;
    for (const Job &job : r.jobs) {
        for (const QString *field : {&job.user, &job.state, &job.partition, &job.reason}) {
            if (field->isEmpty())
                continue;
            const auto it = seen.constFind(*field);
            if (it == seen.constEnd())
                seen.insert(*field, field->constData());
            else
                QCOMPARE(field->constData(), *it); // the same buffer, not an equal copy
        }
        for (const QString &node : job.nodes) {
            if (node == node01) {
                QCOMPARE(node.constData(), node01.constData());
                ++onNode01;
            }
        }
        if (job.arrayJobId == QLatin1String("7")) {
            if (!arrayNames.isEmpty())
                QCOMPARE(job.name.constData(), arrayNames.first().constData());
            arrayNames << job.name;
        }
    }
    QCOMPARE(r.jobs.first().user, QStringLiteral("root"));
    QVERIFY(onNode01 > 0);
    QCOMPARE(arrayNames.size(), 6);
}

void TestSqueueParser::hostileNamesByteForByte_data()
{
    QTest::addColumn<QString>("dir");
    QTest::addColumn<QString>("id");
    QTest::addColumn<QByteArray>("name");
    for (const QString &dir : {QString(), QStringLiteral("24.11/")}) {
        for (const QByteArray &line : captured(dir + QStringLiteral("hostile_names.tsv")).split('\n')) {
            if (line.isEmpty())
                continue;
            const QList<QByteArray> cols = line.split('\t');
            QTest::newRow(qPrintable((dir.isEmpty() ? QStringLiteral("22.05 ") : QStringLiteral("24.11 ")) + QString::fromLatin1(cols[0])))
                << dir << QString::fromLatin1(cols[0]) << QByteArray::fromHex(cols[1]);
        }
    }
}

void TestSqueueParser::hostileNamesByteForByte()
{
    QFETCH(QString, dir);
    QFETCH(QString, id);
    QFETCH(QByteArray, name);
    const SqueueParseResult r = SqueueParser::parse(captured(dir + QStringLiteral("hostile_squeue_marker.txt")), marker());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    const Job *job = findJob(r.jobs, id);
    QVERIFY2(job, qPrintable(id));
    QCOMPARE(job->name.toUtf8(), name);
    QCOMPARE(job->state, QStringLiteral("RUNNING"));
    QCOMPARE(job->user, QStringLiteral("root"));
}

void TestSqueueParser::hostileCaptureMatchesSqueueJson_data()
{
    addReleaseRows();
}

void TestSqueueParser::hostileCaptureMatchesSqueueJson()
{
    // Every job, not only the hostile ones, against the JSON of the same moment.
    QFETCH(QString, dir);
    const SqueueParseResult r = SqueueParser::parse(captured(dir + QStringLiteral("hostile_squeue_marker.txt")), marker());
    QCOMPARE(r.malformedRecords, 0);
    const QHash<QString, QJsonObject> json = jsonJobs(captured(dir + QStringLiteral("hostile_squeue.json")));
    QVERIFY(r.jobs.size() >= 10);
    int compared = 0;
    for (const Job &job : r.jobs) {
        // squeue --json lists pending array tasks as one entry of the array job; 24.11's leaves
        // out finished jobs (22.05's keeps them for MinJobAge, as squeue --states=all does).
        const auto it = json.constFind(job.id);
        if (it == json.constEnd()) {
            const bool finishedOn2411 = !dir.isEmpty() && job.state == QLatin1String("COMPLETED");
            QVERIFY2((job.isPending() && !job.arrayJobId.isEmpty()) || finishedOn2411, qPrintable(job.id));
            continue;
        }
        ++compared;
        QCOMPARE(job.name, it->value(QLatin1String("name")).toString());
        QCOMPARE(job.state, SlurmJson::jobState(it->value(QLatin1String("job_state"))));
        QCOMPARE(job.user, it->value(QLatin1String("user_name")).toString());
        QCOMPARE(job.partition, it->value(QLatin1String("partition")).toString());
    }
    QVERIFY(compared >= 9); // jobs 1-6, 7_0, 8, 10 (and 9 where listed)
    // The forged record inside a name did not become a job.
    QVERIFY(!findJob(r.jobs, QStringLiteral("999")));
}

void TestSqueueParser::truncatedOutputNeverMisreads_data()
{
    QTest::addColumn<QString>("file");
    for (const char *dir : {"", "24.11/"})
        for (const char *file : {"main_squeue_marker.txt", "hostile_squeue_marker.txt", "gpu_requests_squeue_marker.txt"})
            QTest::newRow((QByteArray(dir) + file).constData()) << QString::fromLatin1(dir) + QLatin1String(file);
}

void TestSqueueParser::truncatedOutputNeverMisreads()
{
    // Cut the output at every byte (a dropped stream, a full pipe): each job the parser returns
    // must be exactly the job of the full output, and every cut that is not at a record end
    // must be reported. Records end with MARKER + newline, which no name can hold, so unlike
    // a newline-ended format no cut can pass for a record end (a name's own newline included).
    QFETCH(QString, file);
    const QByteArray full = captured(file);
    const QByteArray end = marker() + '\n';
    const SqueueParseResult whole = SqueueParser::parse(full, marker());
    QCOMPARE(whole.malformedRecords, 0);
    for (qsizetype cut = 1; cut < full.size(); ++cut) {
        const QByteArray part = full.left(cut);
        const SqueueParseResult r = SqueueParser::parse(part, marker());
        for (const Job &job : r.jobs) {
            const Job *original = findJob(whole.jobs, job.id);
            QVERIFY2(original && sameJob(job, *original), qPrintable(QStringLiteral("cut at %1 misread job %2").arg(cut).arg(job.id)));
        }
        if (!part.endsWith(end)) {
            QVERIFY2(r.malformedRecords == 1, qPrintable(QStringLiteral("cut at %1 not reported").arg(cut)));
            QVERIFY2(r.error.contains(QLatin1String("truncated")), qPrintable(r.error));
        } else {
            QCOMPARE(r.malformedRecords, 0);
            QCOMPARE(r.jobs.size(), int(part.count(end)));
        }
    }
}

void TestSqueueParser::foreignAndBrokenRecordsAreCounted_data()
{
    QTest::addColumn<QByteArray>("insert");
    QTest::addColumn<int>("malformed");
    QTest::addColumn<QString>("errorContains");
    QTest::newRow("too few fields") << QByteArray("42\x1f" "42\x1f" "42") << 1 << "fields";
    QTest::newRow("no job id") << QByteArray(19, '\x1f') + QByteArray("name") << 1 << "without a job id";
    QTest::newRow("not a job id") << QByteArray("x42") + QByteArray(19, '\x1f') + QByteArray("name") << 1 << "does not start with a job id: \"x42\"";
    QTest::newRow("empty record") << QByteArray() << 1 << "fields";
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
    const qsizetype at = full.indexOf(m + '\n', full.size() / 2) + m.size() + 1;
    const QByteArray damaged = full.left(at) + insert + m + '\n' + full.mid(at);
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

    // Something printed before the records (a login banner): the first record is refused and
    // named, the others are read.
    const QByteArray full = captured(QStringLiteral("main_squeue_marker.txt"));
    r = SqueueParser::parse("Welcome to the cluster\n" + full, m);
    QCOMPARE(r.malformedRecords, 1);
    QCOMPARE(r.jobs.size(), 17);
    QVERIFY2(r.error.contains(QLatin1String("record 1")) && r.error.contains(QLatin1String("Welcome to the cluster")), qPrintable(r.error));

    // Output of another format (no marker at all): one truncated record, no job.
    r = SqueueParser::parse("12|PENDING|serve-llm\n", m);
    QVERIFY(r.jobs.isEmpty());
    QCOMPARE(r.malformedRecords, 1);

    // A marker too short to be unguessable, or one squeue's -O would split or read as a width,
    // is a programming error, reported as such.
    for (const QByteArray &bad : {QByteArray("<<x>>"), QByteArray("<<strata,0123456789>>"), QByteArray("0123456789abcdef")}) {
        r = SqueueParser::parse(full, bad);
        QVERIFY(r.jobs.isEmpty());
        QVERIFY2(r.error.contains(QLatin1String("marker")), qPrintable(r.error));
    }
}

void TestSqueueParser::formatArgument_data()
{
    addReleaseRows();
}

void TestSqueueParser::formatArgument()
{
    // What SlurmSource passes to `squeue -O`: the captures of both releases were made with
    // exactly this text (capture_marker.sh writes it to squeue_format.txt).
    QFETCH(QString, dir);
    const QString format = SqueueParser::formatArgument(marker());
    QCOMPARE(format.toUtf8(), captured(dir + QStringLiteral("squeue_format.txt")));
    QVERIFY(format.endsWith(QLatin1String(",Name:") + QString::fromLatin1(marker())));
    QCOMPARE(format.count(QLatin1Char('\x1f')), 19);
}

void TestSqueueParser::gpuRequests_data()
{
    // gpu_requests_jobs.tsv: held jobs, one per way of asking for GPUs (job IDs in order).
    QTest::addColumn<QString>("dir");
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("gpus");
    const QList<std::tuple<const char *, const char *, int>> rows{
        {"1", "gres per node", 4},              // -N 2 --gres=gpu:2
        {"2", "gpus per node typed", 6},        // -N 2 --gpus-per-node=h100:3
        {"3", "gpus per job", 4},               // --gpus=4 (%b is N/A)
        {"4", "gpus per job on two nodes", 6},  // -N 2 --gpus=6
        {"5", "gpus per task", 8},              // -n 4 --gpus-per-task=2
        {"6", "gpus per task typed", 3},        // -n 3 --gpus-per-task=h100:1
        {"7", "gpus per socket", 4},            // -N 2 --sockets-per-node=2 --gpus-per-socket=1
        {"8", "gpus per job and per node", 4},  // -N 2 --gpus=4 --gpus-per-node=2
        {"9_0", "array of gpus per job", 2},    // --array=0-1 --gpus=2: per task
        {"9_1", "array of gpus per job", 2},
        {"10", "no gpu", 0},                    // -n 2
    };
    for (const char *dir : {"", "24.11/"})
        for (const auto &[id, name, gpus] : rows)
            QTest::newRow(qPrintable(QLatin1String(*dir ? "24.11 " : "22.05 ") + QLatin1String(name) + QLatin1Char(' ') + QLatin1String(id)))
                << QString::fromLatin1(dir) << QString::fromLatin1(id) << QString::fromLatin1(name) << gpus;
}

void TestSqueueParser::gpuRequests()
{
    QFETCH(QString, dir);
    QFETCH(QString, id);
    QFETCH(QString, name);
    QFETCH(int, gpus);
    const SqueueParseResult r = SqueueParser::parse(captured(dir + QStringLiteral("gpu_requests_squeue_marker.txt")), marker());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.jobs.size(), 11);
    const Job *job = findJob(r.jobs, id);
    QVERIFY2(job, qPrintable(id));
    QCOMPARE(job->name, name);
    QCOMPARE(job->state, QStringLiteral("PENDING"));
    QCOMPARE(job->reason, QStringLiteral("JobHeldUser"));
    QCOMPARE(job->gpusRequested, gpus);
}

QTEST_GUILESS_MAIN(TestSqueueParser)
#include "tst_squeue_parser.moc"
