// UsageReport: GPU-hours allocated, used, idle and unmeasured per group, clipped to the period;
// weeks; the most wasteful jobs. Values asserted from the fixture's hand-computed figures.
#include "model/usage_report.h"
#include "usage_report_fixture.h"

#include <QTest>

using namespace strata;
using namespace strata::usage_report_fixture;

class TstUsageReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void groupsByUser();
    void groupsByAccountAndUnknownKey();
    void weeksSplitAJobAcrossTheirEdge();
    void wastefulJobsMostIdleFirst();
    void emptyPeriod();
    void invalidPeriodHasNothing();
    void groupingWords_data();
    void groupingWords();
    void scalesToFiftyThousandJobs();
};

void TstUsageReport::groupsByUser()
{
    const UsageReport report = UsageReport::build(records(), period(), UsageReport::Grouping::User);
    QCOMPARE(report.groups.size(), 4);
    QCOMPARE(report.groups[0].key, QStringLiteral("carol"));
    QCOMPARE(report.groups[0].figures.allocated, 32.0);
    QCOMPARE(report.groups[0].figures.idle, 16.0);
    QCOMPARE(report.groups[0].figures.used(), 16.0);
    QCOMPARE(report.groups[1].key, QStringLiteral("alice"));
    QCOMPARE(report.groups[1].figures.jobs, 2);
    QCOMPARE(report.groups[1].figures.jobsMeasured, 1);
    QCOMPARE(report.groups[1].figures.allocated, 14.0);
    QCOMPARE(report.groups[1].figures.measured, 8.0);
    QCOMPARE(report.groups[1].figures.idle, 2.0);
    QCOMPARE(report.groups[1].figures.unmeasured(), 6.0);
    QCOMPARE(report.groups[1].figures.idleFraction(), 0.25);
    // bob's job started 6 hours before the period: only the 6 hours inside count, at 2 GPUs.
    QCOMPARE(report.groups[2].key, QStringLiteral("bob"));
    QCOMPARE(report.groups[2].figures.allocated, 12.0);
    QCOMPARE(report.groups[2].figures.idle, 9.0);
    // Unattributable: allocated, never idle by guess.
    QCOMPARE(report.groups[3].key, hostileUser());
    QCOMPARE(report.groups[3].figures.allocated, 1.0);
    QCOMPARE(report.groups[3].figures.measured, 0.0);
    QCOMPARE(report.groups[3].figures.idle, 0.0);
    QCOMPARE(report.groups[3].figures.idleFraction(), -1.0);
    QCOMPARE(report.total.jobs, 5);
    QCOMPARE(report.total.jobsMeasured, 3);
    QCOMPARE(report.total.allocated, 59.0);
    QCOMPARE(report.total.measured, 52.0);
    QCOMPARE(report.total.idle, 27.0);
    QCOMPARE(report.total.unmeasured(), 7.0);
    QCOMPARE(report.jobsOutside, 2);
}

void TstUsageReport::groupsByAccountAndUnknownKey()
{
    QVector<JobRecord> r = records();
    r[0].instanceType = QStringLiteral("p5.48xlarge");
    const UsageReport byAccount = UsageReport::build(r, period(), UsageReport::Grouping::Account);
    QCOMPARE(byAccount.groups.size(), 3);
    QCOMPARE(byAccount.groups[0].key, QStringLiteral("physics")); // alice 14 + carol 32
    QCOMPARE(byAccount.groups[0].figures.allocated, 46.0);
    QCOMPARE(byAccount.groups[1].key, QStringLiteral("chemistry"));
    QCOMPARE(byAccount.groups[2].key, QStringLiteral("-2+3"));
    const UsageReport byType = UsageReport::build(r, period(), UsageReport::Grouping::InstanceType);
    QCOMPARE(byType.groups.size(), 2);
    QCOMPARE(byType.groups[0].key, QString()); // not known: its own group, empty key
    QCOMPARE(byType.groups[0].figures.allocated, 51.0);
    QCOMPARE(byType.groups[1].key, QStringLiteral("p5.48xlarge"));
    QCOMPARE(byType.groups[1].figures.allocated, 8.0);
}

void TstUsageReport::weeksSplitAJobAcrossTheirEdge()
{
    const UsageReport report = UsageReport::build(records(), period(), UsageReport::Grouping::User);
    QCOMPARE(report.weeks.size(), 2);
    QCOMPARE(report.weeks[0].start, at("2026-11-30T00:00:00Z"));
    QCOMPARE(report.weeks[0].end, at("2026-12-07T00:00:00Z"));
    QCOMPARE(report.weeks[1].end, at("2026-12-07T12:00:00Z")); // the period's end, a short week
    QCOMPARE(report.weeks[0].figures.jobs, 4);
    QCOMPARE(report.weeks[0].figures.allocated, 37.0);
    QCOMPARE(report.weeks[0].figures.measured, 36.0);
    QCOMPARE(report.weeks[0].figures.idle, 19.0); // 2 + 9 + half of 104's 16
    QCOMPARE(report.weeks[1].figures.jobs, 2);
    QCOMPARE(report.weeks[1].figures.allocated, 22.0);
    QCOMPARE(report.weeks[1].figures.idle, 8.0);
    // A period starting mid-week: its first week starts with it.
    const QVector<UsageReport::Week> weeks =
        UsageReport::weeksOf(HistoryPeriod{at("2026-12-02T15:00:00Z"), at("2026-12-16T00:00:00Z")});
    QCOMPARE(weeks.size(), 3);
    QCOMPARE(weeks[0].start, at("2026-12-02T15:00:00Z"));
    QCOMPARE(weeks[0].end, at("2026-12-07T00:00:00Z"));
    QCOMPARE(weeks[2].start, at("2026-12-14T00:00:00Z"));
    QCOMPARE(weeks[2].end, at("2026-12-16T00:00:00Z"));
}

void TstUsageReport::wastefulJobsMostIdleFirst()
{
    const UsageReport top2 = UsageReport::build(records(), period(), UsageReport::Grouping::User, 2);
    QCOMPARE(top2.wasteful.size(), 2);
    QCOMPARE(top2.wasteful[0].record.id, QStringLiteral("104"));
    QCOMPARE(top2.wasteful[0].allocated, 32.0);
    QCOMPARE(top2.wasteful[1].record.id, QStringLiteral("102"));
    QCOMPARE(top2.wasteful[1].allocated, 12.0);
    // 105 idled 96 hours, all before the period: not in it. Unmeasured jobs are never ranked.
    const UsageReport all = UsageReport::build(records(), period(), UsageReport::Grouping::User, 100);
    QCOMPARE(all.wasteful.size(), 3);
    QCOMPARE(all.wasteful[2].record.id, QStringLiteral("101"));
    QCOMPARE(UsageReport::build(records(), period(), UsageReport::Grouping::User, 0).wasteful.size(), 0);
}

void TstUsageReport::emptyPeriod()
{
    const UsageReport report = UsageReport::build({}, period(), UsageReport::Grouping::Partition);
    QCOMPARE(report.groups.size(), 0);
    QCOMPARE(report.total.jobs, 0);
    QCOMPARE(report.total.allocated, 0.0);
    QCOMPARE(report.total.idleFraction(), -1.0);
    QCOMPARE(report.weeks.size(), 2);
    QCOMPARE(report.weeks[1].figures.allocated, 0.0);
    QCOMPARE(report.wasteful.size(), 0);
}

void TstUsageReport::invalidPeriodHasNothing()
{
    const HistoryPeriod backwards{at("2026-12-07T00:00:00Z"), at("2026-12-01T00:00:00Z")};
    const UsageReport report = UsageReport::build(records(), backwards, UsageReport::Grouping::User);
    QCOMPARE(report.groups.size(), 0);
    QCOMPARE(report.weeks.size(), 0);
    QCOMPARE(report.jobsOutside, 7);
}

void TstUsageReport::groupingWords_data()
{
    QTest::addColumn<QString>("word");
    QTest::addColumn<int>("grouping"); // -1: refused
    QTest::newRow("user") << "user" << int(UsageReport::Grouping::User);
    QTest::newRow("account") << "account" << int(UsageReport::Grouping::Account);
    QTest::newRow("partition") << "partition" << int(UsageReport::Grouping::Partition);
    QTest::newRow("instance-type") << "instance-type" << int(UsageReport::Grouping::InstanceType);
    QTest::newRow("framework") << "framework" << int(UsageReport::Grouping::Framework);
    QTest::newRow("upper case") << "USER" << -1;
    QTest::newRow("empty") << "" << -1;
    QTest::newRow("underscore") << "instance_type" << -1;
}

void TstUsageReport::groupingWords()
{
    QFETCH(QString, word);
    QFETCH(int, grouping);
    const std::optional<UsageReport::Grouping> parsed = UsageReport::parseGrouping(word);
    QCOMPARE(parsed ? int(*parsed) : -1, grouping);
    if (parsed)
        QCOMPARE(UsageReport::groupingName(*parsed), word);
}

void TstUsageReport::scalesToFiftyThousandJobs()
{
    // 50,000 jobs over 30 days (the scale), 500 users: well under a second.
    const HistoryPeriod p{at("2026-11-07T00:00:00Z"), at("2026-12-07T00:00:00Z")};
    QVector<JobRecord> many;
    many.reserve(50'000);
    for (int i = 0; i < 50'000; ++i) {
        JobRecord r;
        r.id = QString::number(100'000 + i);
        r.user = QStringLiteral("user%1").arg(i % 500);
        r.gpus = 1 + i % 8;
        r.started = p.start.addSecs(qint64(i) * 50);
        r.ended = r.started.addSecs(3600);
        r.efficiency.basis = JobEfficiency::Basis::Exact;
        r.efficiency.gpuHoursMeasured = r.gpus;
        r.efficiency.gpuHoursIdle = (i % 10) / 10.0 * r.gpus;
        many << r;
    }
    QElapsedTimer timer;
    timer.start();
    const UsageReport report = UsageReport::build(many, p, UsageReport::Grouping::User, 20);
    const qint64 ms = timer.elapsed();
    qInfo("50,000 jobs: %lld ms", ms);
    QCOMPARE(report.groups.size(), 500);
    QCOMPARE(report.total.jobs, 50'000);
    QCOMPARE(report.total.allocated, 225'000.0); // sum of 1..8 = 36, x 6,250 per residue
    QCOMPARE(report.weeks.size(), 5);
    QCOMPARE(report.wasteful.size(), 20);
    QCOMPARE(report.wasteful[0].record.efficiency.gpuHoursIdle, 0.9 * 8);
    QVERIFY2(ms < 2000, qPrintable(QStringLiteral("%1 ms").arg(ms)));
}

QTEST_GUILESS_MAIN(TstUsageReport)
#include "tst_usage_report.moc"
