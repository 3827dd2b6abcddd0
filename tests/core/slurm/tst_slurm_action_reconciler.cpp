// SlurmActionReconciler's commands and readers on real captured read-backs
// (tests/data/slurm/22.05/reconcile): the submission found by its exact comment, once per
// array, never by a comment that only starts with it; node states; argv that refuses bad ids.
#include "slurm/slurm_action_reconciler.h"
#include "slurm/slurm_commands.h"
#include "burnin/burnin_job_script.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

QByteArray capture(const QString &name)
{
    QFile f(QStringLiteral(STRATA_TEST_DATA "/slurm/22.05/reconcile/") + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestSlurmActionReconciler : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jobsWithComment_data();
    void jobsWithComment();
    void nodeStates();
    void isDrainState_data();
    void isDrainState();
    void queries();
    void taggedSubmission();
    void taggedBurninLaunch();
};

void TestSlurmActionReconciler::jobsWithComment_data()
{
    QTest::addColumn<QString>("tag");
    QTest::addColumn<QStringList>("jobs");
    QTest::newRow("one job; not the one whose comment only starts with the tag")
        << "0d3c1f52-7a0e-4c55-9a51-2f1e3b7c9d10" << QStringList{"9"};
    QTest::newRow("an array: its base id once") << "5b8e2a61-93c4-4f0d-8e17-6a2c4d9b0f33" << QStringList{"10"};
    QTest::newRow("no job carries it") << "00000000-0000-4000-8000-000000000000" << QStringList{};
}

void TestSlurmActionReconciler::jobsWithComment()
{
    QFETCH(QString, tag);
    QFETCH(QStringList, jobs);
    const QByteArray out = capture(QStringLiteral("squeue_comments.txt"));
    QVERIFY(!out.isEmpty());
    QCOMPARE(SlurmActionReconciler::jobsWithComment(out, SlurmCommands::submissionComment(tag)), jobs);
}

void TestSlurmActionReconciler::nodeStates()
{
    const QHash<QString, QString> states = SlurmActionReconciler::nodeStates(capture(QStringLiteral("sinfo_node_states.txt")));
    QCOMPARE(states.size(), 4);
    QCOMPARE(states.value("gpu-node01"), QStringLiteral("mixed"));
    QCOMPARE(states.value("gpu-node02"), QStringLiteral("idle"));
    QCOMPARE(states.value("gpu-node03"), QStringLiteral("drained"));
    QCOMPARE(states.value("gpu-node04"), QStringLiteral("idle"));
    QCOMPARE(capture(QStringLiteral("squeue_state_cancelled.txt")).trimmed(), QByteArray("CANCELLED"));
    QVERIFY(capture(QStringLiteral("squeue_state_unknown_job.txt")).isEmpty());
    QVERIFY(capture(QStringLiteral("squeue_state_unknown_job.stderr")).contains("Invalid job id"));
}

void TestSlurmActionReconciler::isDrainState_data()
{
    QTest::addColumn<QString>("state");
    QTest::addColumn<bool>("drain");
    QTest::newRow("drained") << "drained" << true;
    QTest::newRow("draining") << "draining" << true;
    QTest::newRow("drained, not responding") << "drained*" << true;
    QTest::newRow("idle") << "idle" << false;
    QTest::newRow("mixed") << "mixed" << false;
    QTest::newRow("down") << "down*" << false;
}

void TestSlurmActionReconciler::isDrainState()
{
    QFETCH(QString, state);
    QFETCH(bool, drain);
    QCOMPARE(SlurmActionReconciler::isDrainState(state), drain);
}

void TestSlurmActionReconciler::queries()
{
    QCOMPARE(SlurmActionReconciler::jobStateQuery(QStringLiteral("12_3")),
             (QStringList{"squeue", "-h", "-j", "12_3", "--states=all", "-o", "%T"}));
    QVERIFY(SlurmActionReconciler::jobStateQuery(QStringLiteral("12;rm -rf /")).isEmpty());
    QVERIFY(SlurmActionReconciler::jobStateQuery(QStringLiteral("-v")).isEmpty());
    QCOMPARE(SlurmActionReconciler::nodeStateQuery({QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")}),
             (QStringList{"sinfo", "-h", "-N", "-n", "gpu-node[01-02]", "-o", "%N|%T"}));
    QVERIFY(SlurmActionReconciler::nodeStateQuery({QStringLiteral("--all")}).isEmpty());
    QVERIFY(SlurmActionReconciler::nodeStateQuery({}).isEmpty());
    QCOMPARE(SlurmActionReconciler::submissionQuery(), (QStringList{"squeue", "-h", "-a", "--states=all", "-o", "%F|%k"}));
}

void TestSlurmActionReconciler::taggedSubmission()
{
    JobSubmission s;
    s.script = QStringLiteral("#!/bin/sh\ntrue\n");
    s.tag = QStringLiteral("0d3c1f52-7a0e-4c55-9a51-2f1e3b7c9d10");
    s.extraArguments = {QStringLiteral("--qos=high")};
    QString error;
    QCOMPARE(SlurmCommands::sbatchArguments(s, &error),
             (QStringList{"sbatch", "--parsable", "--nodes=1", "--comment=strata:0d3c1f52-7a0e-4c55-9a51-2f1e3b7c9d10", "--qos=high"}));
    // The comment is how a lost submit is found again: another one would hide it.
    s.extraArguments = {QStringLiteral("--comment=mine")};
    QVERIFY(SlurmCommands::sbatchArguments(s, &error).isEmpty());
    QVERIFY2(error.contains(QLatin1String("--comment is Strata's")), qPrintable(error));
    s.extraArguments.clear();
    s.tag = QStringLiteral("x; rm -rf /");
    error.clear();
    QVERIFY(SlurmCommands::sbatchArguments(s, &error).isEmpty());
    QVERIFY2(error.contains(QLatin1String("not a submission tag")), qPrintable(error));
}

void TestSlurmActionReconciler::taggedBurninLaunch()
{
    BurninRequest request;
    request.nodes = {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")};
    request.outputDirectory = QStringLiteral("/shared/burnin");
    request.tag = QStringLiteral("5b8e2a61-93c4-4f0d-8e17-6a2c4d9b0f33");
    QString error;
    const QStringList argv = BurninJobScript::sbatchArguments(request, 8, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(argv.last(), QStringLiteral("--comment=strata:5b8e2a61-93c4-4f0d-8e17-6a2c4d9b0f33"));
    QCOMPARE(argv.filter(QStringLiteral("--comment")).size(), 1);
    request.tag = QStringLiteral("$(reboot)");
    QVERIFY(BurninJobScript::sbatchArguments(request, 8, &error).isEmpty());
    QVERIFY2(error.contains(QLatin1String("not a submission tag")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestSlurmActionReconciler)
#include "tst_slurm_action_reconciler.moc"
