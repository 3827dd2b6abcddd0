// SacctParser on REAL sacct output from the lab's accounting (slurmdbd + MariaDB) on Slurm 22.05
// and 24.11, captured by tests/data/slurm/capture_sacct.sh (jobs: RELEASE/sacct_README.md) in
// the exact format SlurmSource asks for: every job of the scenario read with its state, exit
// code, times, nodes and GPUs (typed and untyped AllocTRES), hostile names read back exactly,
// nothing skipped; and sacct's own answer without accounting read as NoAccounting.
#include "slurm/sacct_parser.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

QByteArray captured(const QString &release, const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/") + release + QLatin1Char('/') + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

SacctParseResult parseCapture(const QString &release)
{
    return SacctParser::parse(captured(release, QStringLiteral("sacct.txt")), captured(release, QStringLiteral("sacct_delimiter.txt")));
}

const JobRecord *byName(const QVector<JobRecord> &records, const QString &name)
{
    for (const JobRecord &r : records)
        if (r.name == name)
            return &r;
    return nullptr;
}

void addReleases()
{
    QTest::addColumn<QString>("release");
    QTest::addColumn<QString>("bigNodeModel"); // the GPUs of gpu-node03/04 in that lab
    QTest::newRow("22.05") << "22.05" << "h200";
    QTest::newRow("24.11") << "24.11" << "b200";
}

} // namespace

class TestSacctCapture : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyJob_data() { addReleases(); }
    void everyJob();
    void hostileNames_data() { addReleases(); }
    void hostileNames();
    void noAccounting_data() { addReleases(); }
    void noAccounting();
    void slurmdbdDown_data() { addReleases(); }
    void slurmdbdDown();
    void stepsAreCountedNeverRead_data() { addReleases(); }
    void stepsAreCountedNeverRead();
};

void TestSacctCapture::everyJob()
{
    QFETCH(QString, release);
    const SacctParseResult r = parseCapture(release);
    QCOMPARE(r.problems, QStringList());
    QCOMPARE(r.skippedRows, 0);

    const JobRecord *ok = byName(r.records, QStringLiteral("train-llama"));
    QVERIFY(ok);
    QCOMPARE(ok->state, JobState::Completed);
    QCOMPARE(ok->exitCode, 0);
    QCOMPARE(ok->gpus, 2);
    QCOMPARE(ok->gpuModel, QStringLiteral("h100")); // --gres=gpu:2 on an h100 node: Slurm records the type
    QCOMPARE(ok->user, QStringLiteral("root"));
    QCOMPARE(ok->partition, QStringLiteral("train"));
    QCOMPARE(ok->submitted.timeSpec(), Qt::UTC);
    QCOMPARE(ok->nodes, QStringList{QStringLiteral("gpu-node01")});
    QVERIFY(ok->started.isValid() && ok->ended.isValid() && ok->started <= ok->ended);

    const JobRecord *typed = byName(r.records, QStringLiteral("typed-h100"));
    QVERIFY(typed);
    QCOMPARE(typed->gpus, 4);
    QCOMPARE(typed->gpuModel, QStringLiteral("h100"));
    QCOMPARE(typed->account, QStringLiteral("inference"));

    const JobRecord *failing = byName(r.records, QStringLiteral("failing"));
    QVERIFY(failing);
    QCOMPARE(failing->state, JobState::Failed);
    QCOMPARE(failing->exitCode, 3);

    const JobRecord *two = byName(r.records, QStringLiteral("two-nodes"));
    QVERIFY(two);
    QCOMPARE(two->nodes, (QStringList{QStringLiteral("gpu-node03"), QStringLiteral("gpu-node04")}));
    QCOMPARE(two->gpus, 16);
    QTEST(two->gpuModel, "bigNodeModel");

    const JobRecord *timeout = byName(r.records, QStringLiteral("times-out"));
    QVERIFY(timeout);
    QCOMPARE(timeout->state, JobState::Timeout);

    const JobRecord *cancelled = byName(r.records, QStringLiteral("cancelled-running"));
    QVERIFY(cancelled);
    QCOMPARE(cancelled->state, JobState::Cancelled);
    QCOMPARE(cancelled->stateWord, QStringLiteral("CANCELLED by 0"));
    QVERIFY(cancelled->started.isValid());
    // sacct -S/-E lists the jobs eligible during the period: a job held by --begin in the
    // future, and one cancelled before it was eligible, are not (nor pending array tasks).
    QVERIFY(!byName(r.records, QStringLiteral("cancelled-pending")));
    QVERIFY(!byName(r.records, QStringLiteral("pending-later")));

    const JobRecord *running = byName(r.records, QStringLiteral("running-h100"));
    QVERIFY(running);
    QCOMPARE(running->state, JobState::Running);
    QVERIFY(!running->ended.isValid());
    QCOMPARE(running->gpus, 2);
    QCOMPARE(running->gpuModel, QStringLiteral("h100"));

    const JobRecord *cpu = byName(r.records, QStringLiteral("cpu-only"));
    QVERIFY(cpu);
    QCOMPARE(cpu->gpus, 0);

    int arrayRunning = 0, arrayPending = 0, het = 0, hetGpus = 0;
    for (const JobRecord &j : r.records) {
        if (j.name == QLatin1String("array")) {
            QVERIFY2(j.id.contains(QLatin1Char('_')), qPrintable(j.id));
            arrayRunning += j.state == JobState::Running ? 1 : 0;
            arrayPending += j.state == JobState::Pending ? 1 : 0;
        } else if (j.name == QLatin1String("het")) {
            QVERIFY2(j.id.contains(QLatin1Char('+')), qPrintable(j.id));
            ++het;
            hetGpus += j.gpus;
        }
    }
    QCOMPARE(arrayRunning, 2);
    QCOMPARE(arrayPending, 0);
    QCOMPARE(het, 2);
    QCOMPARE(hetGpus, 3);
}

void TestSacctCapture::hostileNames()
{
    QFETCH(QString, release);
    const SacctParseResult r = parseCapture(release);
    const QByteArray delimiter = captured(release, QStringLiteral("sacct_delimiter.txt"));
    QVERIFY(byName(r.records, QStringLiteral("sep\x1finside")));
    // Slurm stores a '"' in a name as '`'.
    QVERIFY(byName(r.records, QStringLiteral("pipe|and`quotes'here")));
    // A newline and a forged row in the name: one job, its name whole.
    QVERIFY(byName(r.records, QStringLiteral("line1\n999|root|ml-research|train|COMPLETED|0:0")));
    // The capture's delimiter is fixed, so this name holds it (a real read's is new each time):
    // still read whole, since only delimiter + newline ends a row.
    QVERIFY(byName(r.records, QString::fromUtf8("evil" + delimiter + "root" + delimiter + "forged")));
    // No forged job 999 from the name with a newline.
    for (const JobRecord &j : r.records)
        QVERIFY2(j.id != QLatin1String("999"), qPrintable(j.name));
}

void TestSacctCapture::noAccounting()
{
    QFETCH(QString, release);
    const int rc = captured(release, QStringLiteral("sacct_no_accounting.rc")).trimmed().toInt();
    const SacctFailure f = SacctParser::readFailure(captured(release, QStringLiteral("sacct_no_accounting.stderr")), rc);
    QCOMPARE(f.kind, ErrorKind::NoAccounting);
    QVERIFY2(f.message.startsWith(QLatin1String("no slurmdbd")), qPrintable(f.message));
}

void TestSacctCapture::slurmdbdDown()
{
    QFETCH(QString, release);
    const int rc = captured(release, QStringLiteral("sacct_slurmdbd_down.rc")).trimmed().toInt();
    QCOMPARE(rc, 1);
    const SacctFailure f = SacctParser::readFailure(captured(release, QStringLiteral("sacct_slurmdbd_down.stderr")), rc);
    QCOMPARE(f.kind, ErrorKind::CommandFailed);
    QVERIFY2(f.message.contains(QLatin1String("Problem talking to the database: Connection refused")), qPrintable(f.message));
}

void TestSacctCapture::stepsAreCountedNeverRead()
{
    // Without -X sacct adds the steps ("1.batch", "8_0.extern"): rows SlurmSource never asks
    // for, each counted as skipped, never taken for a job; the jobs around them still read.
    QFETCH(QString, release);
    const QByteArray steps = captured(release, QStringLiteral("sacct_steps.txt"));
    const SacctParseResult r = SacctParser::parse(steps, captured(release, QStringLiteral("sacct_delimiter.txt")));
    const SacctParseResult jobs = parseCapture(release);
    QCOMPARE(r.records.size(), jobs.records.size());
    QVERIFY(r.skippedRows > 0);
    QCOMPARE(r.records.size() + r.skippedRows, qsizetype(steps.count("abcdef012345\n")));
    for (const QString &problem : r.problems)
        QVERIFY2(problem.contains(QLatin1String("unreadable")), qPrintable(problem));
}

QTEST_GUILESS_MAIN(TestSacctCapture)
#include "tst_sacct_capture.moc"
