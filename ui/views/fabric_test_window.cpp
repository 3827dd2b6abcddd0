#include "fabric_test_window.h"

#include "burnin/fabric_fleet_history.h"
#include "fabric/fabric_history_entry.h"
#include "fabric/fabric_test_runner.h"
#include "model/pool_task.h"
#include "model/when_finished.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace strata {

namespace {

enum Column { RoundColumn, NodesColumn, JobColumn, BusbwColumn, LatencyColumn, JudgedColumn, FleetColumn, ColumnCount };

QString gbps(double v)
{
    return QString::number(v, 'f', v < 10 ? 3 : 1);
}

} // namespace

FabricTestWindow::FabricTestWindow(FabricTestRunner *runner, const FabricRequest &request, const QString &floorSource, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_runner(runner)
    , m_request(request)
    , m_backend(new QComboBox(this))
    , m_isolate(new QCheckBox(tr("Find the node responsible when the set falls short (bisection rounds)"), this))
    , m_floor(new QDoubleSpinBox(this))
    , m_start(new QPushButton(tr("&Start"), this))
    , m_cancel(new QPushButton(tr("&Cancel test"), this))
    , m_table(new QTableWidget(0, ColumnCount, this))
    , m_stage(new QLabel(this))
    , m_verdict(new QLabel(this))
{
    m_runner->setParent(this);
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("Fabric test: %1").arg(request.nodes.join(QLatin1Char(','))));
    m_backend->addItem(tr("auto: NCCL, one rank per GPU (nccl-tests where installed)"), QStringLiteral("auto"));
    m_backend->addItem(tr("gloo: CPU, one rank per node (no GPU needed)"), QStringLiteral("gloo"));
    m_backend->addItem(tr("nccl: the torch probe with NCCL"), QStringLiteral("nccl"));
    if (request.backend == QLatin1String("gloo"))
        m_backend->setCurrentIndex(1);
    m_isolate->setChecked(request.isolate);
    m_floor->setRange(0, 100000);
    m_floor->setDecimals(1);
    m_floor->setSuffix(tr(" GB/s"));
    m_floor->setSpecialValueText(tr("none: judge the nodes against each other"));
    m_floor->setValue(request.floorGBps);
    m_floor->setToolTip(floorSource);

    auto *form = new QFormLayout;
    form->addRow(tr("Nodes:"), new QLabel(tr("%n node(s): %1", nullptr, int(request.nodes.size())).arg(request.nodes.join(QLatin1String(", "))), this));
    form->addRow(tr("Backend:"), m_backend);
    form->addRow(tr("Floor (all-reduce busbw):"), m_floor);
    auto *source = new QLabel(floorSource, this);
    source->setWordWrap(true);
    form->addRow(QString(), source);
    form->addRow(QString(), m_isolate);

    m_table->setHorizontalHeaderLabels({tr("Round"), tr("Nodes"), tr("Job"), tr("Bus bandwidth (GB/s)"), tr("Latency (µs)"), tr("Judged"), tr("Against the fleet")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(NodesColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(JudgedColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(FleetColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeaderItem(FleetColumn)->setToolTip(
        tr("The group's bus bandwidth against earlier tests of the same instance type, node count, tool and message size "
           "(median and MAD). Shown beside the verdict against the floor; it does not change it."));
    m_stage->setWordWrap(true);
    m_stage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_cancel->setEnabled(false);
    m_stage->setText(m_runner->transportKind() == FabricTransportKind::Kubernetes
                         ? tr("Cordons these nodes (those Strata cordons are uncordoned at the end) and runs each group as an "
                              "Indexed Job, one pod per node, in image %1.").arg(request.image)
                         : tr("Starts a maintenance reservation over these nodes and runs exclusive test jobs in it; "
                              "nodes running jobs must be drained first."));

    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_start);
    buttons->addWidget(m_cancel);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_stage);
    layout->addWidget(m_verdict);
    layout->addLayout(buttons);
    resize(900, 520);

    connect(m_start, &QPushButton::clicked, this, &FabricTestWindow::start);
    connect(m_cancel, &QPushButton::clicked, m_runner, &FabricTestRunner::cancel);
    connect(m_runner, &FabricTestRunner::stageChanged, m_stage, &QLabel::setText);
    connect(m_runner, &FabricTestRunner::roundStarted, this, &FabricTestWindow::roundStarted);
    connect(m_runner, &FabricTestRunner::groupFinished, this, &FabricTestWindow::groupFinished);
    connect(m_runner, &FabricTestRunner::finished, this, [this](const FabricVerdict &v) {
        finish(tr("%1: %2").arg(fabricVerdictName(v.kind), v.explanation),
               v.kind == FabricVerdictKind::MeetsExpectation || v.kind == FabricVerdictKind::NoOutlier || v.kind == FabricVerdictKind::Measured);
        judgeAgainstFleet();
    });
    connect(m_runner, &FabricTestRunner::failed, this, [this](const QString &error) { finish(tr("The test did not finish: %1").arg(error), false); });
}

FabricTestWindow::~FabricTestWindow() = default;

void FabricTestWindow::setFleetHistory(const QString &historyPath, const QString &instanceType)
{
    m_historyPath = historyPath;
    m_instanceType = instanceType;
}

QString FabricTestWindow::fleetText(int row) const
{
    const QTableWidgetItem *item = m_table->item(row, FleetColumn);
    return item ? item->text() : QString();
}

QString FabricTestWindow::stageText() const
{
    return m_stage->text();
}

QString FabricTestWindow::verdictText() const
{
    return m_verdict->text();
}

void FabricTestWindow::refuseStart(const QString &reason)
{
    m_refusal = reason;
    m_start->setEnabled(false);
    m_verdict->setText(tr("The test cannot start: %1").arg(reason));
}

void FabricTestWindow::start()
{
    if (m_runner->isRunning() || !m_refusal.isEmpty())
        return;
    m_request.backend = m_backend->currentData().toString();
    if (m_request.backend == QLatin1String("gloo"))
        m_request.gpusPerNode = 0;
    m_request.isolate = m_isolate->isChecked();
    m_request.floorGBps = m_floor->value();
    m_table->setRowCount(0);
    m_fleetRecords.clear();
    m_fleetRows.clear();
    ++m_runGeneration;
    m_verdict->clear();
    m_finished = false;
    for (QWidget *w : {static_cast<QWidget *>(m_backend), static_cast<QWidget *>(m_isolate), static_cast<QWidget *>(m_floor),
                       static_cast<QWidget *>(m_start)})
        w->setEnabled(false);
    m_cancel->setEnabled(true);
    m_runner->start(m_request);
}

void FabricTestWindow::roundStarted(int round, const QList<QStringList> &groups, const QStringList &jobIds)
{
    for (int i = 0; i < groups.size(); ++i) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        const QStringList cells{QString::number(round), groups.at(i).join(QLatin1String(", ")), jobIds.value(i), QString(), QString(), tr("running"), QString()};
        for (int c = 0; c < ColumnCount; ++c)
            m_table->setItem(row, c, new QTableWidgetItem(cells.at(c)));
    }
    m_table->scrollToBottom();
}

void FabricTestWindow::groupFinished(int round, const FabricGroupResult &result, bool shortOfReference)
{
    for (int row = 0; row < m_table->rowCount(); ++row) {
        if (m_table->item(row, RoundColumn)->text() != QString::number(round) || m_table->item(row, JobColumn)->text() != result.jobId)
            continue;
        if (!result.error.isEmpty()) {
            m_table->item(row, JudgedColumn)->setText(tr("no figure: %1").arg(result.error));
            m_table->item(row, JudgedColumn)->setToolTip(result.error);
            m_table->item(row, JudgedColumn)->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
            return;
        }
        m_table->item(row, BusbwColumn)->setText(gbps(result.figureGBps()));
        m_table->item(row, LatencyColumn)->setText(QString::number(result.smallestMessageSeconds() * 1e6, 'f', 1));
        m_table->item(row, JudgedColumn)->setText(shortOfReference ? tr("SHORT") : tr("ok"));
        QFont bold = m_table->font();
        bold.setBold(shortOfReference);
        m_table->item(row, JudgedColumn)->setFont(bold);
        FabricRoundGroup group;
        group.result = result;
        group.shortOfReference = shortOfReference;
        if (const auto record = fabricHistoryEntry(group, m_runner->request().tag, QDateTime::currentDateTimeUtc(), m_instanceType)) {
            m_fleetRecords << *record;
            m_fleetRows << row;
        }
        return;
    }
}

void FabricTestWindow::finish(const QString &text, bool good)
{
    m_finished = true;
    m_verdict->setText(text);
    QFont f = m_verdict->font();
    f.setBold(!good);
    m_verdict->setFont(f);
    for (QWidget *w : {static_cast<QWidget *>(m_backend), static_cast<QWidget *>(m_isolate), static_cast<QWidget *>(m_floor),
                       static_cast<QWidget *>(m_start)})
        w->setEnabled(true);
    m_cancel->setEnabled(false);
    Q_EMIT ended();
}

// The history is SQLite on disk: read and written on a pool thread, the column filled back here.
void FabricTestWindow::judgeAgainstFleet()
{
    if (m_historyPath.isEmpty() || m_fleetRecords.isEmpty())
        return;
    for (int row : std::as_const(m_fleetRows))
        m_table->item(row, FleetColumn)->setText(tr("reading the history…"));
    const quint64 generation = m_runGeneration;
    const QList<int> rows = m_fleetRows;
    whenFinished(runOnPool(nullptr, &FabricFleetHistory::judge, m_historyPath, m_fleetRecords, true), this,
                 [this, generation, rows](const FabricFleetHistory &judged) {
                     if (generation != m_runGeneration)
                         return;
                     for (int i = 0; i < rows.size() && i < judged.standings.size(); ++i) {
                         const FleetComparison &c = judged.standings.at(i);
                         QTableWidgetItem *item = m_table->item(rows.at(i), FleetColumn);
                         const QString explanation = c.explanation.isEmpty() ? judged.error : c.explanation;
                         item->setText(c.standing == FleetComparison::Standing::Outlier
                                           ? tr("OUTLIER: %1").arg(explanation)
                                           : tr("%1: %2").arg(fleetStandingName(c.standing), explanation));
                         item->setToolTip(explanation);
                         QFont bold = m_table->font();
                         bold.setBold(c.standing == FleetComparison::Standing::Outlier);
                         item->setFont(bold);
                     }
                     if (!judged.error.isEmpty())
                         m_stage->setText(tr("History: %1").arg(judged.error));
                 });
}

void FabricTestWindow::closeEvent(QCloseEvent *event)
{
    // A run goes on only as long as its window. Cancelling cancels its jobs and deletes its
    // reservation, which takes a few remote commands: the runner outlives the window until then.
    if (m_runner->isRunning()) {
        FabricTestRunner *runner = m_runner;
        runner->disconnect(this);
        runner->setParent(nullptr);
        connect(runner, &FabricTestRunner::finished, runner, &QObject::deleteLater);
        connect(runner, &FabricTestRunner::failed, runner, &QObject::deleteLater);
        runner->cancel();
    }
    event->accept();
}

} // namespace strata
