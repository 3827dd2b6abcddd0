// SlurmCommands: the argv Strata sends for each action (validated, one argv element per value,
// so quoting is the shell layer's job) and how it reads Slurm's answers.
#include "slurm/slurm_commands.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

QByteArray captured(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

JobSubmission basicSubmission()
{
    JobSubmission s;
    s.script = QStringLiteral("#!/bin/sh\nsleep 300\n");
    return s;
}

} // namespace

class TestSlurmCommands : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sbatchArguments_data();
    void sbatchArguments();
    void sbatchRejects_data();
    void sbatchRejects();
    void scancel_data();
    void scancel();
    void drain_data();
    void drain();
    void resume();
    void nodeNames_data();
    void nodeNames();
    void jobIdFromSbatchOutput_data();
    void jobIdFromSbatchOutput();
};

void TestSlurmCommands::sbatchArguments_data()
{
    QTest::addColumn<JobSubmission>("submission");
    QTest::addColumn<QStringList>("argv");
    const QStringList head{"sbatch", "--parsable"};

    JobSubmission s = basicSubmission();
    QTest::newRow("minimal") << s << head + QStringList{"--nodes=1"};

    s = basicSubmission();
    s.name = QStringLiteral("llama-70b pretrain");
    s.partition = QStringLiteral("train");
    s.nodeList = {QStringLiteral("gpu-node02")};
    s.gpusPerNode = 4;
    s.timeLimitMinutes = 90;
    QTest::newRow("pinned multi-GPU") << s
        << head + QStringList{"--job-name=llama-70b pretrain", "--partition=train", "--nodes=1", "--nodelist=gpu-node02", "--gres=gpu:4", "--time=01:30:00"};

    s = basicSubmission();
    s.nodes = 2;
    s.nodeList = {QStringLiteral("gpu-node03"), QStringLiteral("gpu-node04")};
    s.gpusPerNode = 2;
    s.exclusive = true;
    s.outputPath = QStringLiteral("/scratch/%j.out");
    s.timeLimitMinutes = 3 * 24 * 60;
    QTest::newRow("two nodes, compressed node list") << s
        << head + QStringList{"--nodes=2", "--nodelist=gpu-node[03-04]", "--gres=gpu:2", "--time=3-00:00:00", "--exclusive", "--output=/scratch/%j.out"};

    // The name is one argv element with every byte intact; nothing here interprets it.
    const QString evil = QStringLiteral("evil $(touch /tmp/x); `id` \"q\" 's' | \t ünï\n");
    s = basicSubmission();
    s.name = evil;
    QTest::newRow("hostile name") << s << head + QStringList{QStringLiteral("--job-name=") + evil, "--nodes=1"};

    s = basicSubmission();
    s.name = QStringLiteral("--partition=other");
    QTest::newRow("name that looks like an option") << s << head + QStringList{"--job-name=--partition=other", "--nodes=1"};

    s = basicSubmission();
    s.extraArguments = {QStringLiteral("--qos=high"), QStringLiteral("--comment=a b")};
    QTest::newRow("extra arguments last") << s << head + QStringList{"--nodes=1", "--qos=high", "--comment=a b"};
}

void TestSlurmCommands::sbatchArguments()
{
    QFETCH(JobSubmission, submission);
    QFETCH(QStringList, argv);
    QString error;
    QCOMPARE(SlurmCommands::sbatchArguments(submission, &error), argv);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestSlurmCommands::sbatchRejects_data()
{
    QTest::addColumn<JobSubmission>("submission");
    QTest::addColumn<QString>("errorContains");
    JobSubmission s = basicSubmission();
    s.script.clear();
    QTest::newRow("empty script") << s << "empty";
    s.script = QStringLiteral("   \n");
    QTest::newRow("blank script") << s << "empty";
    s.script = QStringLiteral("sleep 1\n");
    QTest::newRow("no #! line") << s << "#!";
    for (const char *partition : {"-u root", "a;b", "train --wrap=id", "$(id)", "--partition=x"}) {
        s = basicSubmission();
        s.partition = QString::fromLatin1(partition);
        QTest::newRow(qPrintable(QStringLiteral("partition %1").arg(partition))) << s << "not a valid partition";
    }
    for (const char *node : {"-w", "gpu-node01 --uid=0", "a;b", "$(id)", "n=1", ""}) {
        s = basicSubmission();
        s.nodeList = {QString::fromLatin1(node)};
        QTest::newRow(qPrintable(QStringLiteral("node list %1").arg(node))) << s << "not a valid node name";
    }
    s = basicSubmission();
    s.nodes = 0;
    QTest::newRow("zero nodes") << s << "at least 1";
    s = basicSubmission();
    s.gpusPerNode = -1;
    QTest::newRow("negative GPUs") << s << "not negative";
    s = basicSubmission();
    s.timeLimitMinutes = -5;
    QTest::newRow("negative time") << s << "not negative";
}

void TestSlurmCommands::sbatchRejects()
{
    QFETCH(JobSubmission, submission);
    QFETCH(QString, errorContains);
    QString error;
    QVERIFY(SlurmCommands::sbatchArguments(submission, &error).isEmpty());
    QVERIFY2(error.contains(errorContains), qPrintable(error));
}

void TestSlurmCommands::scancel_data()
{
    QTest::addColumn<QString>("jobId");
    QTest::addColumn<bool>("valid");
    QTest::newRow("job") << "42" << true;
    QTest::newRow("array task") << "7_3" << true;
    QTest::newRow("big id") << "4294967294" << true;
    QTest::newRow("option") << "-u root" << false;
    QTest::newRow("option glued") << "--user=root" << false;
    QTest::newRow("signal option") << "--signal=KILL" << false;
    QTest::newRow("command after semicolon") << "1;rm -rf /" << false;
    QTest::newRow("two ids") << "1 2" << false;
    QTest::newRow("newline") << "1\n2" << false;
    QTest::newRow("substitution") << "$(id)" << false;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("letters") << "abc" << false;
    QTest::newRow("negative") << "-1" << false;
    QTest::newRow("array range") << "7_[1-3]" << false;
    QTest::newRow("open array") << "7_" << false;
    QTest::newRow("task only") << "_3" << false;
    QTest::newRow("step") << "42.0" << false;
    QTest::newRow("non-ascii digit") << QStringLiteral("\u0663") << false;
    QTest::newRow("trailing space") << "42 " << false;
}

void TestSlurmCommands::scancel()
{
    QFETCH(QString, jobId);
    QFETCH(bool, valid);
    QString error;
    const QStringList argv = SlurmCommands::scancelArguments(jobId, &error);
    QCOMPARE(SlurmCommands::isValidJobId(jobId), valid);
    if (valid) {
        // -v: without it scancel exits 0 silently for a job that does not exist.
        QCOMPARE(argv, (QStringList{"scancel", "-v", jobId}));
        QVERIFY(error.isEmpty());
    } else {
        QVERIFY(argv.isEmpty());
        QVERIFY2(error.contains(QLatin1String("not a Slurm job id")), qPrintable(error));
    }
}

void TestSlurmCommands::drain_data()
{
    QTest::addColumn<QStringList>("nodes");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QStringList>("argv"); // empty: rejected
    QTest::addColumn<QString>("errorContains");
    const QStringList head{"scontrol", "update"};
    QTest::newRow("one node") << QStringList{"gpu-node03"} << "Action:Reboot xid=79"
        << head + QStringList{"NodeName=gpu-node03", "State=DRAIN", "Reason=Action:Reboot xid=79"} << "";
    QTest::newRow("node list compressed") << QStringList{"gpu-node01", "gpu-node02", "gpu-node04"} << "maintenance"
        << head + QStringList{"NodeName=gpu-node[01-02,04]", "State=DRAIN", "Reason=maintenance"} << "";
    // Stays one argv element: scontrol never sees a second key.
    QTest::newRow("reason with a key") << QStringList{"gpu-node01"} << "x State=RESUME"
        << head + QStringList{"NodeName=gpu-node01", "State=DRAIN", "Reason=x State=RESUME"} << "";
    QTest::newRow("reason with shell text") << QStringList{"gpu-node01"} << "it's $(id) `id` ünï"
        << head + QStringList{"NodeName=gpu-node01", "State=DRAIN", "Reason=it's $(id) `id` ünï"} << "";
    QTest::newRow("newline in reason") << QStringList{"gpu-node01"} << "first\nsecond" << QStringList{} << "one line";
    QTest::newRow("carriage return in reason") << QStringList{"gpu-node01"} << "ok\r" << QStringList{} << "one line";
    QTest::newRow("escape sequence in reason") << QStringList{"gpu-node01"} << "\x1b[2Jcleared" << QStringList{} << "one line";
    QTest::newRow("empty reason") << QStringList{"gpu-node01"} << "" << QStringList{} << "needs a reason";
    QTest::newRow("blank reason") << QStringList{"gpu-node01"} << "  \t " << QStringList{} << "needs a reason";
    QTest::newRow("no node") << QStringList{} << "x" << QStringList{} << "no node";
    QTest::newRow("node is an option") << QStringList{"-h"} << "x" << QStringList{} << "not a valid node name";
    QTest::newRow("node with a key") << QStringList{"gpu-node01 State=RESUME"} << "x" << QStringList{} << "not a valid node name";
    QTest::newRow("node with equals") << QStringList{"NodeName=ALL"} << "x" << QStringList{} << "not a valid node name";
}

void TestSlurmCommands::drain()
{
    QFETCH(QStringList, nodes);
    QFETCH(QString, reason);
    QFETCH(QStringList, argv);
    QFETCH(QString, errorContains);
    QString error;
    QCOMPARE(SlurmCommands::drainArguments(nodes, reason, &error), argv);
    QVERIFY2(error.contains(errorContains), qPrintable(error));
    QCOMPARE(error.isEmpty(), !argv.isEmpty());
}

void TestSlurmCommands::resume()
{
    QString error;
    QCOMPARE(SlurmCommands::resumeArguments({QStringLiteral("gpu-node03"), QStringLiteral("gpu-node04")}, &error),
             (QStringList{"scontrol", "update", "NodeName=gpu-node[03-04]", "State=RESUME"}));
    QVERIFY(SlurmCommands::resumeArguments({QStringLiteral("-x")}, &error).isEmpty());
    QVERIFY(error.contains(QLatin1String("not a valid node name")));
    QVERIFY(SlurmCommands::resumeArguments({}, &error).isEmpty());
}

void TestSlurmCommands::nodeNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("valid");
    QTest::newRow("lab node") << "gpu-node01" << true;
    QTest::newRow("host list") << "gpu-node[01-02,04]" << true;
    QTest::newRow("dotted") << "node1.cluster" << true;
    QTest::newRow("underscore") << "_n" << true;
    QTest::newRow("leading dash") << "-n" << false;
    QTest::newRow("space") << "a b" << false;
    QTest::newRow("equals") << "a=b" << false;
    QTest::newRow("semicolon") << "a;b" << false;
    QTest::newRow("dollar") << "$n" << false;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("non-ascii") << QStringLiteral("nöde") << false;
}

void TestSlurmCommands::nodeNames()
{
    QFETCH(QString, name);
    QFETCH(bool, valid);
    QCOMPARE(SlurmCommands::isValidNodeName(name), valid);
}

void TestSlurmCommands::jobIdFromSbatchOutput_data()
{
    QTest::addColumn<QByteArray>("output");
    QTest::addColumn<QString>("jobId");
    QTest::newRow("captured sbatch") << captured(QStringLiteral("sbatch_success.stdout")) << "2";
    QTest::newRow("captured --parsable array") << captured(QStringLiteral("sbatch_parsable_array.stdout")) << "7";
    QTest::newRow("--parsable with cluster") << QByteArray("42;strata-lab\n") << "42";
    QTest::newRow("no trailing newline") << QByteArray("42") << "42";
    QTest::newRow("empty") << QByteArray() << "";
    QTest::newRow("error text") << QByteArray("sbatch: error: Batch job submission failed\n") << "";
    QTest::newRow("number inside words") << QByteArray("job 42 maybe") << "";
}

void TestSlurmCommands::jobIdFromSbatchOutput()
{
    QFETCH(QByteArray, output);
    QFETCH(QString, jobId);
    QCOMPARE(SlurmCommands::jobIdFromSbatchOutput(output), jobId);
}

QTEST_GUILESS_MAIN(TestSlurmCommands)
#include "tst_slurm_commands.moc"
