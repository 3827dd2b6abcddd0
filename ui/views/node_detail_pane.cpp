#include "node_detail_pane.h"

#include "charts/burnin_history_panel.h"
#include "charts/gpu_history_loader.h"
#include "charts/gpu_time_series_chart.h"
#include "color_map.h"
#include "models/node_table_model.h"
#include "wheel_focus_guard.h"
#include "workload_text.h"

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace strata {

NodeDetailPane::NodeDetailPane(QWidget *parent)
    : DetailPane(QStringLiteral("nodeDetail"), parent), m_gpus(new QTableWidget(this)), m_jobs(new QListWidget(this))
{
    GpuTimeSeriesChart *chart = createHistoryChart();
    m_burninHistory = new BurninHistoryPanel(this);
    m_state = addRow(tr("State"), ValueText::Plain);
    m_state->setTextFormat(Qt::RichText);
    m_reason = addRow(tr("Reason"), ValueText::Plain);
    m_partitions = addRow(tr("Partitions"), ValueText::Plain);
    m_hardware = addRow(tr("Hardware"), ValueText::Plain);
    m_usage = addRow(tr("In use"), ValueText::Plain);
    m_fabric = addRow(tr("Fabric"), ValueText::Plain);
    m_fabric->setObjectName(QStringLiteral("nodeFabric"));
    m_storage = addRow(tr("Shared storage"), ValueText::Plain);
    m_storage->setObjectName(QStringLiteral("nodeStorage"));

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("nodeDetailSplitter"));
    m_gpus->setColumnCount(6);
    m_gpus->setHorizontalHeaderLabels({tr("GPU"), tr("Util"), tr("Temp"), tr("Power"), tr("Memory"), tr("Job")});
    m_gpus->verticalHeader()->hide();
    m_gpus->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_gpus->verticalHeader()->setDefaultSectionSize(m_gpus->fontMetrics().height() + 4);
    m_gpus->setMinimumHeight((m_gpus->fontMetrics().height() + 4) * 9 + 6); // 8 GPUs and the header
    m_gpus->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_gpus->setSelectionBehavior(QAbstractItemView::SelectRows);
    // The dock is narrow (about 40 characters): the short columns keep what they hold and
    // the memory column takes what is left, eliding, instead of the table scrolling sideways.
    m_gpus->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_gpus->setTextElideMode(Qt::ElideRight);
    m_gpus->setWordWrap(false);
    m_gpus->horizontalHeader()->setMinimumSectionSize(m_gpus->fontMetrics().horizontalAdvance(QStringLiteral("00")) + 8);
    m_gpus->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_gpus->horizontalHeader()->setSectionResizeMode(4, QHeaderView::Stretch);
    m_gpus->horizontalHeader()->setTextElideMode(Qt::ElideRight);
    m_gpus->setObjectName(QStringLiteral("nodeGpus"));
    auto *jobsBox = new QWidget(splitter);
    auto *jobsLayout = new QVBoxLayout(jobsBox);
    jobsLayout->setContentsMargins(0, 0, 0, 0);
    auto *jobsLabel = new QLabel(tr("Jobs on this node (double-click to open):"), jobsBox);
    jobsLabel->setWordWrap(true);
    jobsLayout->addWidget(jobsLabel);
    jobsLayout->addWidget(m_jobs);
    m_jobs->setObjectName(QStringLiteral("nodeJobs"));
    // Long job names wrap at the dock's width rather than scrolling the list sideways.
    m_jobs->setWordWrap(true);
    m_jobs->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    splitter->addWidget(m_gpus);
    splitter->addWidget(jobsBox);
    splitter->addWidget(chart);
    splitter->addWidget(m_burninHistory);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 1);
    splitter->setStretchFactor(2, 3);
    splitter->setStretchFactor(3, 2);
    paneLayout()->addWidget(splitter, 1);

    connect(m_jobs, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        Q_EMIT jobPicked(item->data(Qt::UserRole).toString());
    });
    WheelFocusGuard::guardChildren(this); // the pane scrolls in its dock
}

QString NodeDetailPane::stateText() const
{
    return m_state->text();
}

void NodeDetailPane::setBurninHistoryPath(const QString &path)
{
    m_burninHistory->setHistoryPath(path);
}

void NodeDetailPane::reloadBurninHistory()
{
    m_burninHistory->reload();
}

void NodeDetailPane::showNode(const SnapshotPtr &snapshot, const QString &name)
{
    m_name = name;
    m_burninHistory->showNode(name);
    const Node *node = snapshot ? snapshot->node(name) : nullptr;
    if (!node) {
        title()->setText(tr("%1: no longer reported by the cluster").arg(name));
        m_gpus->setRowCount(0);
        m_jobs->clear();
        historyLoader()->setTargets({});
        return;
    }
    title()->setText(node->name);
    const QString category = NodeTableModel::stateCategory(*node);
    m_state->setText(QStringLiteral("<span style=\"color:%1\">\u25cf</span> %2 (%3)")
                         .arg(ColorMap::nodeStateColor(category).name(), node->state.toHtmlEscaped(), category));
    m_reason->setText(node->reason.isEmpty()
                          ? UnitFormatter::dash()
                          : QStringLiteral("%1 (set by %2)").arg(node->reason, node->reasonUser));
    m_partitions->setText(node->partitions.join(QStringLiteral(", ")));
    m_hardware->setText(tr("%1 \u00b7 %2 \u00d7 %3 \u00b7 %4 CPUs \u00b7 %5 memory")
                            .arg(node->instanceType.isEmpty() ? tr("instance type unknown") : node->instanceType)
                            .arg(node->gpuCountKnown() ? QString::number(node->gpuCount) : QStringLiteral("?"))
                            .arg(node->gpuModel.isEmpty() ? tr("GPU") : node->gpuModel)
                            .arg(node->cpus)
                            .arg(m_formatter.memoryMiB(double(node->memoryMiB))));
    m_usage->setText(tr("%1 of %2 GPUs, %3 of %4 CPUs")
                         .arg(node->gpuCountKnown() ? QString::number(node->gpusAllocated) : QStringLiteral("?"))
                         .arg(node->gpuCountKnown() ? QString::number(node->gpuCount) : node->gpuCountRefused)
                         .arg(node->cpusAllocated).arg(node->cpus)
                     + (node->gpuSharing.isShared() ? QStringLiteral(" \u00b7 ") + node->gpuSharing.summary() : QString()));
    const QString fabric = WorkloadText::fabric(node->fabric);
    const QString storage = WorkloadText::storage(node->fabric);
    m_fabric->setText(fabric.isEmpty() ? tr("unknown (no node exporter answer)") : fabric);
    m_storage->setText(storage.isEmpty() ? tr("unknown (no node exporter answer)") : storage);

    m_gpus->setRowCount(int(node->gpus.size()));
    const auto set = [this](int row, int column, const QString &text) {
        QTableWidgetItem *item = m_gpus->item(row, column);
        if (!item) {
            item = new QTableWidgetItem;
            m_gpus->setItem(row, column, item);
        }
        if (item->text() != text)
            item->setText(text);
    };
    for (int row = 0; row < node->gpus.size(); ++row) {
        const Gpu &g = node->gpus[row];
        set(row, 0, QString::number(g.index));
        set(row, 1, UnitFormatter::percent(g.metrics.utilPercent));
        set(row, 2, m_formatter.temperature(g.metrics.tempC));
        set(row, 3, UnitFormatter::power(g.metrics.powerW));
        set(row, 4, m_formatter.memoryMiB(g.metrics.memUsedMiB));
        set(row, 5, g.jobId.isEmpty() ? tr("free") : g.jobId);
    }

    m_jobs->clear();
    QStringList seen;
    for (const Gpu &g : node->gpus) {
        if (g.jobId.isEmpty() || seen.contains(g.jobId))
            continue;
        seen << g.jobId;
        const Job *job = snapshot->job(g.jobId);
        auto *item = new QListWidgetItem(job ? tr("%1  %2  (%3, %4)").arg(job->id, job->name, job->user, job->state)
                                             : g.jobId,
                                         m_jobs);
        item->setData(Qt::UserRole, g.jobId);
        item->setToolTip(item->text());
    }
    if (seen.isEmpty())
        new QListWidgetItem(tr("No jobs hold GPUs here."), m_jobs);
    historyLoader()->setTargets({{node->name, {}}});
}

} // namespace strata
