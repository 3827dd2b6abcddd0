// UsageReportCsv and UsageReportJson: what a spreadsheet and a script read. Hostile names
// (quotes, commas, newlines, escape sequences, formulas) stay one cell, never a formula.
#include "model/usage_report.h"
#include "model/usage_report_csv.h"
#include "model/usage_report_json.h"
#include "usage_report_fixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace strata;
using namespace strata::usage_report_fixture;

namespace {

// RFC 4180 as a spreadsheet reads it: rows of cells, quoted cells may hold commas, quotes
// (doubled) and line breaks.
QVector<QStringList> parseCsv(const QByteArray &bytes)
{
    const QString text = QString::fromUtf8(bytes);
    QVector<QStringList> rows;
    QStringList row;
    QString cell;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                cell += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            row << cell;
            cell.clear();
        } else if (c == QLatin1Char('\r') && i + 1 < text.size() && text[i + 1] == QLatin1Char('\n')) {
            row << cell;
            rows << row;
            row.clear();
            cell.clear();
            ++i;
        } else {
            cell += c;
        }
    }
    return rows;
}

} // namespace

class TstUsageReportExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void textCells_data();
    void textCells();
    void groupsCsv();
    void jobsCsvKeepsHostileNamesInOneCell();
    void weeksCsv();
    void json();
    void jsonWithJobs();
    void emptyReport();
};

void TstUsageReportExport::textCells_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("cell");
    QTest::newRow("plain") << "alice" << "\"alice\"";
    QTest::newRow("empty") << "" << "\"\"";
    QTest::newRow("quote and comma") << "a,\"b\"" << "\"a,\"\"b\"\"\"";
    QTest::newRow("formula =") << "=HYPERLINK(\"x\")" << "\"'=HYPERLINK(\"\"x\"\")\"";
    QTest::newRow("formula +") << "+1" << "\"'+1\"";
    QTest::newRow("formula -") << "-2+3" << "\"'-2+3\"";
    QTest::newRow("formula @") << "@SUM(A1)" << "\"'@SUM(A1)\"";
    QTest::newRow("tab first") << "\tx" << "\"'\tx\"";
    QTest::newRow("carriage return first") << "\rx" << "\"'\rx\"";
    QTest::newRow("equals later") << "a=b" << "\"a=b\"";
    QTest::newRow("newline") << "a\nb" << "\"a\nb\"";
}

void TstUsageReportExport::textCells()
{
    QFETCH(QString, text);
    QFETCH(QString, cell);
    QCOMPARE(UsageReportCsv::textCell(text), cell);
}

void TstUsageReportExport::groupsCsv()
{
    const UsageReport report = UsageReport::build(records(), period(), UsageReport::Grouping::User);
    const QByteArray csv = UsageReportCsv::groups(report);
    QVERIFY(csv.startsWith("grouped_by,key,jobs,jobs_measured,gpu_hours_allocated,gpu_hours_used,gpu_hours_idle,"
                           "gpu_hours_unmeasured,idle_percent\r\n"));
    const QVector<QStringList> rows = parseCsv(csv);
    QCOMPARE(rows.size(), 6); // header, 4 users, total
    QCOMPARE(rows[1], (QStringList{"user", "carol", "1", "1", "32.000", "16.000", "16.000", "0.000", "50.0"}));
    QCOMPARE(rows[2], (QStringList{"user", "alice", "2", "1", "14.000", "6.000", "2.000", "6.000", "25.0"}));
    // The hostile user: one cell, its formula neutralised; nothing measured: no idle percent.
    QCOMPARE(rows[4], (QStringList{"user", "'" + hostileUser(), "1", "0", "1.000", "0.000", "0.000", "1.000", ""}));
    QCOMPARE(rows[5], (QStringList{"total", "", "5", "3", "59.000", "25.000", "27.000", "7.000",
                                   QString::number(27.0 / 52.0 * 100.0, 'f', 1)}));
}

void TstUsageReportExport::jobsCsvKeepsHostileNamesInOneCell()
{
    const QByteArray csv = UsageReportCsv::jobs(records(), period());
    const QVector<QStringList> rows = parseCsv(csv);
    QCOMPARE(rows.size(), 6); // header and the 5 jobs with GPU-hours in the period
    for (const QStringList &row : rows)
        QCOMPARE(row.size(), 21);
    const QStringList &hostile = rows[5];
    QCOMPARE(hostile[0], QStringLiteral("107"));
    QCOMPARE(hostile[1], hostileName()); // a comma, quotes, a newline and ESC: kept, one cell
    QCOMPARE(hostile[2], "'" + hostileUser());
    QCOMPARE(hostile[3], QStringLiteral("'-2+3"));
    QCOMPARE(hostile[4], QStringLiteral("'@SUM(A1)"));
    QCOMPARE(hostile[13], QStringLiteral("1.000"));
    QCOMPARE(hostile[14], QString()); // unattributable: not measured, not 0
    QCOMPARE(hostile[19], QStringLiteral("unattributable"));
    QCOMPARE(hostile[20], QStringLiteral("no Prometheus in the profile"));
    const QStringList &running = rows[3];
    QCOMPARE(running[0], QStringLiteral("103"));
    QCOMPARE(running[10], QString()); // no end yet
    QCOMPARE(running[13], QStringLiteral("6.000"));
    const QStringList &acrossStart = rows[2];
    QCOMPARE(acrossStart[9], QStringLiteral("2026-11-29T18:00:00Z"));
    QCOMPARE(acrossStart[13], QStringLiteral("12.000"));
    QCOMPARE(acrossStart[16], QStringLiteral("25.0"));
}

void TstUsageReportExport::weeksCsv()
{
    const UsageReport report = UsageReport::build(records(), period(), UsageReport::Grouping::User);
    const QVector<QStringList> rows = parseCsv(UsageReportCsv::weeks(report));
    QCOMPARE(rows.size(), 3);
    QCOMPARE(rows[1].mid(0, 5), (QStringList{"2026-11-30T00:00:00Z", "2026-12-07T00:00:00Z", "4", "3", "37.000"}));
    QCOMPARE(rows[2].mid(0, 5), (QStringList{"2026-12-07T00:00:00Z", "2026-12-07T12:00:00Z", "2", "1", "22.000"}));
}

void TstUsageReportExport::json()
{
    const UsageReport report = UsageReport::build(records(), period(), UsageReport::Grouping::User, 2);
    const QJsonObject o = UsageReportJson::toJson(report);
    QCOMPARE(o[u"schema"].toString(), QStringLiteral("strata.report/1"));
    QCOMPARE(o[u"groupedBy"].toString(), QStringLiteral("user"));
    QCOMPARE(o[u"period"][u"start"].toString(), QStringLiteral("2026-11-30T00:00:00Z"));
    QCOMPARE(o[u"period"][u"end"].toString(), QStringLiteral("2026-12-07T12:00:00Z"));
    const QJsonArray groups = o[u"groups"].toArray();
    QCOMPARE(groups.size(), 4);
    QCOMPARE(groups[0][u"key"].toString(), QStringLiteral("carol"));
    QCOMPARE(groups[0][u"gpuHoursAllocated"].toDouble(), 32.0);
    QCOMPARE(groups[0][u"idlePercent"].toDouble(), 50.0);
    QCOMPARE(groups[3][u"key"].toString(), hostileUser()); // JSON needs no neutralising: as it is
    QVERIFY(groups[3][u"idlePercent"].isNull());
    QCOMPARE(o[u"total"][u"gpuHoursIdle"].toDouble(), 27.0);
    QCOMPARE(o[u"total"][u"gpuHoursUnmeasured"].toDouble(), 7.0);
    QCOMPARE(o[u"jobsOutsidePeriod"].toInt(), 2);
    QCOMPARE(o[u"weeks"].toArray().size(), 2);
    QCOMPARE(o[u"weeks"][1][u"gpuHoursIdle"].toDouble(), 8.0);
    const QJsonArray wasteful = o[u"wasteful"].toArray();
    QCOMPARE(wasteful.size(), 2);
    QCOMPARE(wasteful[0][u"id"].toString(), QStringLiteral("104"));
    QCOMPARE(wasteful[0][u"gpuHoursIdle"].toDouble(), 16.0);
    QCOMPARE(wasteful[0][u"basis"].toString(), QStringLiteral("indices"));
    QCOMPARE(wasteful[0][u"utilMeanPercent"].toDouble(), 50.0);
    QVERIFY(wasteful[0][u"memPeakMiB"].isNull());
    QVERIFY(!o.contains(u"jobs"));
}

void TstUsageReportExport::jsonWithJobs()
{
    const QVector<JobRecord> r = records();
    const UsageReport report = UsageReport::build(r, period(), UsageReport::Grouping::Account);
    QByteArray bytes;
    int pieces = 0;
    UsageReportJson::write(report, &r, [&](const QByteArray &piece) {
        bytes += piece;
        ++pieces;
    });
    QVERIFY(pieces >= 2);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonObject o = doc.object();
    QCOMPARE(o[u"groupedBy"].toString(), QStringLiteral("account"));
    const QJsonArray jobs = o[u"jobs"].toArray();
    QCOMPARE(jobs.size(), 5);
    QCOMPARE(jobs[4][u"name"].toString(), hostileName());
    QCOMPARE(jobs[4][u"user"].toString(), hostileUser());
    QVERIFY(jobs[4][u"gpuHoursIdle"].isNull());
    QCOMPARE(jobs[2][u"id"].toString(), QStringLiteral("103"));
    QVERIFY(jobs[2][u"ended"].isNull());
    QCOMPARE(jobs[2][u"gpuHoursAllocated"].toDouble(), 6.0);
    // Without records: the same document as toJson's, no "jobs".
    QByteArray plain;
    UsageReportJson::write(report, nullptr, [&](const QByteArray &piece) { plain += piece; });
    QCOMPARE(QJsonDocument::fromJson(plain).object(), UsageReportJson::toJson(report));
}

void TstUsageReportExport::emptyReport()
{
    const QVector<JobRecord> none;
    const UsageReport report = UsageReport::build(none, period(), UsageReport::Grouping::User);
    QCOMPARE(parseCsv(UsageReportCsv::groups(report)).size(), 2); // header and total
    QCOMPARE(parseCsv(UsageReportCsv::jobs(none, period())).size(), 1);
    QByteArray bytes;
    UsageReportJson::write(report, &none, [&](const QByteArray &piece) { bytes += piece; });
    QJsonParseError error;
    const QJsonObject o = QJsonDocument::fromJson(bytes, &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(o[u"jobs"].toArray().size(), 0);
    QCOMPARE(o[u"groups"].toArray().size(), 0);
    QVERIFY(o[u"total"][u"idlePercent"].isNull());
    QCOMPARE(o[u"total"][u"jobs"].toInt(), 0);
}

QTEST_GUILESS_MAIN(TstUsageReportExport)
#include "tst_usage_report_export.moc"
