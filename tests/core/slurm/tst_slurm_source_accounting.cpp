// SlurmSource::readJobRecords over a scripted shell: it runs exactly SacctParser's command with a
// fresh delimiter each read, reads the rows written with that delimiter, and turns sacct's own
// failures into kinds: NoAccounting for "accounting storage is disabled" (with either exit
// status), CommandFailed for a slurmdbd that is down, the transport's kind when SSH fails.
#include "model/gpu_catalog.h"
#include "slurm/sacct_parser.h"
#include "slurm/slurm_source.h"
#include "ssh/remote_shell.h"

#include <QTest>

using namespace strata;

namespace {

// Answers sacct with rows written in the delimiter the command asked for, or as scripted.
class SacctShell : public RemoteShell
{
public:
    enum class Answer { Rows, NoAccounting, NoAccountingExitZero, DatabaseDown, Unreachable };
    explicit SacctShell(Answer answer) : m_answer(answer) {}

    QFuture<CommandResult> run(const QStringList &argv, const QByteArray &) override
    {
        m_argv << argv;
        CommandResult r;
        r.exitStatus = 0;
        switch (m_answer) {
        case Answer::Rows: {
            const QString option = argv.value(8);
            const QByteArray d = option.mid(int(qstrlen("--delimiter="))).toLatin1();
            for (const QByteArray &row : {QByteArray("1|alice|a|gpu|COMPLETED|0:0|2026-12-06T01:00:00|2026-12-06T01:00:00|"
                                                      "2026-12-06T03:00:00|gpu-node01|cpu=1,gres/gpu=2,node=1|name|with|pipes"),
                                           QByteArray("2|bob|a|gpu|RUNNING|0:0|2026-12-07T01:00:00|2026-12-07T01:00:00|"
                                                      "Unknown|gpu-node02|gres/gpu:h100=4|x")}) {
                // The first 11 pipes are field ends; the rest belong to the name.
                QByteArray out;
                int fields = 0;
                for (const char c : row) {
                    if (c == '|' && fields < 11) {
                        out += d;
                        ++fields;
                    } else {
                        out += c;
                    }
                }
                r.stdoutData += out + d + '\n';
            }
            break;
        }
        case Answer::NoAccounting:
            r.exitStatus = 1;
            r.stderrData = "sacct: error: Slurm accounting storage is disabled\n";
            break;
        case Answer::NoAccountingExitZero:
            r.stderrData = "Slurm accounting storage is disabled\n";
            break;
        case Answer::DatabaseDown:
            r.exitStatus = 1;
            r.stderrData = "sacct: error: Problem talking to the database: Connection refused\n";
            break;
        case Answer::Unreachable:
            r = CommandResult::transportFailure(ErrorKind::ConnectFailed, QStringLiteral("connection refused"));
            break;
        }
        return QtFuture::makeReadyFuture(r);
    }
    QFuture<CommandResult> upload(const QString &, const QByteArray &, int) override
    {
        return QtFuture::makeReadyFuture(CommandResult::transportFailure(ErrorKind::ConnectFailed, QStringLiteral("no")));
    }
    QString describe() const override { return QStringLiteral("scripted"); }
    QList<QStringList> m_argv;

private:
    Answer m_answer;
};

HistoryPeriod week()
{
    const QDateTime end(QDate(2026, 12, 7), QTime(6, 0), Qt::UTC);
    return {end.addDays(-7), end};
}

} // namespace

class TestSlurmSourceAccounting : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rowsAreRead();
    void failures_data();
    void failures();
    void emptyPeriodIsRefused();
};

void TestSlurmSourceAccounting::rowsAreRead()
{
    auto shell = std::make_shared<SacctShell>(SacctShell::Answer::Rows);
    SlurmSource source(shell, GpuCatalog::builtIn());
    const AccountingAnswer first = source.readJobRecords(week()).result();
    const AccountingAnswer second = source.readJobRecords(week()).result();
    QCOMPARE(first.error, QString());
    QCOMPARE(first.errorKind, ErrorKind::None);
    QCOMPARE(first.skippedRows, 0);
    QCOMPARE(first.records.size(), 2);
    QCOMPARE(first.records[0].name, QStringLiteral("name|with|pipes"));
    QCOMPARE(first.records[0].gpus, 2);
    QCOMPARE(first.records[1].gpus, 4);
    QCOMPARE(first.records[1].gpuModel, QStringLiteral("h100"));
    QCOMPARE(first.records[1].state, JobState::Running);
    QVERIFY(!first.records[1].ended.isValid());
    QVERIFY(first.bytes > 200);
    QVERIFY(first.command.startsWith(QLatin1String("sacct -X -a -n -p --delimiter=DELIM -S 2026-11-30T06:00:00 -E 2026-12-07T06:00:00")));
    QCOMPARE(second.records.size(), 2);
    // The command as built, with a new delimiter each read.
    QCOMPARE(shell->m_argv.size(), 2);
    QCOMPARE(shell->m_argv[0].mid(0, 8), (QStringList{"env", "TZ=UTC0", "SLURM_TIME_FORMAT=standard", "sacct", "-X", "-a", "-n", "-p"}));
    QVERIFY(shell->m_argv[0].at(8) != shell->m_argv[1].at(8));
}

void TestSlurmSourceAccounting::failures_data()
{
    QTest::addColumn<SacctShell::Answer>("answer");
    QTest::addColumn<ErrorKind>("kind");
    QTest::addColumn<QString>("starts");
    QTest::newRow("no slurmdbd") << SacctShell::Answer::NoAccounting << ErrorKind::NoAccounting << "no slurmdbd";
    QTest::newRow("no slurmdbd, exit 0") << SacctShell::Answer::NoAccountingExitZero << ErrorKind::NoAccounting << "no slurmdbd";
    QTest::newRow("slurmdbd down") << SacctShell::Answer::DatabaseDown << ErrorKind::CommandFailed
                                   << "sacct: sacct: error: Problem talking to the database";
    QTest::newRow("ssh refused") << SacctShell::Answer::Unreachable << ErrorKind::ConnectFailed << "connection refused";
}

void TestSlurmSourceAccounting::failures()
{
    QFETCH(SacctShell::Answer, answer);
    QFETCH(QString, starts);
    SlurmSource source(std::make_shared<SacctShell>(answer), GpuCatalog::builtIn());
    const AccountingAnswer a = source.readJobRecords(week()).result();
    QTEST(a.errorKind, "kind");
    QVERIFY2(a.error.startsWith(starts), qPrintable(a.error));
    QCOMPARE(a.records.size(), 0);
}

void TestSlurmSourceAccounting::emptyPeriodIsRefused()
{
    auto shell = std::make_shared<SacctShell>(SacctShell::Answer::Rows);
    SlurmSource source(shell, GpuCatalog::builtIn());
    const HistoryPeriod reversed{week().end, week().start};
    const AccountingAnswer a = source.readJobRecords(reversed).result();
    QCOMPARE(a.errorKind, ErrorKind::InvalidRequest);
    QCOMPARE(shell->m_argv.size(), 0);
}

QTEST_GUILESS_MAIN(TestSlurmSourceAccounting)
#include "tst_slurm_source_accounting.moc"
