// The real `strata` binary against the lab's real Slurm over real SSH (connect.args), compared
// with what sinfo/squeue/scontrol say when run here: nodes, states, partitions, jobs and the
// GPU indices of each job, after submit, drain, resume and cancel through the CLI.
#include "cli_lab.h"

#include <QTemporaryDir>

#include <QDateTime>
#include <QFileInfo>

using namespace strata;
using namespace strata::lab;

class TestCliSlurm : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void snapshotMatchesSlurm();
    void pinnedMultiGpuJobsShowSlurmsIndices();
    void drainWithReasonThenResume();
    void cancelledJobsLeaveTheQueue();
    void hostileNameRoundTrip();
    void manyNewJobsTakeTheBulkPath();
    void badPartitionShowsSlurmsError();
    void invalidJobIdIsRefusedLocally();
    void timesDoNotDependOnTheConsolesZone();
    void profileAddChecksBeforeSaving();

private:
    void compareJobWithSlurm(const QJsonObject &snapshot, const QString &id);
    CliLab m_lab;
};

void TestCliSlurm::initTestCase()
{
    QString error;
    QVERIFY2(m_lab.load(&error), qPrintable(error));
    const Run ping = m_lab.slurm(QStringLiteral("scontrol"), {QStringLiteral("ping")});
    QVERIFY2(ping.out.contains("is UP"), ping.out.constData());
    QVERIFY(m_lab.waitForNodesResponding(30000));
}

void TestCliSlurm::cleanup()
{
    m_lab.restore();
}

void TestCliSlurm::snapshotMatchesSlurm()
{
    QString error;
    const QJsonObject snapshot = m_lab.snapshot(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(snapshot.value(QLatin1String("orchestrator")).toString(), QStringLiteral("slurm"));

    // Nodes: names, states and partitions as sinfo prints them, one line per node and partition.
    QMap<QString, QString> sinfoState;
    QMap<QString, QStringList> sinfoPartitions;
    for (const QString &line : m_lab.slurmOut(QStringLiteral("sinfo"), {"-h", "-N", "-o", "%N|%T|%R"}).split('\n', Qt::SkipEmptyParts)) {
        const QStringList f = line.split(QLatin1Char('|'));
        sinfoState[f[0]] = f[1];
        sinfoPartitions[f[0]] << f[2];
    }
    const QJsonArray nodes = snapshot.value(QLatin1String("nodes")).toArray();
    QStringList names;
    for (const QJsonValue &v : nodes) {
        const QJsonObject n = v.toObject();
        const QString name = n.value(QLatin1String("name")).toString();
        names << name;
        QCOMPARE(n.value(QLatin1String("state")).toString(), sinfoState.value(name));
        QStringList partitions;
        for (const QJsonValue &p : n.value(QLatin1String("partitions")).toArray())
            partitions << p.toString();
        QStringList expected = sinfoPartitions.value(name);
        partitions.sort();
        expected.sort();
        QCOMPARE(partitions, expected);
        // GRES as scontrol reports it, and the instance type from the node's feature.
        const QString detail = m_lab.slurmOut(QStringLiteral("scontrol"), {"show", "node", "-d", "-o", name});
        static const QRegularExpression gres(QStringLiteral(" Gres=(\\S+) .* GresUsed=(\\S+) "));
        const auto m = gres.match(detail);
        QVERIFY2(m.hasMatch(), qPrintable(detail));
        const GresEntry total = Gres::gpuTotal(Gres::parseList(m.captured(1)));
        const GresEntry used = Gres::gpuTotal(Gres::parseList(m.captured(2)));
        QCOMPARE(n.value(QLatin1String("gpuCount")).toInt(), total.count);
        QCOMPARE(n.value(QLatin1String("gpusAllocated")).toInt(), used.count);
        QCOMPARE(n.value(QLatin1String("gpuModel")).toString(), total.type.toUpper());
        QVERIFY(detail.contains(QLatin1String(" ActiveFeatures=") + n.value(QLatin1String("instanceType")).toString() + QLatin1Char(' ')));
        QCOMPARE(n.value(QLatin1String("gpus")).toArray().size(), total.count);
    }
    QCOMPARE(names, QStringList(sinfoState.keys()));

    // Jobs: every job squeue lists (finished ones included) with its state and partition.
    QMap<QString, QString> squeueJobs;
    for (const QString &line : m_lab.slurmOut(QStringLiteral("squeue"), {"-h", "-a", "-r", "--states=all", "-o", "%i|%T|%P|%u"}).split('\n', Qt::SkipEmptyParts))
        squeueJobs.insert(line.section('|', 0, 0), line.section('|', 1));
    const QJsonArray jobs = snapshot.value(QLatin1String("jobs")).toArray();
    QCOMPARE(jobs.size(), squeueJobs.size());
    for (const QJsonValue &v : jobs) {
        const QJsonObject j = v.toObject();
        const QString id = j.value(QLatin1String("id")).toString();
        QVERIFY2(squeueJobs.contains(id), qPrintable(id));
        const QString expected = squeueJobs.value(id);
        QCOMPARE(QStringList({j.value(QLatin1String("state")).toString(), j.value(QLatin1String("partition")).toString(),
                              j.value(QLatin1String("user")).toString()}).join('|'), expected);
    }
}

void TestCliSlurm::compareJobWithSlurm(const QJsonObject &snapshot, const QString &id)
{
    const QJsonObject job = findById(snapshot.value(QLatin1String("jobs")).toArray(), QStringLiteral("id"), id);
    QVERIFY2(!job.isEmpty(), qPrintable(id));
    const Placement expected = m_lab.scontrolPlacement(id);
    QVERIFY2(!expected.isEmpty(), qPrintable(id));
    QCOMPARE(jsonPlacement(job), expected);
    QStringList nodes;
    for (const QJsonValue &v : job.value(QLatin1String("nodes")).toArray())
        nodes << v.toString();
    QCOMPARE(nodes, QStringList(expected.keys()));
    // The node side of the same fact: each of those GPUs names this job.
    for (auto it = expected.begin(); it != expected.end(); ++it) {
        const QJsonObject node = findById(snapshot.value(QLatin1String("nodes")).toArray(), QStringLiteral("name"), it.key());
        const QJsonArray gpus = node.value(QLatin1String("gpus")).toArray();
        for (int index : it.value())
            QCOMPARE(gpus.at(index).toObject().value(QLatin1String("job")).toString(), id);
    }
}

void TestCliSlurm::pinnedMultiGpuJobsShowSlurmsIndices()
{
    Run run;
    const QString single = m_lab.submit({"--name", "strata-it 4 gpus", "--nodelist", "gpu-node02", "--gpus-per-node", "4",
                                         "--output", "/dev/null", "--wrap", "sleep 300"}, &run);
    QVERIFY2(!single.isEmpty(), run.err.constData());
    // A second job on the same node gets other indices; a 2-node job gets indices on both.
    const QString second = m_lab.submit({"--name", "strata-it 3 more", "--nodelist", "gpu-node02", "--gpus-per-node", "3",
                                         "--output", "/dev/null", "--wrap", "sleep 300"}, &run);
    QVERIFY2(!second.isEmpty(), run.err.constData());
    const QString twoNodes = m_lab.submit({"--name", "strata-it two nodes", "--nodes", "2", "--nodelist", "gpu-node[03-04]",
                                           "--gpus-per-node", "2", "--output", "/dev/null", "--wrap", "sleep 300"}, &run);
    QVERIFY2(!twoNodes.isEmpty(), run.err.constData());
    for (const QString &id : {single, second, twoNodes})
        QVERIFY2(CliLab::waitUntil(20000, [&] { return m_lab.jobState(id) == QLatin1String("RUNNING"); }), qPrintable(id));

    QString error;
    const QJsonObject snapshot = m_lab.snapshot(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    compareJobWithSlurm(snapshot, single);
    compareJobWithSlurm(snapshot, second);
    compareJobWithSlurm(snapshot, twoNodes);
    const QJsonArray jobs = snapshot.value(QLatin1String("jobs")).toArray();
    QCOMPARE(jsonPlacement(findById(jobs, "id", single)).value("gpu-node02").size(), 4);
    QCOMPARE(jsonPlacement(findById(jobs, "id", twoNodes)).keys(), (QStringList{"gpu-node03", "gpu-node04"}));
    QCOMPARE(findById(jobs, "id", single).value("name").toString(), QStringLiteral("strata-it 4 gpus"));
    QCOMPARE(findById(jobs, "id", twoNodes).value("gpusRequested").toInt(), 4);
    const QJsonObject node02 = findById(snapshot.value("nodes").toArray(), "name", "gpu-node02");
    QCOMPARE(node02.value("gpusAllocated").toInt(), 7);
    QCOMPARE(node02.value("state").toString(), QStringLiteral("mixed"));
}

void TestCliSlurm::drainWithReasonThenResume()
{
    // The reason carries text that would be a second key or a command if it were not one argv
    // element: scontrol must store it whole.
    const QString reason = QStringLiteral("strata-it: GPU 3 Xid 79 State=RESUME it's $(id) `id`");
    m_lab.rememberDrained(QStringLiteral("gpu-node03"));
    const Run drain = m_lab.strata(QStringLiteral("drain"), {"gpu-node03", "--reason", reason});
    QVERIFY2(drain.exitCode == 0, drain.err.constData());
    QVERIFY(CliLab::waitUntil(10000, [&] {
        return m_lab.slurmOut("sinfo", {"-h", "-N", "-n", "gpu-node03", "-o", "%T|%E"}).split('\n').first() == QLatin1String("drained|") + reason;
    }));
    QString error;
    QJsonObject node = findById(m_lab.snapshot(&error).value("nodes").toArray(), "name", "gpu-node03");
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(node.value("state").toString(), QStringLiteral("drained"));
    QCOMPARE(node.value("reason").toString(), reason);
    QCOMPARE(node.value("stateFlags").toArray(), QJsonArray{QStringLiteral("DRAIN")});

    const Run resume = m_lab.strata(QStringLiteral("resume"), {"gpu-node03"});
    QVERIFY2(resume.exitCode == 0, resume.err.constData());
    QVERIFY(CliLab::waitUntil(10000, [&] {
        return m_lab.slurmOut("sinfo", {"-h", "-N", "-n", "gpu-node03", "-o", "%T"}).split('\n').first() == QLatin1String("idle");
    }));
    node = findById(m_lab.snapshot(&error).value("nodes").toArray(), "name", "gpu-node03");
    QCOMPARE(node.value("state").toString(), QStringLiteral("idle"));
    QCOMPARE(node.value("reason").toString(), QString());
}

void TestCliSlurm::cancelledJobsLeaveTheQueue()
{
    const QString running = m_lab.submit({"--name", "strata-it cancel running", "--gpus-per-node", "1", "--output", "/dev/null", "--wrap", "sleep 300"});
    const QString pending = m_lab.submit({"--name", "strata-it cancel pending", "--nodelist", "gpu-node01", "--gpus-per-node", "8",
                                          "--output", "/dev/null", "--output", "/dev/null", "--wrap", "sleep 300", "--time", "1"});
    QVERIFY(!running.isEmpty() && !pending.isEmpty());
    QVERIFY(CliLab::waitUntil(20000, [&] { return m_lab.jobState(running) == QLatin1String("RUNNING"); }));
    const Run cancel = m_lab.strata(QStringLiteral("cancel"), {running, pending});
    QVERIFY2(cancel.exitCode == 0, cancel.err.constData());
    QVERIFY(QString::fromUtf8(cancel.out).contains(QStringLiteral("Cancelled job %1").arg(running)));
    for (const QString &id : {running, pending})
        QVERIFY2(CliLab::waitUntil(15000, [&] { return m_lab.jobState(id) == QLatin1String("CANCELLED"); }), qPrintable(id));
    QString error;
    const QJsonObject snapshot = m_lab.snapshot(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    for (const QString &id : {running, pending}) {
        const QJsonObject job = findById(snapshot.value("jobs").toArray(), "id", id);
        QCOMPARE(job.value("state").toString(), QStringLiteral("CANCELLED"));
        QCOMPARE(job.value("gpus").toObject(), QJsonObject());
    }
    // A job Slurm does not know: Slurm's complaint, non-zero (scancel alone would exit 0).
    const Run unknown = m_lab.strata(QStringLiteral("cancel"), {QStringLiteral("999999")});
    QCOMPARE(unknown.exitCode, 1);
    QVERIFY2(unknown.err.contains("Invalid job id specified"), unknown.err.constData());
    // Their GPUs are free again on the node side too.
    for (const QJsonValue &n : snapshot.value("nodes").toArray())
        for (const QJsonValue &g : n.toObject().value("gpus").toArray())
            QVERIFY(g.toObject().value("job").toString() != running);
}

void TestCliSlurm::hostileNameRoundTrip()
{
    const QString probe = QStringLiteral("/tmp/x");
    const bool probeExisted = QFileInfo::exists(probe);
    const QDateTime probeTime = QFileInfo(probe).lastModified();
    const QString evil = QStringLiteral("evil $(touch /tmp/x); `id` \"q\" 's' | \t ünï\n");
    // A plain GPU job on the same node first: a name with a newline must not lend its GPUs to
    // the job listed before it, nor lose its own.
    const QString plain = m_lab.submit({"--name", "strata-it plain", "--nodelist", "gpu-node01", "--gpus-per-node", "2", "--output", "/dev/null", "--wrap", "sleep 300"});
    Run run;
    const QString hostile = m_lab.submit({"--name", evil, "--nodelist", "gpu-node01", "--gpus-per-node", "3", "--output", "/dev/null", "--wrap", "sleep 300"}, &run);
    QVERIFY2(!plain.isEmpty() && !hostile.isEmpty(), run.err.constData());
    // A name that forges a whole scontrol record giving the plain job all of gpu-node04.
    const QString forger = m_lab.submit({"--name", QStringLiteral("JobState=PENDING\nJobId=%1 JobName=strata-it plain UserId=root(0) "
                                                                  "JobState=RUNNING Nodes=gpu-node04 CPU_IDs=0 Mem=0 GRES=gpu:h200:8(IDX:0-7)").arg(plain),
                                         "--nodelist", "gpu-node02", "--gpus-per-node", "1", "--output", "/dev/null", "--wrap", "sleep 300"}, &run);
    QVERIFY2(!forger.isEmpty(), run.err.constData());
    for (const QString &id : {plain, hostile, forger})
        QVERIFY2(CliLab::waitUntil(20000, [&] { return m_lab.jobState(id) == QLatin1String("RUNNING"); }), qPrintable(id));

    // Slurm stored the bytes exactly (squeue --json escapes names properly).
    const QJsonArray slurmJobs = QJsonDocument::fromJson(m_lab.slurm("squeue", {"--json"}).out).object().value("jobs").toArray();
    QJsonObject stored;
    for (const QJsonValue &v : slurmJobs)
        if (QString::number(v.toObject().value("job_id").toInt()) == hostile)
            stored = v.toObject();
    QCOMPARE(stored.value("name").toString().toUtf8(), evil.toUtf8());

    QString error;
    const QJsonObject snapshot = m_lab.snapshot(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QJsonObject job = findById(snapshot.value("jobs").toArray(), "id", hostile);
    QCOMPARE(job.value("name").toString().toUtf8(), evil.toUtf8());
    QCOMPARE(job.value("state").toString(), QStringLiteral("RUNNING"));
    compareJobWithSlurm(snapshot, hostile);
    compareJobWithSlurm(snapshot, plain);
    compareJobWithSlurm(snapshot, forger);
    // The text output shows it too, without running anything.
    const Run text = m_lab.strata(QStringLiteral("snapshot"), {});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("evil $(touch /tmp/x); `id`"));
    QCOMPARE(QFileInfo::exists(probe), probeExisted);
    if (probeExisted)
        QCOMPARE(QFileInfo(probe).lastModified(), probeTime);
}

void TestCliSlurm::manyNewJobsTakeTheBulkPath()
{
    // More new running jobs than SlurmSource asks for one by one: it reads the whole
    // (remote-filtered) `scontrol show job -d -o` instead. Placements must not change.
    const Run filler = m_lab.slurm(QStringLiteral("sbatch"), {"--parsable", "--array=0-39", "-c", "1", "-o", "/dev/null",
                                                              "-J", "strata-it filler", "--wrap", "sleep 300"});
    QVERIFY2(filler.exitCode == 0, filler.err.constData());
    const QString array = QString::fromUtf8(filler.out).trimmed();
    m_lab.rememberJob(array);
    const QString evil = QStringLiteral("newline\nin a running GPU job");
    Run run;
    const QString gpuJob = m_lab.submit({"--name", evil, "--nodes", "2", "--nodelist", "gpu-node[01-02]", "--gpus-per-node", "2",
                                         "--output", "/dev/null", "--wrap", "sleep 300"}, &run);
    QVERIFY2(!gpuJob.isEmpty(), run.err.constData());
    QVERIFY(CliLab::waitUntil(30000, [&] {
        return m_lab.jobState(gpuJob) == QLatin1String("RUNNING")
            && m_lab.slurmOut("squeue", {"-h", "-r", "-t", "RUNNING", "-j", array, "-o", "%i"}).count('\n') == 40;
    }));
    QString error;
    const QJsonObject snapshot = m_lab.snapshot(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    compareJobWithSlurm(snapshot, gpuJob);
    QCOMPARE(findById(snapshot.value("jobs").toArray(), "id", gpuJob).value("name").toString(), evil);
    int fillersRunning = 0;
    for (const QJsonValue &v : snapshot.value("jobs").toArray()) {
        const QJsonObject j = v.toObject();
        if (j.value("arrayJobId").toString() == array && j.value("state").toString() == QLatin1String("RUNNING")) {
            ++fillersRunning;
            QCOMPARE(j.value("gpus").toObject(), QJsonObject());
        }
    }
    QCOMPARE(fillersRunning, 40);
}

void TestCliSlurm::timesDoNotDependOnTheConsolesZone()
{
    // squeue prints times in its own zone without naming it; Strata runs it with TZ=UTC0. A
    // console at UTC+14 and one at UTC-10 (POSIX zones: no tzdata needed) read the same
    // instants, and they are now, whatever zone the login node is in.
    const QDateTime before = QDateTime::currentDateTimeUtc().addSecs(-2);
    Run run;
    const QString job = m_lab.submit({"--name", "strata-it zone probe", "--output", "/dev/null", "--wrap", "sleep 300"}, &run);
    QVERIFY2(!job.isEmpty(), run.err.constData());
    QVERIFY(CliLab::waitUntil(30000, [&] { return m_lab.jobState(job) == QLatin1String("RUNNING"); }));
    const QDateTime after = QDateTime::currentDateTimeUtc().addSecs(2);
    QStringList seen;
    for (const QString &zone : {QStringLiteral("LINT-14"), QStringLiteral("HST10")}) {
        const Run r = m_lab.strataWith({{QStringLiteral("TZ"), zone}}, QStringLiteral("snapshot"),
                                       {QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject j = findById(QJsonDocument::fromJson(r.out).object().value("jobs").toArray(), "id", job);
        const QDateTime submit = QDateTime::fromString(j.value("submitTime").toString(), Qt::ISODate);
        const QDateTime start = QDateTime::fromString(j.value("startTime").toString(), Qt::ISODate);
        QVERIFY2(submit.isValid() && submit >= before && submit <= after,
                 qPrintable(QStringLiteral("TZ=%1: submitTime %2, not between %3 and %4")
                                .arg(zone, j.value("submitTime").toString(), before.toString(Qt::ISODate), after.toString(Qt::ISODate))));
        QVERIFY2(start.isValid() && start >= submit && start <= after,
                 qPrintable(QStringLiteral("TZ=%1: startTime %2").arg(zone, j.value("startTime").toString())));
        seen << j.value("submitTime").toString() + QLatin1Char(' ') + j.value("startTime").toString();
    }
    QCOMPARE(seen.at(0), seen.at(1));
}

void TestCliSlurm::badPartitionShowsSlurmsError()
{
    Run run;
    const QString id = m_lab.submit({"--partition", "nosuch", "--wrap", "true"}, &run);
    QVERIFY(id.isEmpty());
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("invalid partition specified: nosuch"), run.err.constData());
    QVERIFY(run.out.isEmpty());
}

void TestCliSlurm::invalidJobIdIsRefusedLocally()
{
    // Never reaches scancel: "-u root" would cancel every job of root.
    const QString victim = m_lab.submit({"--name", "strata-it must survive", "--output", "/dev/null", "--wrap", "sleep 300"});
    QVERIFY(!victim.isEmpty());
    for (const char *bad : {"-u root", "1;scancel -u root", "--user=root"}) {
        const Run r = m_lab.strata(QStringLiteral("cancel"), {QStringLiteral("--"), QString::fromLatin1(bad)});
        QVERIFY2(r.exitCode != 0, bad);
        QVERIFY2(r.err.contains("is not a Slurm job id"), r.err.constData());
    }
    QTest::qWait(500);
    const QString state = m_lab.jobState(victim);
    QVERIFY2(state == QLatin1String("RUNNING") || state == QLatin1String("PENDING"), qPrintable(state));
}

// `strata profile add` connects first (SSH, one Slurm refresh, one Prometheus query) and saves
// only a profile that answered; an unknown host key is refused with its fingerprint.
void TestCliSlurm::profileAddChecksBeforeSaving()
{
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("clusters.json"));
    const QString emptyKnownHosts = dir.filePath(QStringLiteral("known_hosts"));
    QFile empty(emptyKnownHosts);
    QVERIFY(empty.open(QIODevice::WriteOnly));
    empty.close();
    Run r = m_lab.strata(QStringLiteral("profile"), {QStringLiteral("add"), QStringLiteral("unknown"), QStringLiteral("--config"), config,
                                                     QStringLiteral("--known-hosts"), emptyKnownHosts});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("hint: the host offers SHA256:"), r.err.constData());
    QVERIFY(!QFile::exists(config));

    r = m_lab.strata(QStringLiteral("profile"), {QStringLiteral("add"), QStringLiteral("labcheck"), QStringLiteral("--config"), config});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    // Prometheus answers; right after the lab starts it may not have scraped the GPUs yet.
    QVERIFY2(r.out.startsWith("connected: slurm: 4 nodes, 32 GPUs; Prometheus"), r.out.constData());
    QVERIFY2(r.out.contains("added profile \"labcheck\""), r.out.constData());
    r = runProcess(strataBinary(), {QStringLiteral("profile"), QStringLiteral("list"), QStringLiteral("--config"), config},
                   QProcessEnvironment::systemEnvironment(), 20000);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.startsWith("labcheck\tslurm\t"), r.out.constData());
}

QTEST_GUILESS_MAIN(TestCliSlurm)
#include "tst_cli_slurm.moc"
