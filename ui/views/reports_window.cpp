#include "reports_window.h"

#include "models/job_record_table_model.h"
#include "model/usage_report_csv.h"
#include "model/usage_report_json.h"
#include "model/when_finished.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedBarSeries>
#include <QTableView>
#include <QTableWidget>
#include <QTabWidget>
#include <QTimer>
#include <QValueAxis>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace strata {

namespace {

constexpr int kTopWasteful = 20;
constexpr int kChartGroups = 12; // the rest of the groups as one bar, "others"

const QColor kUsed(0x2e, 0x8b, 0x57);
const QColor kIdle(0xe0, 0x8a, 0x1e);
const QColor kUnmeasured(0xa0, 0xa0, 0xa0);

QString hours(double value)
{
    return QString::number(value, 'f', 1);
}

QString percent(double fraction)
{
    return fraction < 0 ? QStringLiteral("–") : QStringLiteral("%1 %").arg(fraction * 100.0, 0, 'f', 0);
}

// The three stacked bars of both charts (used, idle, unmeasured GPU-hours), one value per category.
struct UsageBars
{
    QBarSet *used = new QBarSet(ReportsWindow::tr("Used"));
    QBarSet *idle = new QBarSet(ReportsWindow::tr("Idle"));
    QBarSet *unmeasured = new QBarSet(ReportsWindow::tr("Unmeasured"));

    UsageBars()
    {
        used->setColor(kUsed);
        idle->setColor(kIdle);
        unmeasured->setColor(kUnmeasured);
    }
    void append(const UsageReport::Figures &f)
    {
        *used << f.used();
        *idle << f.idle;
        *unmeasured << f.unmeasured();
    }
    void prepend(const UsageReport::Figures &f)
    {
        used->insert(0, f.used());
        idle->insert(0, f.idle);
        unmeasured->insert(0, f.unmeasured());
    }
    QList<QBarSet *> sets() const { return {used, idle, unmeasured}; }
};

// Tick labels that tell small totals apart (a lab's 0.8 GPU-hours) without decimals on large ones.
QString axisFormat(double largest)
{
    return largest >= 20 ? QStringLiteral("%.0f") : largest >= 2 ? QStringLiteral("%.1f") : QStringLiteral("%.2f");
}

QTableWidgetItem *textItem(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

QTableWidgetItem *numberItem(const QString &text, double sortValue)
{
    auto *item = textItem(text);
    item->setData(Qt::UserRole, sortValue);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QTableWidget *makeTable(const QStringList &header, const QString &name)
{
    auto *table = new QTableWidget(0, header.size());
    table->setObjectName(name);
    table->setHorizontalHeaderLabels(header);
    table->verticalHeader()->hide();
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setWordWrap(false);
    return table;
}

QChart *makeChart(const QString &title)
{
    auto *chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    return chart;
}

// A name from the cluster in a cell: one line, control characters as U+FFFD.
QString printable(const QString &key)
{
    return key.isEmpty() ? QObject::tr("(unknown)") : JobRecordTableModel::oneLine(key);
}

// ... and as a chart's category: not too long either.
QString label(const QString &key)
{
    const QString shown = printable(key);
    return shown.size() > 24 ? shown.left(23) + QChar(0x2026) : shown;
}

} // namespace

ReportsWindow::ReportsWindow(HistoryReader reader, QWidget *parent)
    : QWidget(parent, Qt::Window), m_reader(std::move(reader)), m_periodPicker(new QComboBox),
      m_from(new QDateTimeEdit), m_to(new QDateTimeEdit), m_grouping(new QComboBox),
      m_run(new QPushButton(tr("&Run"))), m_cancel(new QPushButton(tr("Ca&ncel"))),
      m_export(new QPushButton(tr("&Export"))), m_busy(new QProgressBar), m_elapsed(new QTimer(this)),
      m_status(new QLabel),
      m_groups(makeTable({tr("Group"), tr("Jobs"), tr("Allocated"), tr("Used"), tr("Idle"), tr("Unmeasured"),
                          tr("Idle %")},
                         QStringLiteral("reportGroups"))),
      m_groupChartView(new QChartView), m_groupChart(makeChart(tr("GPU-hours per group"))),
      m_weekChartView(new QChartView), m_weekChart(makeChart(tr("GPU-hours per week"))),
      m_wasteful(makeTable({tr("Job"), tr("User"), tr("Account"), tr("Partition"), tr("GPUs"), tr("Allocated"),
                            tr("Idle"), tr("Util"), tr("Name")},
                           QStringLiteral("reportWasteful"))),
      m_jobTabs(new QTabWidget), m_jobs(new JobRecordTableModel(this)), m_jobsProxy(new QSortFilterProxyModel(this)),
      m_jobsFilter(new QLineEdit), m_jobsView(new QTableView)
{
    setObjectName(QStringLiteral("reportsWindow"));
    setWindowTitle(tr("GPU-hours report"));
    resize(1200, 760);
    m_periodPicker->setObjectName(QStringLiteral("reportPeriod"));
    m_periodPicker->addItem(tr("Last 24 hours"), QStringLiteral("24h"));
    m_periodPicker->addItem(tr("Last 7 days"), QStringLiteral("7d"));
    m_periodPicker->addItem(tr("Last 30 days"), QStringLiteral("30d"));
    m_periodPicker->addItem(tr("Last 90 days"), QStringLiteral("90d"));
    m_periodPicker->addItem(tr("From… to…"), QStringLiteral("custom"));
    m_periodPicker->setCurrentIndex(1);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (QDateTimeEdit *edit : {m_from, m_to}) {
        edit->setTimeSpec(Qt::UTC);
        edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
        edit->setCalendarPopup(true);
        edit->setVisible(false);
    }
    m_from->setObjectName(QStringLiteral("reportFrom"));
    m_to->setObjectName(QStringLiteral("reportTo"));
    m_from->setDateTime(now.addDays(-7));
    m_to->setDateTime(now);
    m_grouping->setObjectName(QStringLiteral("reportGrouping"));
    m_grouping->addItem(tr("User"), int(UsageReport::Grouping::User));
    m_grouping->addItem(tr("Account"), int(UsageReport::Grouping::Account));
    m_grouping->addItem(tr("Partition"), int(UsageReport::Grouping::Partition));
    m_grouping->addItem(tr("Instance type"), int(UsageReport::Grouping::InstanceType));
    m_grouping->addItem(tr("Framework"), int(UsageReport::Grouping::Framework));
    m_run->setObjectName(QStringLiteral("reportRun"));
    m_cancel->setObjectName(QStringLiteral("reportCancel"));
    m_export->setObjectName(QStringLiteral("reportExport"));
    m_export->setEnabled(false);
    auto *exportMenu = new QMenu(m_export);
    for (const auto &[text, format] : {std::pair{tr("Groups as CSV…"), ExportFormat::GroupsCsv},
                                       std::pair{tr("Weeks as CSV…"), ExportFormat::WeeksCsv},
                                       std::pair{tr("Jobs as CSV…"), ExportFormat::JobsCsv},
                                       std::pair{tr("Report and jobs as JSON…"), ExportFormat::Json}})
        connect(exportMenu->addAction(text), &QAction::triggered, this, [this, format = format] {
            const bool json = format == ExportFormat::Json;
            const QString path = QFileDialog::getSaveFileName(this, tr("Export report"),
                                                              json ? QStringLiteral("strata-report.json")
                                                                   : QStringLiteral("strata-report.csv"),
                                                              json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
            if (!path.isEmpty())
                exportTo(path, format);
        });
    m_export->setMenu(exportMenu);
    m_busy->setObjectName(QStringLiteral("reportBusy"));
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(160);
    m_status->setObjectName(QStringLiteral("reportStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    for (QChartView *view : {m_groupChartView, m_weekChartView})
        view->setRenderHint(QPainter::Antialiasing);
    // setChart releases each view's own first chart without deleting it (Qt's documented
    // behaviour): delete those, or every report window leaks two charts (LeakSanitizer).
    for (const auto &[view, chart] : {std::pair{m_groupChartView, m_groupChart}, std::pair{m_weekChartView, m_weekChart}}) {
        QChart *placeholder = view->chart();
        view->setChart(chart);
        delete placeholder;
    }
    m_groupChartView->setObjectName(QStringLiteral("reportGroupChart"));
    m_weekChartView->setObjectName(QStringLiteral("reportWeekChart"));

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Period:")));
    controls->addWidget(m_periodPicker);
    controls->addWidget(m_from);
    controls->addWidget(m_to);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Group by:")));
    controls->addWidget(m_grouping);
    controls->addSpacing(12);
    controls->addWidget(m_run);
    controls->addWidget(m_cancel);
    controls->addWidget(m_busy);
    controls->addStretch(1);
    controls->addWidget(m_export);

    auto *top = new QSplitter(Qt::Horizontal);
    top->setObjectName(QStringLiteral("reportTopSplitter"));
    top->addWidget(m_groups);
    top->addWidget(m_groupChartView);
    top->setStretchFactor(0, 1);
    top->setStretchFactor(1, 1);
    top->setSizes({560, 640}); // the table's seven columns whole at 1200 px
    auto *bottom = new QSplitter(Qt::Horizontal);
    bottom->setObjectName(QStringLiteral("reportBottomSplitter"));
    bottom->addWidget(m_weekChartView);
    auto *wastefulBox = new QWidget;
    auto *wastefulLayout = new QVBoxLayout(wastefulBox);
    wastefulLayout->setContentsMargins(0, 0, 0, 0);
    m_wastefulTitle = new QLabel(tr("Most idle GPU-hours (measured jobs)"));
    m_wastefulTitle->setObjectName(QStringLiteral("reportWastefulTitle"));
    wastefulLayout->addWidget(m_wastefulTitle);
    wastefulLayout->addWidget(m_wasteful);
    m_jobsProxy->setSourceModel(m_jobs);
    m_jobsProxy->setSortRole(JobRecordTableModel::SortRole);
    m_jobsProxy->setFilterKeyColumn(-1);
    m_jobsProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_jobsFilter->setObjectName(QStringLiteral("reportJobsFilter"));
    m_jobsFilter->setPlaceholderText(tr("Filter jobs: id, name, user, account, partition, state…"));
    m_jobsFilter->setClearButtonEnabled(true);
    connect(m_jobsFilter, &QLineEdit::textChanged, m_jobsProxy, &QSortFilterProxyModel::setFilterFixedString);
    m_jobsView->setObjectName(QStringLiteral("reportJobs"));
    m_jobsView->setModel(m_jobsProxy);
    m_jobsView->setSortingEnabled(true);
    m_jobsView->sortByColumn(JobRecordTableModel::GpuHours, Qt::DescendingOrder);
    m_jobsView->verticalHeader()->hide();
    m_jobsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_jobsView->setWordWrap(false);
    m_jobsView->horizontalHeader()->setStretchLastSection(true);
    auto *jobsBox = new QWidget;
    auto *jobsLayout = new QVBoxLayout(jobsBox);
    jobsLayout->setContentsMargins(0, 0, 0, 0);
    jobsLayout->addWidget(m_jobsFilter);
    jobsLayout->addWidget(m_jobsView);
    m_jobTabs->setObjectName(QStringLiteral("reportJobTabs"));
    m_jobTabs->addTab(wastefulBox, tr("Most wasteful"));
    m_jobTabs->addTab(jobsBox, tr("All jobs"));
    bottom->addWidget(m_jobTabs);
    bottom->setStretchFactor(0, 1);
    bottom->setStretchFactor(1, 1);
    bottom->setSizes({560, 640});
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(bottom);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    connect(m_periodPicker, &QComboBox::currentIndexChanged, this, [this] {
        const bool custom = m_periodPicker->currentData().toString() == QLatin1String("custom");
        m_from->setVisible(custom);
        m_to->setVisible(custom);
    });
    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(m_run, &QPushButton::clicked, this, [this] { run(); });
    connect(m_cancel, &QPushButton::clicked, this, [this] { cancel(); });
    m_elapsed->setInterval(500);
    connect(m_elapsed, &QTimer::timeout, this, &ReportsWindow::tick);
    setRunning(false);
    say(tr("Pick a period and Run: GPU-hours from the scheduler's accounting, used and idle from Prometheus."), false);
}

ReportsWindow::~ReportsWindow()
{
    // The session would go on reading for a window that is gone.
    if (m_reading)
        m_pending.cancel();
}

HistoryPeriod ReportsWindow::chosenPeriod(const QDateTime &nowUtc) const
{
    const QString word = m_periodPicker->currentData().toString();
    if (word == QLatin1String("custom"))
        return HistoryPeriod{m_from->dateTime().toUTC(), m_to->dateTime().toUTC()};
    return HistoryPeriod::parse(word, nowUtc).value_or(HistoryPeriod{});
}

void ReportsWindow::choosePeriod(const QString &word)
{
    const int index = m_periodPicker->findData(word);
    if (index >= 0)
        m_periodPicker->setCurrentIndex(index);
}

void ReportsWindow::setCustomPeriod(const HistoryPeriod &period)
{
    choosePeriod(QStringLiteral("custom"));
    m_from->setDateTime(period.start);
    m_to->setDateTime(period.end);
}

void ReportsWindow::chooseGrouping(UsageReport::Grouping grouping)
{
    m_grouping->setCurrentIndex(m_grouping->findData(int(grouping)));
}

bool ReportsWindow::isRunning() const
{
    return m_reading;
}

void ReportsWindow::run()
{
    if (isRunning())
        return;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const HistoryPeriod period = chosenPeriod(now);
    if (!period.isValid()) {
        say(tr("The period is empty: \"from\" must come before \"to\"."), true);
        return;
    }
    if (period.end > now.addSecs(60)) {
        // A running job counts up to the period's end: hours that have not happened yet.
        say(tr("\"To\" is in the future: pick a time up to now."), true);
        return;
    }
    m_runStartedMs = QDateTime::currentMSecsSinceEpoch();
    m_pending = m_reader(period);
    setRunning(true);
    m_elapsed->start();
    tick();
    const int generation = ++m_generation;
    whenFinished(
        m_pending, this,
        [this, generation](const HistoryAnswer &answer) {
            if (generation == m_generation)
                answered(answer);
        },
        [this, generation](const QString &why) {
            if (generation != m_generation)
                return;
            setRunning(false);
            say(tr("Reading history failed: %1").arg(why), true);
            Q_EMIT readFailed(why);
        });
}

void ReportsWindow::tick()
{
    const qint64 seconds = (QDateTime::currentMSecsSinceEpoch() - m_runStartedMs) / 1000;
    // The session's step ("reading accounting", "reading GPU usage") when it names one.
    QString step = m_pending.progressText();
    if (step.isEmpty())
        step = tr("reading accounting and GPU usage");
    step[0] = step[0].toUpper();
    say(tr("%1… %2 s").arg(step).arg(seconds), false);
}

void ReportsWindow::cancel()
{
    if (!isRunning())
        return;
    ++m_generation;
    m_pending.cancel();
    setRunning(false);
    say(tr("Cancelled: the report shown (if any) is the one before."), false);
}

void ReportsWindow::answered(const HistoryAnswer &answer)
{
    setRunning(false);
    const qint64 ms = QDateTime::currentMSecsSinceEpoch() - m_runStartedMs;
    if (!answer.accountingError.isEmpty()) {
        say(answer.accountingError, true);
        Q_EMIT readFailed(answer.accountingError);
        return;
    }
    m_records = std::make_shared<const QVector<JobRecord>>(answer.records);
    m_period = answer.period.isValid() ? answer.period : chosenPeriod(QDateTime::currentDateTimeUtc());
    QStringList notes;
    notes << tr("%n job(s) read in %1 s", nullptr, int(answer.records.size())).arg(double(ms) / 1000.0, 0, 'f', 1);
    if (answer.skippedRows > 0)
        notes << tr("%n accounting row(s) unreadable, not counted", nullptr, answer.skippedRows);
    if (!answer.metricsError.isEmpty())
        notes << tr("GPU usage not measured (allocated hours only): %1").arg(answer.metricsError);
    for (const QString &w : answer.warnings)
        notes << w;
    m_warnings = notes.join(QStringLiteral(" · "));
    rebuild();
}

void ReportsWindow::rebuild()
{
    if (!m_records)
        return;
    const int generation = ++m_generation;
    const auto grouping = UsageReport::Grouping(m_grouping->currentData().toInt());
    m_building = QtConcurrent::run([records = m_records, period = m_period, grouping] {
        return UsageReport::build(*records, period, grouping, kTopWasteful);
    });
    whenFinished(m_building, this, [this, generation](const UsageReport &report) {
        if (generation == m_generation)
            showReport(report);
    });
}

void ReportsWindow::showReport(const UsageReport &report)
{
    m_report = report;
    showGroups();
    showGroupChart();
    showWeekChart();
    showWasteful();
    showJobs();
    m_export->setEnabled(true);
    const bool warned = !m_warnings.isEmpty() && m_warnings.contains(QStringLiteral("not measured"));
    say(tr("%1 to %2 UTC: %3 GPU-hours allocated, %4 used, %5 idle (%6 of the measured), %7 unmeasured. %8")
            .arg(report.period.start.toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                 report.period.end.toString(QStringLiteral("yyyy-MM-dd HH:mm")), hours(report.total.allocated),
                 hours(report.total.used()), hours(report.total.idle), percent(report.total.idleFraction()),
                 hours(report.total.unmeasured()), m_warnings),
        warned);
    Q_EMIT reportShown();
}

void ReportsWindow::showGroups()
{
    m_groups->setSortingEnabled(false);
    m_groups->setRowCount(0);
    m_groups->setRowCount(int(m_report.groups.size()) + 1);
    const auto fill = [this](int row, const QString &key, const UsageReport::Figures &f) {
        m_groups->setItem(row, 0, textItem(key));
        m_groups->setItem(row, 1, numberItem(QString::number(f.jobs), f.jobs));
        m_groups->setItem(row, 2, numberItem(hours(f.allocated), f.allocated));
        m_groups->setItem(row, 3, numberItem(hours(f.used()), f.used()));
        m_groups->setItem(row, 4, numberItem(hours(f.idle), f.idle));
        m_groups->setItem(row, 5, numberItem(hours(f.unmeasured()), f.unmeasured()));
        m_groups->setItem(row, 6, numberItem(percent(f.idleFraction()), f.idleFraction()));
    };
    int row = 0;
    for (const UsageReport::Group &g : m_report.groups)
        fill(row++, printable(g.key), g.figures);
    fill(row, tr("Total"), m_report.total);
    QFont bold = m_groups->font();
    bold.setBold(true);
    for (int c = 0; c < m_groups->columnCount(); ++c)
        m_groups->item(row, c)->setFont(bold);
    m_groups->resizeColumnsToContents();
}

void ReportsWindow::showGroupChart()
{
    m_groupChart->removeAllSeries();
    // removeAxis hands the axis back to the caller (Qt's documented behaviour): delete it.
    for (QAbstractAxis *axis : m_groupChart->axes()) {
        m_groupChart->removeAxis(axis);
        delete axis;
    }
    UsageBars bars;
    QStringList categories;
    UsageReport::Figures others;
    const qsizetype shown = std::min<qsizetype>(m_report.groups.size(), kChartGroups);
    // Largest at the top: a horizontal bar chart draws its first category at the bottom.
    for (qsizetype i = shown - 1; i >= 0; --i) {
        const UsageReport::Group &g = m_report.groups[i];
        categories << label(g.key);
        bars.append(g.figures);
    }
    for (qsizetype i = shown; i < m_report.groups.size(); ++i) {
        others.allocated += m_report.groups[i].figures.allocated;
        others.measured += m_report.groups[i].figures.measured;
        others.idle += m_report.groups[i].figures.idle;
    }
    if (m_report.groups.size() > shown) {
        categories.prepend(tr("%n other(s)", nullptr, int(m_report.groups.size() - shown)));
        bars.prepend(others);
    }
    auto *series = new QHorizontalStackedBarSeries;
    series->append(bars.sets());
    m_groupChart->addSeries(series);
    auto *axisY = new QBarCategoryAxis;
    axisY->append(categories);
    auto *axisX = new QValueAxis;
    axisX->setTitleText(tr("GPU-hours"));
    axisX->setLabelFormat(axisFormat(m_report.groups.isEmpty() ? 0 : m_report.groups.first().figures.allocated));
    m_groupChart->addAxis(axisY, Qt::AlignLeft);
    m_groupChart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisY);
    series->attachAxis(axisX);
    axisX->applyNiceNumbers();
    m_groupChart->setTitle(tr("GPU-hours per %1").arg(m_grouping->currentText().toLower()));
}

void ReportsWindow::showWeekChart()
{
    m_weekChart->removeAllSeries();
    // removeAxis hands the axis back to the caller (Qt's documented behaviour): delete it.
    for (QAbstractAxis *axis : m_weekChart->axes()) {
        m_weekChart->removeAxis(axis);
        delete axis;
    }
    UsageBars bars;
    QStringList categories;
    for (const UsageReport::Week &w : m_report.weeks) {
        categories << w.start.toString(QStringLiteral("MMM d"));
        bars.append(w.figures);
    }
    auto *series = new QStackedBarSeries;
    series->append(bars.sets());
    m_weekChart->addSeries(series);
    auto *axisX = new QBarCategoryAxis;
    axisX->append(categories);
    auto *axisY = new QValueAxis;
    double largest = 0;
    for (const UsageReport::Week &w : m_report.weeks)
        largest = std::max(largest, w.figures.allocated);
    axisY->setTitleText(tr("GPU-hours"));
    axisY->setLabelFormat(axisFormat(largest));
    m_weekChart->addAxis(axisX, Qt::AlignBottom);
    m_weekChart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisX);
    series->attachAxis(axisY);
    axisY->applyNiceNumbers();
}

void ReportsWindow::showWasteful()
{
    m_wasteful->setSortingEnabled(false);
    m_wasteful->setRowCount(0);
    m_wasteful->setRowCount(int(m_report.wasteful.size()));
    int row = 0;
    for (const UsageReport::WastefulJob &j : m_report.wasteful) {
        const JobRecord &r = j.record;
        const double util = r.efficiency.utilMeanPercent;
        m_wasteful->setItem(row, 0, textItem(r.id));
        m_wasteful->setItem(row, 1, textItem(printable(r.user)));
        m_wasteful->setItem(row, 2, textItem(printable(r.account)));
        m_wasteful->setItem(row, 3, textItem(printable(r.partition)));
        m_wasteful->setItem(row, 4, numberItem(QString::number(r.gpus), r.gpus));
        m_wasteful->setItem(row, 5, numberItem(hours(j.allocated), j.allocated));
        m_wasteful->setItem(row, 6, numberItem(hours(r.efficiency.gpuHoursIdle), r.efficiency.gpuHoursIdle));
        m_wasteful->setItem(row, 7, numberItem(util < 0 ? QStringLiteral("–") : QStringLiteral("%1 %").arg(util, 0, 'f', 0), util));
        QTableWidgetItem *name = textItem(printable(r.name));
        name->setToolTip(r.name.toHtmlEscaped());
        m_wasteful->setItem(row, 8, name);
        ++row;
    }
    m_wasteful->resizeColumnsToContents();
    m_wastefulTitle->setText(!m_report.wasteful.isEmpty() ? tr("Most idle GPU-hours (measured jobs)")
                             : m_report.total.jobsMeasured > 0 ? tr("Most idle GPU-hours: no measured job held a GPU idle")
                                                               : tr("Most idle GPU-hours: no job's GPUs were measured"));
}

void ReportsWindow::showJobs()
{
    // Another grouping rebuilds the report from the same records: the jobs stay as they are.
    if (m_jobsShown == m_records)
        return;
    m_jobsShown = m_records;
    m_jobs->setRecords(m_records, m_period);
    m_jobsView->resizeColumnsToContents();
    m_jobTabs->setTabText(1, tr("All jobs (%1)").arg(m_jobs->rowCount()));
}

void ReportsWindow::setRunning(bool running)
{
    m_reading = running;
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_busy->setVisible(running);
    m_periodPicker->setEnabled(!running);
    if (!running)
        m_elapsed->stop();
}

void ReportsWindow::say(const QString &text, bool bad)
{
    m_status->setText(text);
    m_status->setStyleSheet(bad ? QStringLiteral("color: #b00020;") : QString());
}

QString ReportsWindow::statusText() const
{
    return m_status->text();
}

bool ReportsWindow::exportTo(const QString &path, ExportFormat format)
{
    if (!m_records) {
        say(tr("Nothing to export yet: Run a report first."), true);
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        say(tr("Could not write %1: %2").arg(path, file.errorString()), true);
        return false;
    }
    switch (format) {
    case ExportFormat::GroupsCsv: file.write(UsageReportCsv::groups(m_report)); break;
    case ExportFormat::WeeksCsv: file.write(UsageReportCsv::weeks(m_report)); break;
    case ExportFormat::JobsCsv: file.write(UsageReportCsv::jobs(*m_records, m_report.period)); break;
    case ExportFormat::Json:
        UsageReportJson::write(m_report, m_records.get(), [&file](const QByteArray &piece) { file.write(piece); });
        break;
    }
    if (!file.commit()) {
        say(tr("Could not write %1: %2").arg(path, file.errorString()), true);
        return false;
    }
    say(tr("Exported to %1").arg(path), false);
    return true;
}

} // namespace strata
