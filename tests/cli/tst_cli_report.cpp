// `strata report`: its options read into a ReportRequest (period, grouping, format; refusals
// before anything connects), its text on the usage-report fixture, and the real binary refusing
// bad options with exit status 2 without reaching for a cluster.
#include "../core/model/usage_report_fixture.h"
#include "cli/command_table.h"
#include "cli/report_request.h"
#include "cli/report_text_printer.h"
#include "strata_without_display.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;
using namespace strata::usage_report_fixture;

namespace {

ReportRequest parse(const QStringList &arguments, const QDateTime &now)
{
    QCommandLineParser parser;
    CommandTable::configureParser(*CommandTable::find(u"report"), parser);
    if (!parser.parse(QStringList{QStringLiteral("strata"), QStringLiteral("report")} + arguments)) {
        ReportRequest refused;
        refused.error = parser.errorText();
        return refused;
    }
    return ReportRequest::parse(parser, now);
}

} // namespace

class TstCliReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void request_data();
    void request();
    void text();
    void textOfAnEmptyPeriod();
    void binaryRefusesBadOptions();
};

void TstCliReport::request_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("start"); // ISO; empty when refused
    QTest::addColumn<QString>("end");
    QTest::addColumn<int>("grouping");
    QTest::addColumn<int>("format");
    QTest::addColumn<QString>("error"); // a part of the refusal

    const int user = int(UsageReport::Grouping::User);
    const int text = int(ReportRequest::Format::Text);
    QTest::newRow("default: 7 days by user") << QStringList{} << "2026-11-30T06:00:00Z" << "2026-12-07T06:00:00Z" << user
                                             << text << "";
    QTest::newRow("30d csv by account")
        << QStringList{"--since", "30d", "--format", "csv", "--by", "account"} << "2026-11-07T06:00:00Z"
        << "2026-12-07T06:00:00Z" << int(UsageReport::Grouping::Account) << int(ReportRequest::Format::Csv) << "";
    QTest::newRow("start and end dates") << QStringList{"--start", "2026-11-01", "--end", "2026-12-01T12:00:00+02:00"}
                                         << "2026-11-01T00:00:00Z" << "2026-12-01T10:00:00Z" << user << text << "";
    QTest::newRow("start only: up to now") << QStringList{"--start", "2026-12-01T00:00:00Z", "--format", "json", "--jobs"}
                                           << "2026-12-01T00:00:00Z" << "2026-12-07T06:00:00Z" << user
                                           << int(ReportRequest::Format::Json) << "";
    QTest::newRow("instance type") << QStringList{"--by", "instance-type"} << "2026-11-30T06:00:00Z"
                                   << "2026-12-07T06:00:00Z" << int(UsageReport::Grouping::InstanceType) << text << "";
    QTest::newRow("bad since") << QStringList{"--since", "7x"} << "" << "" << 0 << 0 << "--since \"7x\"";
    QTest::newRow("zero since") << QStringList{"--since", "0d"} << "" << "" << 0 << 0 << "--since \"0d\"";
    QTest::newRow("since and start") << QStringList{"--since", "7d", "--start", "2026-12-01"} << "" << "" << 0 << 0
                                     << "not both";
    QTest::newRow("end without start") << QStringList{"--end", "2026-12-01"} << "" << "" << 0 << 0 << "--end needs --start";
    QTest::newRow("time without zone") << QStringList{"--start", "2026-12-01T08:00:00"} << "" << "" << 0 << 0
                                       << "--start \"2026-12-01T08:00:00\"";
    QTest::newRow("backwards") << QStringList{"--start", "2026-12-05", "--end", "2026-12-01"} << "" << "" << 0 << 0
                               << "--start must come before --end";
    QTest::newRow("end in the future") << QStringList{"--start", "2026-12-01", "--end", "2026-12-08"} << "" << "" << 0 << 0
                                       << "--end 2026-12-08 is in the future";
    QTest::newRow("bad grouping") << QStringList{"--by", "team"} << "" << "" << 0 << 0 << "--by \"team\"";
    QTest::newRow("bad format") << QStringList{"--format", "xml"} << "" << "" << 0 << 0 << "not \"xml\"";
    QTest::newRow("jobs as text") << QStringList{"--jobs"} << "" << "" << 0 << 0 << "--jobs";
    QTest::newRow("negative top") << QStringList{"--top", "-1"} << "" << "" << 0 << 0 << "--top \"-1\"";
    QTest::newRow("huge top") << QStringList{"--top", "99999999999"} << "" << "" << 0 << 0 << "--top";
}

void TstCliReport::request()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, start);
    QFETCH(QString, end);
    QFETCH(int, grouping);
    QFETCH(int, format);
    QFETCH(QString, error);
    const ReportRequest r = parse(arguments, at("2026-12-07T06:00:00Z"));
    if (!error.isEmpty()) {
        QVERIFY2(r.error.contains(error), qPrintable(r.error));
        return;
    }
    QCOMPARE(r.error, QString());
    QCOMPARE(r.period.start, at(qPrintable(start)));
    QCOMPARE(r.period.end, at(qPrintable(end)));
    QCOMPARE(int(r.grouping), grouping);
    QCOMPARE(r.groupingGiven, arguments.contains(QStringLiteral("--by"))); // else the command picks
    QCOMPARE(int(r.format), format);
    QCOMPARE(r.top, 10);
}

void TstCliReport::text()
{
    const QString out =
        ReportTextPrinter::print(UsageReport::build(records(), period(), UsageReport::Grouping::User, 2));
    const QStringList lines = out.split(QLatin1Char('\n'));
    QCOMPARE(lines[0], QStringLiteral("GPU-hours from 2026-11-30 00:00 to 2026-12-07 12:00 UTC by user: 5 jobs, 3 measured"));
    const auto simplified = [&](int i) { return lines.value(i).simplified(); };
    QCOMPARE(simplified(2), QStringLiteral("USER JOBS ALLOCATED USED IDLE UNMEASURED IDLE %"));
    QCOMPARE(simplified(3), QStringLiteral("carol 1 32.0 16.0 16.0 0.0 50 %"));
    QCOMPARE(simplified(4), QStringLiteral("alice 2 14.0 6.0 2.0 6.0 25 %"));
    QCOMPARE(simplified(6), QStringLiteral("=cmd|' /C calc'!A0 1 1.0 0.0 0.0 1.0 -"));
    QCOMPARE(simplified(7), QStringLiteral("total 5 59.0 25.0 27.0 7.0 52 %"));
    QVERIFY(lines.contains(QRegularExpression(QStringLiteral("^2026-12-07 00:00 +2 +22.0 +8.0 +8.0 +6.0 +50 %$"))));
    const qsizetype jobs = lines.indexOf(QRegularExpression(QStringLiteral("MOST IDLE JOB.*")));
    QVERIFY(jobs > 0);
    QCOMPARE(lines[jobs + 1].simplified(), QStringLiteral("104 carol physics gpu 8 32.0 16.0 50 % train-104"));
    QCOMPARE(lines[jobs + 2].simplified(), QStringLiteral("102 bob chemistry gpu 2 12.0 9.0 25 % train-102"));
    // A name with an escape sequence is printed escaped, never sent to the terminal.
    QVector<JobRecord> hostile = records();
    hostile[6].efficiency.basis = JobEfficiency::Basis::Exact;
    hostile[6].efficiency.gpuHoursMeasured = 1;
    hostile[6].efficiency.gpuHoursIdle = 1;
    const QString escaped = ReportTextPrinter::print(UsageReport::build(hostile, period(), UsageReport::Grouping::User));
    QVERIFY(!escaped.contains(QChar(0x1b)));
    QVERIFY2(escaped.contains(QStringLiteral("a,\"b\"\\nc\\x1b[2J")), qPrintable(escaped));
}

void TstCliReport::textOfAnEmptyPeriod()
{
    const QString out = ReportTextPrinter::print(UsageReport::build({}, period(), UsageReport::Grouping::Partition));
    QVERIFY(out.startsWith(QStringLiteral("GPU-hours from 2026-11-30 00:00 to 2026-12-07 12:00 UTC by partition: 0 jobs\n")));
    QVERIFY(out.contains(QRegularExpression(QStringLiteral("\ntotal +0 +0.0 +0.0 +0.0 +0.0 +-\n"))));
    QVERIFY(!out.contains(QStringLiteral("MOST IDLE")));
}

void TstCliReport::binaryRefusesBadOptions()
{
    QTemporaryDir home;
    // Refused before connecting: the SSH target does not exist and is never tried.
    const test::StrataRun bad = test::runStrataWithoutDisplay(
        {QStringLiteral("report"), QStringLiteral("--ssh"), QStringLiteral("nobody@192.0.2.1"), QStringLiteral("--by"),
         QStringLiteral("team")},
        home.path(), 20'000);
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains(QStringLiteral("--by \"team\"")), qPrintable(bad.err));
    // csv passes the runner's --format check for report (only): the request itself is read next.
    const test::StrataRun csv = test::runStrataWithoutDisplay(
        {QStringLiteral("report"), QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("--top"),
         QStringLiteral("x")},
        home.path(), 20'000);
    QCOMPARE(csv.exitCode, 2);
    QVERIFY2(csv.err.contains(QStringLiteral("--top \"x\"")), qPrintable(csv.err));
    const test::StrataRun xml = test::runStrataWithoutDisplay(
        {QStringLiteral("report"), QStringLiteral("--format"), QStringLiteral("xml")}, home.path(), 20'000);
    QCOMPARE(xml.exitCode, 2);
    QVERIFY2(xml.err.contains(QStringLiteral("--format must be text, csv or json")), qPrintable(xml.err));
    const test::StrataRun snapshotCsv = test::runStrataWithoutDisplay(
        {QStringLiteral("snapshot"), QStringLiteral("--format"), QStringLiteral("csv")}, home.path(), 20'000);
    QCOMPARE(snapshotCsv.exitCode, 2);
    QVERIFY2(snapshotCsv.err.contains(QStringLiteral("--format must be text or json")), qPrintable(snapshotCsv.err));
    const test::StrataRun help = test::runStrataWithoutDisplay({QStringLiteral("help"), QStringLiteral("report")},
                                                               home.path(), 20'000);
    QCOMPARE(help.exitCode, 0);
    for (const char *option : {"--since", "--start", "--end", "--by", "--jobs", "--top"})
        QVERIFY2(help.out.contains(QLatin1String(option)), option);
}

QTEST_GUILESS_MAIN(TstCliReport)
#include "tst_cli_report.moc"
