#pragma once

#include "model/history_answer.h"
#include "model/usage_report.h"

#include <QFuture>
#include <QWidget>

#include <functional>
#include <memory>

class QChart;
class QChartView;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;
class QTabWidget;
class QTimer;

namespace strata {

class JobRecordTableModel;

// GPU-hours over a period (issue 32): pick a period (24 hours to 90 days, or from/to), Run
// reads the history through the session (ClusterSession::readHistory, asynchronous: a busy bar
// with the time taken, Cancel stops it), then the report (UsageReport, built on a pool thread)
// shows as a table per group (user, account, partition, instance type, framework; changing the
// grouping rebuilds from the records read, without reading again), a bar chart of used, idle
// and unmeasured GPU-hours per group, a weekly trend chart, the most wasteful jobs and every
// job of the period with its efficiency (a Jobs tab: sortable, filtered as one types); Export
// writes CSV or JSON (strata.report/1) as `strata report` does. The window opens no connection:
// it is handed the reader. GUI thread; a child of the main window, closed with its session.
class ReportsWindow : public QWidget
{
    Q_OBJECT
public:
    using HistoryReader = std::function<QFuture<HistoryAnswer>(const HistoryPeriod &)>;
    explicit ReportsWindow(HistoryReader reader, QWidget *parent = nullptr);
    ~ReportsWindow() override;

    enum class ExportFormat { GroupsCsv, WeeksCsv, JobsCsv, Json };

    // The period the picker names at `nowUtc`.
    HistoryPeriod chosenPeriod(const QDateTime &nowUtc) const;
    // "24h", "7d", "30d", "90d" or "custom" (from/to).
    void choosePeriod(const QString &word);
    void setCustomPeriod(const HistoryPeriod &period);
    void chooseGrouping(UsageReport::Grouping grouping);
    void run();
    void cancel();
    bool isRunning() const;
    // Writes the shown report; false with the reason in statusText() when it could not.
    bool exportTo(const QString &path, ExportFormat format);

    const UsageReport &report() const { return m_report; }
    QString statusText() const;
    QTableWidget *groupTable() const { return m_groups; }
    QTableWidget *wastefulTable() const { return m_wasteful; }
    // The Jobs tab: every job of the last read, sorted and filtered by the view's proxy.
    QTableView *jobsView() const { return m_jobsView; }
    JobRecordTableModel *jobsModel() const { return m_jobs; }
    QSortFilterProxyModel *jobsProxy() const { return m_jobsProxy; }
    QLineEdit *jobsFilter() const { return m_jobsFilter; }
    QTabWidget *jobTabs() const { return m_jobTabs; }
    QChart *groupChart() const { return m_groupChart; }
    QChart *weekChart() const { return m_weekChart; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }

Q_SIGNALS:
    // The report shown changed (a read ended, or the grouping changed), or a read failed.
    void reportShown();
    void readFailed(const QString &why);

private:
    void answered(const HistoryAnswer &answer);
    void rebuild();
    void showReport(const UsageReport &report);
    void showGroups();
    void showGroupChart();
    void showWeekChart();
    void showWasteful();
    void showJobs();
    void setRunning(bool running);
    void say(const QString &text, bool bad);
    void tick();

    HistoryReader m_reader;
    QFuture<HistoryAnswer> m_pending;
    QFuture<UsageReport> m_building;
    std::shared_ptr<const QVector<JobRecord>> m_records; // of the last answer, shared with builds
    std::shared_ptr<const QVector<JobRecord>> m_jobsShown; // the records the Jobs tab shows
    HistoryPeriod m_period;                                // the last answer's
    UsageReport m_report;
    QString m_warnings; // the last answer's metrics error, skipped rows, warnings
    qint64 m_runStartedMs = 0;
    bool m_reading = false; // a read is out (a cancelled one is not: its answer is dropped)
    int m_generation = 0; // a build for an older grouping or answer is dropped

    QComboBox *m_periodPicker;
    QDateTimeEdit *m_from;
    QDateTimeEdit *m_to;
    QComboBox *m_grouping;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QPushButton *m_export;
    QProgressBar *m_busy;
    QTimer *m_elapsed;
    QLabel *m_status;
    QTableWidget *m_groups;
    QChartView *m_groupChartView;
    QChart *m_groupChart;
    QChartView *m_weekChartView;
    QChart *m_weekChart;
    QLabel *m_wastefulTitle = nullptr;
    QTableWidget *m_wasteful;
    QTabWidget *m_jobTabs;
    JobRecordTableModel *m_jobs;
    QSortFilterProxyModel *m_jobsProxy;
    QLineEdit *m_jobsFilter;
    QTableView *m_jobsView;
};

} // namespace strata
