// SacctParser: sacct's rows in the format SlurmSource asks for (-X -p, a random delimiter, the
// job name last; see sacct_parser.h), read field by field; hostile names read back byte for
// byte; hostile and broken rows (a 2^31 GPU count, a cut answer, a foreign line) skipped and
// counted, never misread; sacct's "accounting storage is disabled" read as NoAccounting.
#include "slurm/sacct_parser.h"

#include <QElapsedTimer>
#include <QTest>
#include <QTimeZone>

using namespace strata;

namespace {

const QByteArray kDelimiter("\x1f" "0123456789ab");

// One row as sacct -p prints it: each field followed by the delimiter, then a newline.
QByteArray row(const QList<QByteArray> &fields, const QByteArray &delimiter = kDelimiter)
{
    QByteArray out;
    for (const QByteArray &f : fields)
        out += f + delimiter;
    return out + '\n';
}

QByteArray gpuRow(const QByteArray &id, const QByteArray &name, const QByteArray &tres = "billing=2,cpu=2,gres/gpu=2,mem=4G,node=1",
                  const QByteArray &nodes = "gpu-node01")
{
    return row({id, "alice", "research", "gpu", "COMPLETED", "0:0", "2026-12-01T10:00:00", "2026-12-01T10:00:05",
                "2026-12-01T12:00:05", nodes, tres, name});
}

QDateTime utc(const char *text)
{
    QDateTime t = QDateTime::fromString(QString::fromLatin1(text), Qt::ISODate);
    t.setTimeSpec(Qt::UTC);
    return t;
}

} // namespace

class TestSacctParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fields_data();
    void fields();
    void hostileNames_data();
    void hostileNames();
    void brokenRowsAreSkippedAndCounted_data();
    void brokenRowsAreSkippedAndCounted();
    void cutAnswer();
    void emptyAnswer();
    void arguments();
    void delimiterIsNewEachRead();
    void failure_data();
    void failure();
    void fiftyThousandJobs();
};

void TestSacctParser::fields_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("id");
    QTest::addColumn<JobState>("state");
    QTest::addColumn<QString>("stateWord");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<int>("exitSignal");
    QTest::addColumn<QDateTime>("started");
    QTest::addColumn<QDateTime>("ended");
    QTest::addColumn<QStringList>("nodes");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<QString>("gpuModel");

    const QStringList one{"gpu-node01"};
    QTest::newRow("completed, untyped") << gpuRow("41", "train") << "41" << JobState::Completed << "COMPLETED" << 0 << 0
                                        << utc("2026-12-01T10:00:05") << utc("2026-12-01T12:00:05") << one << 2 << "";
    QTest::newRow("typed and total") << gpuRow("42", "t", "billing=8,cpu=8,gres/gpu:h100=8,gres/gpu=8,mem=64G,node=1")
                                     << "42" << JobState::Completed << "COMPLETED" << 0 << 0
                                     << utc("2026-12-01T10:00:05") << utc("2026-12-01T12:00:05") << one << 8 << "h100";
    QTest::newRow("typed only, summed") << gpuRow("43", "t", "cpu=4,gres/gpu:a100=1,gres/gpu:h100=2", "gpu-node[01-02]")
                                        << "43" << JobState::Completed << "COMPLETED" << 0 << 0
                                        << utc("2026-12-01T10:00:05") << utc("2026-12-01T12:00:05")
                                        << QStringList{"gpu-node01", "gpu-node02"} << 3 << "a100,h100";
    QTest::newRow("gres/gpumem is not a GPU count") << gpuRow("44", "t", "cpu=1,gres/gpumem=40G,node=1")
                                                    << "44" << JobState::Completed << "COMPLETED" << 0 << 0
                                                    << utc("2026-12-01T10:00:05") << utc("2026-12-01T12:00:05") << one << 0 << "";
    QTest::newRow("running") << row({"50_3", "bob", "ml", "gpu", "RUNNING", "0:0", "2026-12-07T01:00:00", "2026-12-07T01:00:01",
                                     "Unknown", "gpu-node[03-04]", "cpu=2,gres/gpu=4,node=2", "sweep"})
                             << "50_3" << JobState::Running << "RUNNING" << 0 << 0 << utc("2026-12-07T01:00:01") << QDateTime()
                             << QStringList{"gpu-node03", "gpu-node04"} << 4 << "";
    QTest::newRow("pending array") << row({"51_[4-9%2]", "bob", "ml", "gpu", "PENDING", "0:0", "2026-12-07T01:00:00", "Unknown",
                                           "Unknown", "None assigned", "", "sweep"})
                                   << "51_[4-9%2]" << JobState::Pending << "PENDING" << 0 << 0 << QDateTime() << QDateTime()
                                   << QStringList{} << 0 << "";
    QTest::newRow("cancelled by uid") << row({"52+1", "carol", "ml", "gpu", "CANCELLED by 1000", "0:15", "2026-12-06T01:00:00",
                                              "2026-12-06T01:00:00", "2026-12-06T02:00:00", "gpu-node01", "gres/gpu=1", "het"})
                                      << "52+1" << JobState::Cancelled << "CANCELLED by 1000" << 0 << 15
                                      << utc("2026-12-06T01:00:00") << utc("2026-12-06T02:00:00") << one << 1 << "";
    QTest::newRow("failed, exit 3") << row({"53", "carol", "ml", "gpu", "FAILED", "3:0", "2026-12-06T01:00:00",
                                            "2026-12-06T01:00:00", "2026-12-06T01:00:09", "gpu-node01", "gres/gpu=1", "x"})
                                    << "53" << JobState::Failed << "FAILED" << 3 << 0
                                    << utc("2026-12-06T01:00:00") << utc("2026-12-06T01:00:09") << one << 1 << "";
    QTest::newRow("cancelled before start") << row({"54", "carol", "ml", "gpu", "CANCELLED by 0", "0:0", "2026-12-06T01:00:00",
                                                    "None", "2026-12-06T01:00:09", "None assigned", "", "x"})
                                            << "54" << JobState::Cancelled << "CANCELLED by 0" << 0 << 0
                                            << QDateTime() << utc("2026-12-06T01:00:09") << QStringList{} << 0 << "";
    QTest::newRow("unknown state word kept") << row({"55", "d", "a", "p", "FUTURE_STATE", "0:0", "2026-12-06T01:00:00",
                                                     "2026-12-06T01:00:00", "2026-12-06T01:00:09", "n1", "", "x"})
                                             << "55" << JobState::Other << "FUTURE_STATE" << 0 << 0
                                             << utc("2026-12-06T01:00:00") << utc("2026-12-06T01:00:09") << QStringList{"n1"} << 0 << "";
}

void TestSacctParser::fields()
{
    QFETCH(QByteArray, line);
    const SacctParseResult r = SacctParser::parse(line, kDelimiter);
    QCOMPARE(r.skippedRows, 0);
    QCOMPARE(r.problems, QStringList());
    QCOMPARE(r.records.size(), 1);
    const JobRecord &j = r.records.first();
    QTEST(j.id, "id");
    QTEST(j.state, "state");
    QTEST(j.stateWord, "stateWord");
    QTEST(j.exitCode, "exitCode");
    QTEST(j.exitSignal, "exitSignal");
    QTEST(j.started, "started");
    QTEST(j.ended, "ended");
    QTEST(j.nodes, "nodes");
    QTEST(j.gpus, "gpus");
    QTEST(j.gpuModel, "gpuModel");
    QVERIFY(j.submitted.isValid());
    QCOMPARE(j.submitted.timeSpec(), Qt::UTC);
    QVERIFY(!j.user.isEmpty());
    QCOMPARE(j.efficiency.basis, JobEfficiency::Basis::None);
}

void TestSacctParser::hostileNames_data()
{
    QTest::addColumn<QByteArray>("name");
    const QByteArray other("\x1f" "ffffffffffff");
    QTest::newRow("pipe and quotes") << QByteArray("eval|pipe \"q\" 's' `id` $(touch /tmp/x);");
    QTest::newRow("unit separator") << QByteArray("a\x1f" "b\x1e" "c");
    QTest::newRow("another read's delimiter") << QByteArray("x") + other + "y" + other;
    QTest::newRow("newline") << QByteArray("first\nsecond\n");
    QTest::newRow("newline and forged row") << QByteArray("x\n") + gpuRow("999", "forged", "gres/gpu=64", "gpu-node09").replace(kDelimiter, other).chopped(1);
    QTest::newRow("forged row, real shape but guessed delimiter") << QByteArray("x") + other + "\n999" + other + "root";
    QTest::newRow("control and utf-8") << QByteArray("\x01\x07\t\r ünï 训练 🚀");
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("300 characters") << QByteArray("long-") + QByteArray(300, '0');
}

void TestSacctParser::hostileNames()
{
    QFETCH(QByteArray, name);
    const QByteArray answer = gpuRow("1", "before") + gpuRow("2", name) + gpuRow("3", "after");
    const SacctParseResult r = SacctParser::parse(answer, kDelimiter);
    QCOMPARE(r.skippedRows, 0);
    QCOMPARE(r.records.size(), 3);
    QCOMPARE(r.records[0].name, QStringLiteral("before"));
    QCOMPARE(r.records[1].id, QStringLiteral("2"));
    QCOMPARE(r.records[1].name.toUtf8(), name);
    QCOMPARE(r.records[1].gpus, 2);
    QCOMPARE(r.records[2].id, QStringLiteral("3"));
    QCOMPARE(r.records[2].name, QStringLiteral("after"));
}

void TestSacctParser::brokenRowsAreSkippedAndCounted_data()
{
    QTest::addColumn<QByteArray>("bad");
    QTest::addColumn<QString>("why");
    QTest::newRow("2^31 GPUs") << gpuRow("7", "x", "cpu=1,gres/gpu=2147483648,node=1") << "job 7: claims 2147483648 GPUs on 1 node(s)";
    QTest::newRow("2^31 GPUs typed") << gpuRow("7", "x", "gres/gpu:h100=2147483648") << "job 7: claims 2147483648 GPUs";
    QTest::newRow("65 GPUs on one node") << gpuRow("7", "x", "gres/gpu=65") << "job 7: claims 65 GPUs on 1 node(s)";
    QTest::newRow("2^63 GPUs") << gpuRow("7", "x", "gres/gpu=9223372036854775808") << "job 7: GPU count unreadable";
    QTest::newRow("typed sum past int") << gpuRow("7", "x", "gres/gpu:a=1099511627775,gres/gpu:b=1099511627775")
                                        << "job 7: claims 2199023255550 GPUs";
    QTest::newRow("negative GPUs") << gpuRow("7", "x", "gres/gpu=-1") << "job 7: GPU count unreadable";
    QTest::newRow("GPUs with a unit") << gpuRow("7", "x", "gres/gpu=1e9") << "job 7: GPU count unreadable";
    QTest::newRow("bad job id") << gpuRow("7;rm", "x") << "a row: job id \"7;rm\" unreadable";
    QTest::newRow("step id") << gpuRow("7.batch", "x") << "a row: job id \"7.batch\" unreadable";
    QTest::newRow("bad time") << row({"7", "u", "a", "p", "COMPLETED", "0:0", "yesterday", "Unknown", "Unknown", "n1", "", "x"})
                              << "job 7: a time is unreadable";
    QTest::newRow("month 13") << row({"7", "u", "a", "p", "COMPLETED", "0:0", "2026-13-01T00:00:00", "Unknown", "Unknown", "n1", "", "x"})
                              << "job 7: a time is unreadable";
    QTest::newRow("ends before start") << row({"7", "u", "a", "p", "COMPLETED", "0:0", "2026-12-01T00:00:00", "2026-12-01T02:00:00",
                                               "2026-12-01T01:00:00", "n1", "", "x"}) << "job 7: ends before it starts";
    QTest::newRow("bad exit code") << row({"7", "u", "a", "p", "COMPLETED", "zero", "2026-12-01T00:00:00", "Unknown", "Unknown", "n1", "", "x"})
                                   << "job 7: exit code \"zero\" unreadable";
    QTest::newRow("bad node list") << gpuRow("7", "x", "gres/gpu=1", "gpu[03-01") << "job 7: node list unreadable";
    QTest::newRow("too few fields") << QByteArray("7") + kDelimiter + "alice" + kDelimiter + "\n" << "a row: not a whole row";
    QTest::newRow("foreign line") << QByteArray("sacct: warning: something\n") << "a row: not a whole row: \"sacct: warning: something\"";
    QTest::newRow("old delimiter row") << gpuRow("7", "x").replace(kDelimiter, "|") << "a row: not a whole row";
    QTest::newRow("control characters shown escaped") << QByteArray("\x1b[2J\x07 boom\n") << "a row: not a whole row: \"\\x1b[2J\\x07 boom\"";
}

void TestSacctParser::brokenRowsAreSkippedAndCounted()
{
    QFETCH(QByteArray, bad);
    QFETCH(QString, why);
    const QByteArray answer = gpuRow("1", "good") + bad + gpuRow("3", "also good");
    const SacctParseResult r = SacctParser::parse(answer, kDelimiter);
    QCOMPARE(r.skippedRows, 1);
    QCOMPARE(r.problems.size(), 1);
    QVERIFY2(r.problems.first().startsWith(why), qPrintable(r.problems.first()));
    QCOMPARE(r.records.size(), 2);
    QCOMPARE(r.records[0].id, QStringLiteral("1"));
    QCOMPARE(r.records[1].id, QStringLiteral("3"));
    QCOMPARE(r.records[1].name, QStringLiteral("also good"));
}

void TestSacctParser::cutAnswer()
{
    // The connection dropped inside the last row: the rows before it are whole, the cut one is
    // counted, never read with half a name.
    const QByteArray whole = gpuRow("1", "a") + gpuRow("2", "b\nc");
    for (qsizetype cut = 1; cut < whole.size(); ++cut) {
        const SacctParseResult r = SacctParser::parse(whole.left(cut), kDelimiter);
        const qsizetype firstEnd = gpuRow("1", "a").size();
        QCOMPARE(r.records.size(), cut >= firstEnd ? 1 : 0);
        if (cut != firstEnd)
            QVERIFY2(r.skippedRows >= 1, qPrintable(QString::number(cut)));
        for (const JobRecord &j : r.records)
            QCOMPARE(j.name, QStringLiteral("a"));
    }
}

void TestSacctParser::emptyAnswer()
{
    const SacctParseResult r = SacctParser::parse(QByteArray(), kDelimiter);
    QCOMPARE(r.records.size(), 0);
    QCOMPARE(r.skippedRows, 0);
}

void TestSacctParser::arguments()
{
    const HistoryPeriod period{utc("2026-11-30T06:00:00"), utc("2026-12-07T06:00:00")};
    QCOMPARE(SacctParser::arguments(period, kDelimiter),
             (QStringList{"env", "TZ=UTC0", "SLURM_TIME_FORMAT=standard", "sacct", "-X", "-a", "-n", "-p",
                          QStringLiteral("--delimiter=\x1f" "0123456789ab"), "-S", "2026-11-30T06:00:00", "-E",
                          "2026-12-07T06:00:00",
                          "--format=JobID,User,Account,Partition,State,ExitCode,Submit,Start,End,NodeList,AllocTRES,JobName"}));
    // A period given in another zone is sent in UTC, as sacct reads it under TZ=UTC0.
    const QDateTime berlin(QDate(2026, 12, 7), QTime(7, 0), QTimeZone("Europe/Berlin"));
    const QStringList args = SacctParser::arguments(HistoryPeriod{berlin.addDays(-1), berlin}, kDelimiter);
    QCOMPARE(args.at(12), QStringLiteral("2026-12-07T06:00:00"));
}

void TestSacctParser::delimiterIsNewEachRead()
{
    const QByteArray a = SacctParser::newDelimiter();
    const QByteArray b = SacctParser::newDelimiter();
    QCOMPARE(a.size(), 13);
    QCOMPARE(a.at(0), '\x1f');
    QVERIFY(a != b);
}

void TestSacctParser::failure_data()
{
    QTest::addColumn<QByteArray>("stderrData");
    QTest::addColumn<ErrorKind>("kind");
    QTest::addColumn<QString>("starts");
    QTest::newRow("no slurmdbd") << QByteArray("sacct: error: Slurm accounting storage is disabled\n") << ErrorKind::NoAccounting
                                 << "no slurmdbd: job accounting is not configured";
    QTest::newRow("no slurmdbd, old words") << QByteArray("SLURM accounting storage is disabled\n") << ErrorKind::NoAccounting
                                            << "no slurmdbd";
    QTest::newRow("slurmdbd down") << QByteArray("sacct: error: Problem talking to the database: Connection refused\n")
                                   << ErrorKind::CommandFailed << "sacct: sacct: error: Problem talking to the database";
    QTest::newRow("silent failure") << QByteArray() << ErrorKind::CommandFailed << "sacct exited with status 1";
}

void TestSacctParser::failure()
{
    QFETCH(QByteArray, stderrData);
    QFETCH(QString, starts);
    const SacctFailure f = SacctParser::readFailure(stderrData, 1);
    QTEST(f.kind, "kind");
    QVERIFY2(f.message.startsWith(starts), qPrintable(f.message));
}

void TestSacctParser::fiftyThousandJobs()
{
    // A month of a busy cluster (50,000 jobs, docs/PERF.md): one pass, no quadratic step.
    QByteArray answer;
    answer.reserve(50000 * 220);
    for (int i = 0; i < 50000; ++i)
        answer += gpuRow(QByteArray::number(100000 + i), "job-" + QByteArray::number(i), "billing=8,cpu=8,gres/gpu:h100=4,gres/gpu=4,mem=64G,node=1",
                         "gpu-node" + QByteArray::number(i % 2000).rightJustified(4, '0'));
    QElapsedTimer clock;
    clock.start();
    const SacctParseResult r = SacctParser::parse(answer, kDelimiter);
    const qint64 ms = clock.elapsed();
    qInfo("50,000 rows, %lld bytes: %lld ms", qint64(answer.size()), ms);
    QCOMPARE(r.records.size(), 50000);
    QCOMPARE(r.skippedRows, 0);
    QCOMPARE(r.records.last().gpus, 4);
    QVERIFY2(ms < 5000, qPrintable(QString::number(ms)));
}

QTEST_GUILESS_MAIN(TestSacctParser)
#include "tst_sacct_parser.moc"
