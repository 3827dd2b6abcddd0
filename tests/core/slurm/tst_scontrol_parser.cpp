// ScontrolParser on REAL `scontrol show job -d -o` and `scontrol show partition -o` output
// (tests/data/slurm and tests/data/slurm/marker, see their READMEs). Placements are checked
// against squeue --json's gres_detail of the same moment and against the nodes' GresUsed, and
// job names that try to forge keys or whole records must not move a single GPU.
#include "slurm/gres.h"
#include "slurm/hostlist.h"
#include "slurm/scontrol_parser.h"
#include "slurm/sinfo_json_parser.h"
#include "slurm/squeue_parser.h"

#include "model/gpu_catalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace strata;

using Placement = QMap<QString, QVector<int>>;

namespace {

QByteArray captured(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

// Names by id from the squeue output of the same moment, as SlurmSource passes them.
QHash<QString, QString> namesFromSqueue(const QString &file)
{
    const QByteArray marker = captured(QStringLiteral("marker/marker.txt"));
    QHash<QString, QString> names;
    for (const Job &j : SqueueParser::parse(captured(file), marker).jobs)
        names.insert(j.id, j.name);
    return names;
}

struct JsonJob
{
    QString name;
    QString state;
    Placement gpus;
};

// squeue --json: names escaped properly, gres_detail one entry per node of `nodes`, in order.
QHash<QString, JsonJob> jsonJobs(const QString &file)
{
    QHash<QString, JsonJob> out;
    for (const QJsonValue &v : QJsonDocument::fromJson(captured(file)).object().value(QLatin1String("jobs")).toArray()) {
        const QJsonObject o = v.toObject();
        const int arrayJob = o.value(QLatin1String("array_job_id")).toInt();
        const QJsonValue task = o.value(QLatin1String("array_task_id"));
        const QString id = arrayJob != 0 && task.isDouble() ? QStringLiteral("%1_%2").arg(arrayJob).arg(task.toInt())
                                                             : QString::number(o.value(QLatin1String("job_id")).toInt());
        JsonJob j;
        j.name = o.value(QLatin1String("name")).toString();
        j.state = o.value(QLatin1String("job_state")).toString();
        const QStringList nodes = Hostlist::expandOrKeep(o.value(QLatin1String("nodes")).toString());
        const QJsonArray detail = o.value(QLatin1String("gres_detail")).toArray();
        for (int i = 0; i < detail.size() && i < nodes.size(); ++i) {
            const GresEntry gpu = Gres::gpuTotal(Gres::parseList(detail[i].toString()));
            if (!gpu.indices.isEmpty())
                j.gpus.insert(nodes[i], gpu.indices);
        }
        out.insert(id, j);
    }
    return out;
}

bool isRunningState(const QString &state)
{
    return state == QLatin1String("RUNNING") || state == QLatin1String("COMPLETING") || state == QLatin1String("SUSPENDED");
}

// The first record of a real capture with its name replaced, to build hostile variants of a
// record Slurm really printed.
QByteArray withName(const QByteArray &record, const QByteArray &oldName, const QByteArray &newName)
{
    QByteArray r = record;
    const QByteArray key = " JobName=" + oldName + " UserId=";
    const qsizetype at = r.indexOf(key);
    Q_ASSERT(at > 0);
    r.replace(at, key.size(), " JobName=" + newName + " UserId=");
    return r;
}

QByteArray recordOf(const QByteArray &output, const QByteArray &jobIdPrefix)
{
    for (const QByteArray &line : output.split('\n'))
        if (line.startsWith(jobIdPrefix))
            return line;
    qFatal("no record %s", jobIdPrefix.constData());
}

} // namespace

class TestScontrolParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void partitions_data();
    void partitions();
    void partitionEdgeCases();
    void mainPlacements_data();
    void mainPlacements();
    void placementsMatchSqueueJson_data();
    void placementsMatchSqueueJson();
    void placementsAddUpToNodeGresUsed();
    void forgedNamesMoveNoGpu_data();
    void forgedNamesMoveNoGpu();
    void strayLinesAttachToNoJob();
    void duplicateRecordsAreRefused();
    void capturedForgedRecord_data();
    void capturedForgedRecord();
    void adversarialNamesKeepRecordsApart();
    void emptyAnswers_data();
    void emptyAnswers();
    void perJobChunksMatchSqueueJson();
    void perJobChunksWithoutNamesForgeNothing();
    void perJobChunksEdgeCases();
    void nullCommandIsNoCommand();
};

void TestScontrolParser::partitions_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("isDefault");
    QTest::addColumn<QStringList>("nodes");
    QTest::addColumn<qint64>("maxTimeSeconds");
    QTest::addColumn<int>("totalCpus");
    QTest::newRow("train") << "train" << true << QStringList{"gpu-node01", "gpu-node02", "gpu-node03", "gpu-node04"} << qint64(0) << 768;
    QTest::newRow("inference") << "inference" << false << QStringList{"gpu-node03", "gpu-node04"} << qint64(86400) << 384;
}

void TestScontrolParser::partitions()
{
    QFETCH(QString, name);
    QFETCH(bool, isDefault);
    QFETCH(QStringList, nodes);
    QFETCH(qint64, maxTimeSeconds);
    QFETCH(int, totalCpus);
    for (const char *file : {"scontrol_show_partition_o.txt", "marker/main_scontrol_show_partition_o.txt"}) {
        const ScontrolPartitionsParseResult r = ScontrolParser::parsePartitions(captured(QString::fromLatin1(file)));
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.partitions.size(), 2);
        const auto it = std::find_if(r.partitions.begin(), r.partitions.end(), [&](const Partition &p) { return p.name == name; });
        QVERIFY(it != r.partitions.end());
        QCOMPARE(it->state, QStringLiteral("UP"));
        QCOMPARE(it->isDefault, isDefault);
        QCOMPARE(it->nodes, nodes);
        QCOMPARE(it->maxTimeSeconds, maxTimeSeconds);
        QCOMPARE(it->totalCpus, totalCpus);
        QCOMPARE(it->totalGpus, 0); // the lab has no AccountingStorageTRES=gres/gpu
    }
}

void TestScontrolParser::partitionEdgeCases()
{
    // A real line with gres/gpu in its TRES, as clusters with AccountingStorageTRES print it.
    QByteArray line = captured(QStringLiteral("scontrol_show_partition_o.txt")).split('\n').first();
    line.replace("billing=768", "billing=768,gres/gpu=32");
    ScontrolPartitionsParseResult r = ScontrolParser::parsePartitions(line + '\n');
    QCOMPARE(r.partitions.size(), 1);
    QCOMPARE(r.partitions[0].totalGpus, 32);

    r = ScontrolParser::parsePartitions("scontrol: error: slurm_load_partitions: Unable to contact slurm controller\n");
    QVERIFY(r.partitions.isEmpty());
    QVERIFY2(r.error.contains(QLatin1String("Unable to contact slurm controller")), qPrintable(r.error));
}

void TestScontrolParser::mainPlacements_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<Placement>("gpus");
    // What Slurm chose in marker/main_* (the capture.sh scenario while job 1 still ran).
    QTest::newRow("5 six GPUs") << "5" << Placement{{"gpu-node01", {0, 1, 2, 3, 4, 5}}};
    QTest::newRow("6 two nodes, other index on each") << "6" << Placement{{"gpu-node01", {6}}, {"gpu-node02", {0}}};
    QTest::newRow("7_0 array task") << "7_0" << Placement{{"gpu-node02", {1, 2, 3}}};
    QTest::newRow("7_1 array task") << "7_1" << Placement{{"gpu-node02", {4, 5, 6}}};
    QTest::newRow("8 CPU only") << "8" << Placement{};
    QTest::newRow("1 no GPU") << "1" << Placement{};
}

void TestScontrolParser::mainPlacements()
{
    QFETCH(QString, id);
    QFETCH(Placement, gpus);
    const QHash<QString, QString> names = namesFromSqueue(QStringLiteral("marker/main_squeue_marker.txt"));
    const ScontrolJobsParseResult r = ScontrolParser::parseJobDetails(captured(QStringLiteral("marker/main_scontrol_show_job_d_o.txt")), names);
    QCOMPARE(r.malformedRecords, 0);
    QVERIFY(r.jobs.contains(id));
    QCOMPARE(r.jobs.value(id).gpus, gpus);
    QCOMPARE(r.jobs.value(id).jobId, id);
    // capture_marker.sh runs the jobs in LAB_DIR/capture-marker.XXXXXX.
    static const QRegularExpression workDir(QStringLiteral("^/tmp/strata-lab[^/]*/capture-marker\\.\\w{6}$"));
    QVERIFY2(workDir.match(r.jobs.value(id).workDir).hasMatch(), qPrintable(r.jobs.value(id).workDir));
}

void TestScontrolParser::placementsMatchSqueueJson_data()
{
    QTest::addColumn<QString>("scontrol");
    QTest::addColumn<QString>("squeueJson");
    QTest::addColumn<QString>("squeueMarker"); // names SlurmSource would pass; empty: from the JSON
    QTest::addColumn<int>("minRunning");
    QTest::newRow("main capture") << "scontrol_show_job_d_o.txt" << "squeue.json" << "" << 5;
    QTest::newRow("adversarial names") << "adversarial/scontrol_show_job_d_o.txt" << "adversarial/squeue.json" << "" << 0;
    QTest::newRow("hostile names") << "marker/hostile_scontrol_show_job_d_o.txt" << "marker/hostile_squeue.json"
                                   << "marker/hostile_squeue_marker.txt" << 8;
}

void TestScontrolParser::placementsMatchSqueueJson()
{
    QFETCH(QString, scontrol);
    QFETCH(QString, squeueJson);
    QFETCH(QString, squeueMarker);
    QFETCH(int, minRunning);
    const QHash<QString, JsonJob> json = jsonJobs(squeueJson);
    QHash<QString, QString> names;
    if (squeueMarker.isEmpty()) {
        for (auto it = json.begin(); it != json.end(); ++it)
            names.insert(it.key(), it->name);
    } else {
        names = namesFromSqueue(squeueMarker);
    }
    const ScontrolJobsParseResult r = ScontrolParser::parseJobDetails(captured(scontrol), names);
    int running = 0;
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (!isRunningState(it->state))
            continue;
        ++running;
        QVERIFY2(r.jobs.contains(it.key()), qPrintable(it.key()));
        QCOMPARE(r.jobs.value(it.key()).gpus, it->gpus);
    }
    QVERIFY(running >= minRunning);
    // Records of jobs that are not running carry no GPUs either.
    for (auto it = r.jobs.begin(); it != r.jobs.end(); ++it)
        if (json.contains(it.key()) && !isRunningState(json.value(it.key()).state))
            QVERIFY2(it->gpus.isEmpty(), qPrintable(it.key()));
}

void TestScontrolParser::placementsAddUpToNodeGresUsed()
{
    // Independent outputs of one moment: the per-job indices on each node are disjoint and
    // together are exactly what sinfo --json reports the node has in use.
    const QHash<QString, QString> names = namesFromSqueue(QStringLiteral("marker/main_squeue_marker.txt"));
    const ScontrolJobsParseResult r = ScontrolParser::parseJobDetails(captured(QStringLiteral("marker/main_scontrol_show_job_d_o.txt")), names);
    const SinfoParseResult nodes = SinfoJsonParser::parse(captured(QStringLiteral("marker/main_nodes.json")), GpuCatalog::builtIn());
    QVERIFY(nodes.error.isEmpty());
    QMap<QString, QVector<int>> used;
    for (const JobGpuPlacement &p : r.jobs)
        for (auto it = p.gpus.begin(); it != p.gpus.end(); ++it)
            used[it.key()] += it.value();
    for (const Node &n : nodes.nodes) {
        QVector<int> indices = used.value(n.name);
        std::sort(indices.begin(), indices.end());
        QVERIFY2(std::adjacent_find(indices.begin(), indices.end()) == indices.end(), qPrintable(n.name + QLatin1String(": one GPU held twice")));
        QCOMPARE(indices, n.gpuIndicesAllocated);
        QCOMPARE(int(indices.size()), n.gpusAllocated);
    }
}

void TestScontrolParser::forgedNamesMoveNoGpu_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::newRow("forged UserId and detail") << QByteArray("x UserId=root(0) Nodes=gpu-node04 CPU_IDs=0 Mem=0 GRES=gpu:h200:8(IDX:0-7)");
    QTest::newRow("forged JobName") << QByteArray("a JobName=b UserId=root(0) JobState=RUNNING Nodes=gpu-node03 GRES=gpu:h200:1(IDX:7)");
    QTest::newRow("forged record on a new line") << QByteArray("a\nJobId=99 JobName=b UserId=root(0) JobState=RUNNING Nodes=gpu-node04 CPU_IDs=0 Mem=0 GRES=gpu:h200:8(IDX:0-7)");
    QTest::newRow("forged record of another job") << QByteArray("a\nJobId=6 JobName=multi;node $(rm -rf /) `id` UserId=root(0) Nodes=gpu-node04 GRES=gpu:h200:8(IDX:0-7)");
    QTest::newRow("only keys") << QByteArray("Nodes=gpu-node04 GRES=gpu:h200:8(IDX:0-7)");
    QTest::newRow("name ends like a key") << QByteArray("x Nodes=gpu-node04");
}

void TestScontrolParser::forgedNamesMoveNoGpu()
{
    // Job 5's real record with a hostile name: its placement stays what Slurm printed, and
    // neither job 99 nor job 6 gains a GPU.
    QFETCH(QByteArray, name);
    const QByteArray output = captured(QStringLiteral("marker/main_scontrol_show_job_d_o.txt"));
    QHash<QString, QString> names = namesFromSqueue(QStringLiteral("marker/main_squeue_marker.txt"));
    const ScontrolJobsParseResult original = ScontrolParser::parseJobDetails(output, names);
    const QByteArray record5 = recordOf(output, "JobId=5 ");
    const QByteArray forged = withName(record5, "llama-70b pretrain", name);
    QByteArray hostile = output;
    hostile.replace(record5, forged);
    names.insert(QStringLiteral("5"), QString::fromUtf8(name));
    const ScontrolJobsParseResult r = ScontrolParser::parseJobDetails(hostile, names);
    QCOMPARE(r.jobs.value(QStringLiteral("5")).gpus, original.jobs.value(QStringLiteral("5")).gpus);
    QCOMPARE(r.jobs.value(QStringLiteral("6")).gpus, original.jobs.value(QStringLiteral("6")).gpus);
    QVERIFY(!r.jobs.contains(QStringLiteral("99")));
    QCOMPARE(r.jobs.size(), original.jobs.size());
    QCOMPARE(r.malformedRecords, 0);
}

void TestScontrolParser::strayLinesAttachToNoJob()
{
    // SlurmSource filters the output line by line on the remote side; a job whose name holds a
    // newline leaves lines that start with no JobId=. Whatever they say, they belong to no job.
    const QByteArray output = captured(QStringLiteral("marker/main_scontrol_show_job_d_o.txt"));
    const QHash<QString, QString> names = namesFromSqueue(QStringLiteral("marker/main_squeue_marker.txt"));
    const ScontrolJobsParseResult original = ScontrolParser::parseJobDetails(output, names);
    const QByteArray record5 = recordOf(output, "JobId=5 ");
    const QByteArray stray = " Nodes=gpu-node04 CPU_IDs=0 Mem=0 GRES=gpu:h200:8(IDX:0-7) UserId=root(0) JobState=PENDING\n";
    QByteArray filtered = output;
    filtered.replace(record5 + '\n', record5 + '\n' + stray);
    const ScontrolJobsParseResult r = ScontrolParser::parseJobDetails(filtered, names);
    for (auto it = original.jobs.begin(); it != original.jobs.end(); ++it)
        QCOMPARE(r.jobs.value(it.key()).gpus, it->gpus);
    QCOMPARE(r.jobs.size(), original.jobs.size());
}

void TestScontrolParser::duplicateRecordsAreRefused()
{
    // Two records for one job cannot both be Slurm's: trust neither, and say so.
    const QByteArray output = captured(QStringLiteral("marker/main_scontrol_show_job_d_o.txt"));
    const QHash<QString, QString> names = namesFromSqueue(QStringLiteral("marker/main_squeue_marker.txt"));
    QByteArray copy = recordOf(output, "JobId=5 ");
    copy.replace("GRES=gpu:h100:6(IDX:0-5)", "GRES=gpu:h100:6(IDX:2-7)");
    const ScontrolJobsParseResult r = ScontrolParser::parseJobDetails(output + copy + '\n', names);
    QVERIFY(!r.jobs.contains(QStringLiteral("5")));
    QVERIFY(r.jobs.contains(QStringLiteral("6")));
    QCOMPARE(r.malformedRecords, 1);
    QVERIFY2(r.error.contains(QLatin1String("5")), qPrintable(r.error));
}

// tests/data/slurm/forged-record: job 3's name is a newline and a record of job 1 giving it all
// of gpu-node04; on the printed line that follows, job 3's real fields (gpu-node02 IDX 0).
void TestScontrolParser::capturedForgedRecord_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("forgerNameKnown");
    QTest::addColumn<QStringList>("expected"); // "id node indices", sorted
    QTest::addColumn<int>("malformed");
    for (const QString &version : {QStringLiteral("22.05"), QStringLiteral("24.11")}) {
        const QString all = QStringLiteral("forged-record/scontrol_show_job_d_o-%1.txt").arg(version);
        const QString filtered = QStringLiteral("forged-record/running_filtered-%1.txt").arg(version);
        // Every name known (from squeue): each record is read whole, the forged one is job 3's name.
        QTest::addRow("%s all, names known", qPrintable(version))
            << all << true << QStringList{"1 gpu-node01 0,1", "2 gpu-node01 2,3,4", "3 gpu-node02 0"} << 0;
        // Job 3 renamed between squeue and scontrol: its name cannot be skipped, so the line
        // after it (the forged job 1) is not trusted; job 3 is then read on its own.
        QTest::addRow("%s all, forger's name unknown", qPrintable(version))
            << all << false << QStringList{"1 gpu-node01 0,1", "2 gpu-node01 2,3,4"} << 2;
        // The bulk read's filter dropped job 3's first line: job 1 appears twice, and neither
        // record is trusted (both are then read on their own).
        QTest::addRow("%s filtered", qPrintable(version)) << filtered << true << QStringList{"2 gpu-node01 2,3,4"} << 1;
    }
}

void TestScontrolParser::capturedForgedRecord()
{
    QFETCH(QString, file);
    QFETCH(bool, forgerNameKnown);
    QFETCH(QStringList, expected);
    QFETCH(int, malformed);
    QHash<QString, QString> names{
        {QStringLiteral("1"), QStringLiteral("strata-it plain")},
        {QStringLiteral("2"), QStringLiteral("evil $(touch /tmp/x); `id` \"q\" 's' | \t ünï")},
    };
    if (forgerNameKnown)
        names.insert(QStringLiteral("3"), QStringLiteral("JobState=PENDING\nJobId=1 JobName=strata-it plain UserId=root(0) JobState=RUNNING "
                                                         "Nodes=gpu-node04 CPU_IDs=0 Mem=0 GRES=gpu:h200:8(IDX:0-7)"));
    const ScontrolJobsParseResult r = ScontrolParser::parseJobDetails(captured(file), names);
    QStringList got;
    for (auto it = r.jobs.cbegin(); it != r.jobs.cend(); ++it)
        for (auto g = it->gpus.cbegin(); g != it->gpus.cend(); ++g) {
            QStringList indices;
            for (int i : g.value())
                indices << QString::number(i);
            got << QStringLiteral("%1 %2 %3").arg(it.key(), g.key(), indices.join(u','));
        }
    got.sort();
    QCOMPARE(got, expected);
    QCOMPARE(r.malformedRecords, malformed);
    QCOMPARE(r.error.isEmpty(), malformed == 0);
}

void TestScontrolParser::adversarialNamesKeepRecordsApart()
{
    // Jobs named with newline, \x1f and \x1e (tests/data/slurm/adversarial): their records
    // span several lines, and every one is found, whole, when the names are known.
    const QHash<QString, JsonJob> json = jsonJobs(QStringLiteral("adversarial/squeue.json"));
    QHash<QString, QString> names;
    int withNewline = 0;
    for (auto it = json.begin(); it != json.end(); ++it) {
        names.insert(it.key(), it->name);
        withNewline += it->name.contains(QLatin1Char('\n')) ? 1 : 0;
    }
    QVERIFY(withNewline >= 2);
    const ScontrolJobsParseResult r = ScontrolParser::parseJobDetails(captured(QStringLiteral("adversarial/scontrol_show_job_d_o.txt")), names);
    QCOMPARE(r.malformedRecords, 0);
    QCOMPARE(r.jobs.size(), names.size());
    for (auto it = r.jobs.begin(); it != r.jobs.end(); ++it) {
        QVERIFY2(names.contains(it.key()), qPrintable(it.key()));
        QVERIFY2(it->workDir.startsWith(QLatin1Char('/')), qPrintable(it->workDir));
        QVERIFY(it->stdoutPath.startsWith(it->workDir));
    }
}

void TestScontrolParser::emptyAnswers_data()
{
    QTest::addColumn<QByteArray>("output");
    QTest::newRow("captured empty cluster") << captured(QStringLiteral("empty_scontrol_show_job_d_o.txt"));
    QTest::newRow("nothing") << QByteArray();
    QTest::newRow("blank") << QByteArray("\n\n");
}

void TestScontrolParser::emptyAnswers()
{
    QFETCH(QByteArray, output);
    QVERIFY(ScontrolParser::isEmptyAnswer(output));
    const ScontrolJobsParseResult r = ScontrolParser::parseJobDetails(output, {});
    QVERIFY(r.jobs.isEmpty());
    QVERIFY(r.error.isEmpty());
    QCOMPARE(r.malformedRecords, 0);
}

void TestScontrolParser::perJobChunksMatchSqueueJson()
{
    // marker/hostile_scontrol_per_job.txt: `printf 'MARKER ID\n'; scontrol show job -d -o ID` for
    // each running job, as SlurmSource asks when few are new.
    const QByteArray marker = captured(QStringLiteral("marker/marker.txt"));
    const QHash<QString, QString> names = namesFromSqueue(QStringLiteral("marker/hostile_squeue_marker.txt"));
    const ScontrolJobsParseResult r = ScontrolParser::parseJobDetailChunks(captured(QStringLiteral("marker/hostile_scontrol_per_job.txt")), marker, names);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.malformedRecords, 0);
    const QHash<QString, JsonJob> json = jsonJobs(QStringLiteral("marker/hostile_squeue.json"));
    int running = 0;
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (it->state != QLatin1String("RUNNING"))
            continue;
        ++running;
        QVERIFY2(r.jobs.contains(it.key()), qPrintable(it.key()));
        QCOMPARE(r.jobs.value(it.key()).gpus, it->gpus);
    }
    QCOMPARE(r.jobs.size(), running);
}

void TestScontrolParser::perJobChunksWithoutNamesForgeNothing()
{
    // Without the names (read best-effort), job 4's chunk yields "job 1" from the record its
    // name forges; it was not asked for there and is refused, and job 1's own chunk stays
    // right. (A name can still mislead the best-effort read of its own job, e.g. job 3's;
    // SlurmSource asks only for jobs squeue just named, so it always has the names.)
    const QByteArray marker = captured(QStringLiteral("marker/marker.txt"));
    const ScontrolJobsParseResult r = ScontrolParser::parseJobDetailChunks(captured(QStringLiteral("marker/hostile_scontrol_per_job.txt")), marker, {});
    const QHash<QString, JsonJob> json = jsonJobs(QStringLiteral("marker/hostile_squeue.json"));
    QCOMPARE(r.jobs.value(QStringLiteral("1")).gpus, json.value(QStringLiteral("1")).gpus);
    QVERIFY(r.malformedRecords >= 2); // job 4 unreadable, the forged job 1 refused
    QVERIFY(!r.error.isEmpty());
    for (const char *plain : {"6", "7_0"})
        QCOMPARE(r.jobs.value(QLatin1String(plain)).gpus, json.value(QLatin1String(plain)).gpus);
}

void TestScontrolParser::perJobChunksEdgeCases()
{
    const QByteArray marker = captured(QStringLiteral("marker/marker.txt"));
    const QByteArray m = marker + " 12345\n";
    const QByteArray output = captured(QStringLiteral("marker/hostile_scontrol_per_job.txt"));
    const QHash<QString, QString> names = namesFromSqueue(QStringLiteral("marker/hostile_squeue_marker.txt"));
    const ScontrolJobsParseResult full = ScontrolParser::parseJobDetailChunks(output, marker, names);
    // Jobs that ended before their scontrol ran leave empty chunks, first, inside and last.
    const ScontrolJobsParseResult gaps = ScontrolParser::parseJobDetailChunks(m + m + output + m, marker, names);
    QCOMPARE(gaps.malformedRecords, 0);
    QCOMPARE(gaps.jobs.keys(), full.jobs.keys());
    // Anything before the first marker is not ours.
    const ScontrolJobsParseResult alien = ScontrolParser::parseJobDetailChunks("banner\n" + output, marker, names);
    QVERIFY(alien.jobs.isEmpty());
    QVERIFY(alien.error.contains(QLatin1String("banner")));
    QVERIFY(ScontrolParser::parseJobDetailChunks(QByteArray(), marker, names).jobs.isEmpty());
}

void TestScontrolParser::nullCommandIsNoCommand()
{
    // Issue 33: the job pane showed "(null)", Slurm's word for no command (every job of the
    // marker capture was given its script on standard input, as Strata submits).
    const QHash<QString, QString> names = namesFromSqueue(QStringLiteral("marker/main_squeue_marker.txt"));
    const ScontrolJobsParseResult stdinJobs = ScontrolParser::parseJobDetails(captured(QStringLiteral("marker/main_scontrol_show_job_d_o.txt")), names);
    QVERIFY(!stdinJobs.jobs.isEmpty());
    for (const JobGpuPlacement &p : stdinJobs.jobs)
        QVERIFY2(p.command.isEmpty(), qPrintable(p.jobId + QStringLiteral(": ") + p.command));
    // A script given by path keeps its path and arguments.
    const ScontrolJobsParseResult scripts = ScontrolParser::parseJobDetails(captured(QStringLiteral("workloads/scontrol_show_job_d_o.txt")),
                                                                            {{"18", "llama3-70b-pretrain"}, {"19", "sft-run"}, {"20", "serve"},
                                                                             {"21", "notes"}, {"22", "dpo"}, {"23", "gpt-nemo"},
                                                                             {"24", "maxtext"}, {"25", "tgi"}, {"26", "triton"},
                                                                             {"27", "sglang"}, {"28", "bad-kind"}});
    QVERIFY(scripts.jobs.contains(QStringLiteral("18")));
    QVERIFY2(scripts.jobs.value(QStringLiteral("18")).command.startsWith(QStringLiteral("/tmp/strata-lab-stack/workloads/launch.sh")),
             qPrintable(scripts.jobs.value(QStringLiteral("18")).command));
}

QTEST_GUILESS_MAIN(TestScontrolParser)
#include "tst_scontrol_parser.moc"
