// The Reports window (issue 32): Run reads through the reader it was handed (a session's
// readHistory; here a promise the test keeps), shows busy and offers Cancel while it reads, then
// the groups, the charts, the weeks and the most wasteful jobs from the usage-report fixture;
// another grouping rebuilds without reading again; export writes what `strata report` writes;
// accounting and metrics failures are said. Saves a PNG under the build's screenshots/.
#include "../core/model/usage_report_fixture.h"
#include "models/job_record_table_model.h"
#include "views/reports_window.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPromise>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStackedBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QTableView>
#include <QTableWidget>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;
using namespace strata::usage_report_fixture;

namespace {

// Hands out futures the test finishes (or sees cancelled).
struct FakeReader
{
    std::shared_ptr<QPromise<HistoryAnswer>> promise;
    QVector<HistoryPeriod> asked;

    ReportsWindow::HistoryReader reader()
    {
        return [this](const HistoryPeriod &period) {
            asked << period;
            promise = std::make_shared<QPromise<HistoryAnswer>>();
            promise->start();
            return promise->future();
        };
    }
    void answer(const HistoryAnswer &a)
    {
        promise->addResult(a);
        promise->finish();
    }
};

HistoryAnswer fixtureAnswer()
{
    HistoryAnswer a;
    a.period = period();
    a.records = records();
    return a;
}

QString cell(const QTableWidget *table, int row, int column)
{
    const QTableWidgetItem *item = table->item(row, column);
    return item ? item->text() : QStringLiteral("<none>");
}

QString jobCell(const QSortFilterProxyModel *jobs, int row, int column, int role = Qt::DisplayRole)
{
    return jobs->index(row, column).data(role).toString();
}

QStringList categories(const QChart *chart, Qt::Orientation orientation)
{
    for (QAbstractAxis *axis : chart->axes(orientation))
        if (auto *c = qobject_cast<QBarCategoryAxis *>(axis))
            return c->categories();
    return {};
}

} // namespace

class TstReportsWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runShowsTheReport();
    void cancelStopsTheRead();
    void accountingFailureIsSaid();
    void metricsFailureIsSaid();
    void customPeriod();
};

void TstReportsWindow::runShowsTheReport()
{
    FakeReader fake;
    ReportsWindow window(fake.reader());
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.cancelButton()->isEnabled(), false);
    QSignalSpy shown(&window, &ReportsWindow::reportShown);
    window.choosePeriod(QStringLiteral("30d"));
    window.runButton()->click();
    QCOMPARE(fake.asked.size(), 1);
    QCOMPARE(fake.asked[0].seconds(), qint64(30) * 86400);
    QVERIFY(window.isRunning());
    QCOMPARE(window.runButton()->isEnabled(), false);
    QCOMPARE(window.cancelButton()->isEnabled(), true);
    QVERIFY2(window.statusText().startsWith(QStringLiteral("Reading accounting")), qPrintable(window.statusText()));
    fake.answer(fixtureAnswer());
    QTRY_COMPARE(shown.size(), 1);
    QCOMPARE(window.runButton()->isEnabled(), true);
    QCOMPARE(window.cancelButton()->isEnabled(), false);

    const QTableWidget *groups = window.groupTable();
    QCOMPARE(groups->rowCount(), 5); // 4 users and the total
    QCOMPARE(cell(groups, 0, 0), QStringLiteral("carol"));
    QCOMPARE(cell(groups, 0, 2), QStringLiteral("32.0"));
    QCOMPARE(cell(groups, 0, 4), QStringLiteral("16.0"));
    QCOMPARE(cell(groups, 1, 5), QStringLiteral("6.0")); // alice's running job: not measured
    QCOMPARE(cell(groups, 3, 0), hostileUser());
    QCOMPARE(cell(groups, 3, 6), QStringLiteral("–"));
    QCOMPARE(cell(groups, 4, 0), QStringLiteral("Total"));
    QCOMPARE(cell(groups, 4, 2), QStringLiteral("59.0"));
    QVERIFY2(window.statusText().contains(QStringLiteral("59.0 GPU-hours allocated, 25.0 used, 27.0 idle (52 % of the measured), 7.0 unmeasured")),
             qPrintable(window.statusText()));

    // The bar chart: used, idle and unmeasured per user, the largest at the top.
    QCOMPARE(window.groupChart()->series().size(), 1);
    auto *bars = qobject_cast<QHorizontalStackedBarSeries *>(window.groupChart()->series().first());
    QVERIFY(bars);
    QCOMPARE(bars->barSets().size(), 3);
    QCOMPARE(categories(window.groupChart(), Qt::Vertical),
             (QStringList{hostileUser(), QStringLiteral("bob"), QStringLiteral("alice"), QStringLiteral("carol")}));
    QCOMPARE(bars->barSets()[1]->at(3), 16.0); // carol's idle
    QCOMPARE(bars->barSets()[2]->at(2), 6.0);  // alice's unmeasured
    // The weeks.
    auto *weeks = qobject_cast<QStackedBarSeries *>(window.weekChart()->series().first());
    QVERIFY(weeks);
    QCOMPARE(categories(window.weekChart(), Qt::Horizontal), (QStringList{QStringLiteral("Nov 30"), QStringLiteral("Dec 7")}));
    QCOMPARE(weeks->barSets()[1]->at(0), 19.0);
    QCOMPARE(weeks->barSets()[1]->at(1), 8.0);
    // The most wasteful jobs.
    const QTableWidget *wasteful = window.wastefulTable();
    QCOMPARE(wasteful->rowCount(), 3);
    QCOMPARE(cell(wasteful, 0, 0), QStringLiteral("104"));
    QCOMPARE(cell(wasteful, 0, 6), QStringLiteral("16.0"));
    QCOMPARE(cell(wasteful, 1, 0), QStringLiteral("102"));

    // Every job of the period, with its efficiency: the most GPU-hours first; those outside the
    // period (105 before it, 106 never started) are not the period's.
    using C = JobRecordTableModel::Column;
    const QSortFilterProxyModel *jobs = window.jobsProxy();
    QCOMPARE(jobs->rowCount(), 5);
    QCOMPARE(window.jobTabs()->tabText(1), QStringLiteral("All jobs (5)"));
    QStringList order;
    for (int row = 0; row < jobs->rowCount(); ++row)
        order << jobCell(jobs, row, C::Id);
    QCOMPARE(order, (QStringList{"104", "102", "101", "103", "107"}));
    QCOMPARE(jobCell(jobs, 0, C::GpuHours), QStringLiteral("32.0"));
    QCOMPARE(jobCell(jobs, 0, C::Util), QStringLiteral("50 %"));
    QCOMPARE(jobCell(jobs, 0, C::IdleGpuHours), QStringLiteral("16.0"));
    QCOMPARE(jobCell(jobs, 0, C::Basis), QStringLiteral("GPU indices from accounting"));
    QCOMPARE(jobCell(jobs, 1, C::GpuHours), QStringLiteral("12.0")); // 6 of its 12 hours inside the period
    QCOMPARE(jobCell(jobs, 1, C::Started), QStringLiteral("2026-11-29 18:00"));
    QCOMPARE(jobCell(jobs, 3, C::Ended), QStringLiteral("running"));
    QCOMPARE(jobCell(jobs, 3, C::Util), QStringLiteral("\u2014"));
    QCOMPARE(jobCell(jobs, 3, C::Util, Qt::ToolTipRole), QStringLiteral("no Prometheus in the profile"));
    QCOMPARE(jobCell(jobs, 4, C::User), hostileUser());
    QVERIFY2(!jobCell(jobs, 4, C::Name).contains(QLatin1Char('\n')) && !jobCell(jobs, 4, C::Name).contains(QChar(0x1b)),
             qPrintable(jobCell(jobs, 4, C::Name)));
    // Sorted by utilisation (the unmeasured first going up); filtered as one types.
    window.jobsView()->sortByColumn(C::Util, Qt::AscendingOrder);
    QCOMPARE(jobCell(jobs, 4, C::Id), QStringLiteral("101")); // 75 %
    QCOMPARE(jobCell(jobs, 3, C::Id), QStringLiteral("104")); // 50 %
    window.jobsFilter()->setText(QStringLiteral("chemistry"));
    QCOMPARE(jobs->rowCount(), 1);
    QCOMPARE(jobCell(jobs, 0, C::Id), QStringLiteral("102"));
    window.jobsFilter()->clear();
    QCOMPARE(jobs->rowCount(), 5);
    window.jobsView()->sortByColumn(C::GpuHours, Qt::DescendingOrder);

    const QString dir = QStringLiteral(STRATA_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    QTest::qWait(50); // the charts lay out their axes and legend on the next turn of the loop
    QVERIFY(window.grab().save(dir + QStringLiteral("/reports_window.png")));
    window.jobTabs()->setCurrentIndex(1);
    QTest::qWait(20);
    QVERIFY(window.grab().save(dir + QStringLiteral("/reports_window_jobs.png")));

    // Another grouping: rebuilt from the records read, nothing read again.
    window.chooseGrouping(UsageReport::Grouping::Account);
    QTRY_COMPARE(shown.size(), 2);
    QCOMPARE(fake.asked.size(), 1);
    QCOMPARE(groups->rowCount(), 4);
    QCOMPARE(cell(groups, 0, 0), QStringLiteral("physics"));
    QCOMPARE(cell(groups, 0, 2), QStringLiteral("46.0"));
    QCOMPARE(window.report().grouping, UsageReport::Grouping::Account);
    QCOMPARE(jobs->rowCount(), 5); // the same jobs: not reset by another grouping

    // Export: what strata report writes.
    QTemporaryDir out;
    QVERIFY(window.exportTo(out.filePath(QStringLiteral("groups.csv")), ReportsWindow::ExportFormat::GroupsCsv));
    QFile csv(out.filePath(QStringLiteral("groups.csv")));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().split('\n');
    QCOMPARE(lines[1], QByteArray("\"account\",\"physics\",3,2,46.000,22.000,18.000,6.000,45.0\r"));
    QCOMPARE(lines[3], QByteArray("\"account\",\"'-2+3\",1,0,1.000,0.000,0.000,1.000,\r"));
    QVERIFY(window.exportTo(out.filePath(QStringLiteral("weeks.csv")), ReportsWindow::ExportFormat::WeeksCsv));
    QFile weeksCsv(out.filePath(QStringLiteral("weeks.csv")));
    QVERIFY(weeksCsv.open(QIODevice::ReadOnly));
    QCOMPARE(weeksCsv.readAll().split('\n').value(1),
             QByteArray("2026-11-30T00:00:00Z,2026-12-07T00:00:00Z,4,3,37.000,17.000,19.000,1.000,52.8\r"));
    QVERIFY(window.exportTo(out.filePath(QStringLiteral("report.json")), ReportsWindow::ExportFormat::Json));
    QFile json(out.filePath(QStringLiteral("report.json")));
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(json.readAll()).object();
    QCOMPARE(o[u"schema"].toString(), QStringLiteral("strata.report/1"));
    QCOMPARE(o[u"groupedBy"].toString(), QStringLiteral("account"));
    QCOMPARE(o[u"jobs"].toArray().size(), 5);
    QCOMPARE(window.exportTo(out.filePath(QStringLiteral("no/such/dir/x.csv")), ReportsWindow::ExportFormat::JobsCsv), false);
    QVERIFY2(window.statusText().startsWith(QStringLiteral("Could not write")), qPrintable(window.statusText()));
}

void TstReportsWindow::cancelStopsTheRead()
{
    FakeReader fake;
    ReportsWindow window(fake.reader());
    QSignalSpy shown(&window, &ReportsWindow::reportShown);
    window.run();
    QVERIFY(window.isRunning());
    window.cancelButton()->click();
    QVERIFY(fake.promise->isCanceled());
    QCOMPARE(window.isRunning(), false);
    QCOMPARE(window.runButton()->isEnabled(), true);
    QVERIFY(window.statusText().startsWith(QStringLiteral("Cancelled")));
    // An answer that comes anyway is dropped.
    fake.answer(fixtureAnswer());
    QTest::qWait(50);
    QCOMPARE(shown.size(), 0);
    QCOMPARE(window.groupTable()->rowCount(), 0);
}

void TstReportsWindow::accountingFailureIsSaid()
{
    FakeReader fake;
    ReportsWindow window(fake.reader());
    QSignalSpy failed(&window, &ReportsWindow::readFailed);
    window.run();
    HistoryAnswer a;
    a.period = period();
    a.accountingError = QStringLiteral("no slurmdbd: accounting is not configured on this cluster (AccountingStorageType=accounting_storage/none)");
    a.accountingErrorKind = ErrorKind::NoAccounting;
    fake.answer(a);
    QTRY_COMPARE(failed.size(), 1);
    QCOMPARE(window.statusText(), a.accountingError);
    QCOMPARE(window.groupTable()->rowCount(), 0);
    QCOMPARE(window.exportTo(QDir::temp().filePath(QStringLiteral("strata-unused.csv")), ReportsWindow::ExportFormat::GroupsCsv), false);
}

void TstReportsWindow::metricsFailureIsSaid()
{
    FakeReader fake;
    ReportsWindow window(fake.reader());
    QSignalSpy shown(&window, &ReportsWindow::reportShown);
    window.run();
    HistoryAnswer a = fixtureAnswer();
    for (JobRecord &r : a.records)
        r.efficiency = JobEfficiency{};
    a.metricsError = QStringLiteral("no Prometheus in the profile");
    a.skippedRows = 2;
    fake.answer(a);
    QTRY_COMPARE(shown.size(), 1);
    QCOMPARE(cell(window.groupTable(), 4, 2), QStringLiteral("59.0"));
    QCOMPARE(cell(window.groupTable(), 4, 5), QStringLiteral("59.0")); // all unmeasured
    QVERIFY2(window.statusText().contains(QStringLiteral("GPU usage not measured (allocated hours only): no Prometheus in the profile")),
             qPrintable(window.statusText()));
    QVERIFY(window.statusText().contains(QStringLiteral("2 accounting row(s) unreadable")));
    QCOMPARE(window.wastefulTable()->rowCount(), 0);
    QVERIFY(window.findChild<QLabel *>(QStringLiteral("reportWastefulTitle")));
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("reportWastefulTitle"))->text(),
             QStringLiteral("Most idle GPU-hours: no job's GPUs were measured"));
}

void TstReportsWindow::customPeriod()
{
    FakeReader fake;
    ReportsWindow window(fake.reader());
    window.setCustomPeriod(period());
    QCOMPARE(window.chosenPeriod(QDateTime::currentDateTimeUtc()).start, period().start);
    QCOMPARE(window.chosenPeriod(QDateTime::currentDateTimeUtc()).end, period().end);
    // Backwards: refused before anything is read.
    window.setCustomPeriod(HistoryPeriod{period().end, period().start});
    window.run();
    QCOMPARE(fake.asked.size(), 0);
    QVERIFY(window.statusText().startsWith(QStringLiteral("The period is empty")));
    // Ending in the future: a running job would count hours that have not happened.
    const QDateTime now = QDateTime::currentDateTimeUtc();
    window.setCustomPeriod(HistoryPeriod{now.addDays(-1), now.addDays(1)});
    window.run();
    QCOMPARE(fake.asked.size(), 0);
    QVERIFY2(window.statusText().contains(QStringLiteral("in the future")), qPrintable(window.statusText()));
}

QTEST_MAIN(TstReportsWindow)
#include "tst_reports_window.moc"
