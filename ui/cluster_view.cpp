#include "cluster_view.h"

#include "models/snapshot_filter_proxy_model.h"
#include "views/context_menu_key.h"
#include "views/fleet_map_panel.h"
#include "views/fleet_map_view.h"
#include "views/gpu_heatmap_view.h"
#include "views/heatmap_panel.h"
#include "views/highlight_delegate.h"
#include "views/job_detail_pane.h"
#include "views/layer_panel.h"
#include "views/node_detail_pane.h"
#include "views/stack_overview_view.h"
#include "views/table_page.h"

#include "model/when_finished.h"
#include "models/finding_table_model.h"
#include "models/job_table_model.h"
#include "models/node_table_model.h"
#include "models/snapshot_row_model.h"
#include "model/pool_task.h"

#include <QElapsedTimer>
#include <QHeaderView>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace strata {

ClusterView::ClusterView(QWidget *parent)
    : QWidget(parent), m_nodeModel(new NodeTableModel(this)), m_jobModel(new JobTableModel(this)),
      m_partitionModel(new PartitionModel(this)), m_instanceTypeModel(new InstanceTypeModel(this)),
      m_workloadModel(new WorkloadModel(this)),
      m_findingModel(new FindingTableModel(this)), m_tabs(new QTabWidget(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_overview = new StackOverviewView(m_instanceTypeModel, m_nodeModel, m_partitionModel, m_jobModel,
                                       m_workloadModel, m_findingModel, m_tabs);
    m_overview->setObjectName(QStringLiteral("overview"));
    m_heatmap = new HeatmapPanel(m_tabs);
    m_nodesPage = new TablePage(m_nodeModel, tr("nodes"), false, m_tabs);
    m_jobsPage = new TablePage(m_jobModel, tr("jobs"), true, m_tabs);
    m_tabs->addTab(m_overview, tr("&Overview"));
    m_tabs->addTab(m_heatmap, tr("&Heatmap"));
    m_tabs->addTab(m_nodesPage, tr("&Nodes"));
    m_tabs->addTab(m_jobsPage, tr("&Jobs"));
    m_fleet = new FleetMapPanel(m_tabs);
    m_tabs->addTab(m_fleet, tr("F&leet"));
    layout->addWidget(m_tabs);

    // What an operator scans first, first, each column as wide as what it holds: state,
    // reason, GPUs, power, jobs and findings (Nodes) and state, GPUs, times, limit and reason
    // (Jobs) are on screen at 1280 px beside the detail dock; the rest follow to the right.
    // Names, reasons and node lists are elided past their width (the tooltip has them whole).
    using N = NodeTableModel;
    m_nodesPage->arrangeColumns({{N::Name, QStringLiteral("gpu-node0000")},
                                 {N::State, QStringLiteral("allocated+cloud+powering_up"), true},
                                 {N::Reason, QStringLiteral("Kill task failed")},
                                 {N::Gpus, QStringLiteral("8 / 8")},
                                 {N::Util, QStringLiteral("100 %")},
                                 {N::Temp, QStringLiteral("100 \u00b0C")},
                                 {N::Power, QStringLiteral("8000 W")},
                                 {N::Memory, QStringLiteral("640.0 GiB")},
                                 {N::Jobs, QStringLiteral("99")},
                                 {N::Findings, QStringLiteral("99"), true},
                                 {N::Cpus, QStringLiteral("192 / 192")},
                                 {N::Partitions, QStringLiteral("gpu,debug")},
                                 {N::InstanceType, QStringLiteral("p5.48xlarge")},
                                 {N::GpuModel, QStringLiteral("H100")}});
    using J = JobTableModel;
    m_jobsPage->arrangeColumns({{J::Id, QStringLiteral("12345678_10")},
                                {J::Name, QStringLiteral("pretrain-70b-x")},
                                // Kubernetes: PyTorchJob, LeaderWorkerSet, ... (a dash for Slurm)
                                {J::Kind, QStringLiteral("PyTorchJob")},
                                {J::User, QStringLiteral("username")},
                                {J::State, QStringLiteral("CONFIGURING"), true},
                                {J::Gpus, QStringLiteral("512")},
                                {J::TimeUsed, QStringLiteral("10d 00:00:00")},
                                {J::TimeLimit, QStringLiteral("10d 00:00:00")},
                                {J::Reason, QStringLiteral("ReqNodeNotAvail, Res")},
                                {J::Nodes, QStringLiteral("gpu-node[0001-0004]")},
                                {J::Util, QStringLiteral("100 %")},
                                {J::Efficiency, QStringLiteral("underused")},
                                {J::Partition, QStringLiteral("gpu")},
                                {J::Framework, QStringLiteral("torch.distributed")}});

    // The detail pane lives in the window's dock; it is ours because it follows our selection.
    m_details = new QStackedWidget;
    m_details->setObjectName(QStringLiteral("details"));
    m_noDetail = new QLabel(tr("Pick a node, GPU or job to see it in detail."), m_details);
    static_cast<QLabel *>(m_noDetail)->setAlignment(Qt::AlignCenter);
    static_cast<QLabel *>(m_noDetail)->setWordWrap(true);
    m_nodeDetail = new NodeDetailPane(m_details);
    m_jobDetail = new JobDetailPane(m_details);
    m_details->addWidget(m_noDetail);
    m_details->addWidget(m_nodeDetail);
    m_details->addWidget(m_jobDetail);
    // The stack is as wide and tall as the page shown, not its largest page: the job pane's
    // width would otherwise clip the node pane in the dock's scroll area.
    const auto sizeToCurrentPage = [this](int current) {
        for (int i = 0; i < m_details->count(); ++i) {
            const QSizePolicy::Policy policy = i == current ? QSizePolicy::Preferred : QSizePolicy::Ignored;
            m_details->widget(i)->setSizePolicy(policy, policy);
        }
        m_details->updateGeometry();
    };
    connect(m_details, &QStackedWidget::currentChanged, this, sizeToCurrentPage);
    sizeToCurrentPage(m_details->currentIndex());

    connect(m_overview, &StackOverviewView::picked, this, &ClusterView::select);
    connect(m_heatmap->view(), &GpuHeatmapView::gpuClicked, this,
            [this](const QString &node, int gpu) { select(StackElement::gpuOf(node, gpu)); });
    connect(m_heatmap->view(), &GpuHeatmapView::nodeClicked, this,
            [this](const QString &node) { select(StackElement::node(node)); });
    connect(m_fleet->view(), &FleetMapView::gpuClicked, this,
            [this](const QString &node, int gpu) { select(StackElement::gpuOf(node, gpu)); });
    connect(m_fleet->view(), &FleetMapView::nodeClicked, this,
            [this](const QString &node) { select(StackElement::node(node)); });
    connect(m_nodesPage, &TablePage::rowPicked, this, [this](const QString &key) {
        if (!key.isEmpty())
            select(StackElement::node(key));
    });
    connect(m_jobsPage, &TablePage::rowPicked, this, [this](const QString &key) {
        if (!key.isEmpty())
            select(StackElement::job(key));
    });
    connect(m_nodeDetail, &NodeDetailPane::jobPicked, this, [this](const QString &id) {
        select(StackElement::job(id));
    });
    connect(m_jobDetail, &JobDetailPane::nodePicked, this, [this](const QString &node) {
        select(StackElement::node(node));
    });
    watchContextMenus();
}

void ClusterView::watchContextMenus()
{
    const auto table = [this](QTableView *view, StackElement::Layer layer) {
        view->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(view, &QWidget::customContextMenuRequested, this,
                [this, view, layer](const QPoint &pos) { requestContextMenu(view, pos, layer); });
        m_menuLayers.insert(view, layer);
        view->installEventFilter(this);
    };
    table(m_nodesPage->view(), StackElement::Layer::Node);
    table(m_jobsPage->view(), StackElement::Layer::Job);
    for (const auto layer : {StackElement::Layer::InstanceType, StackElement::Layer::Node,
                             StackElement::Layer::Partition, StackElement::Layer::Job, StackElement::Layer::Framework})
        table(m_overview->panel(layer)->view(), layer);
    table(m_overview->findingsView(), StackElement::Layer::None); // a finding stands for its node or GPU
    connect(m_fleet->view(), &FleetMapView::contextMenuRequested, this,
            [this](const QString &node, int gpu, const QPoint &globalPos) {
                Q_EMIT contextMenuRequested(gpu >= 0 ? StackElement::gpuOf(node, gpu) : StackElement::node(node),
                                            {node}, globalPos);
            });
    for (GpuHeatmapView *heatmap : {m_heatmap->view(), m_overview->gpuView()})
        connect(heatmap, &GpuHeatmapView::contextMenuRequested, this,
                [this](const QString &node, int gpu, const QPoint &globalPos) {
                    Q_EMIT contextMenuRequested(gpu >= 0 ? StackElement::gpuOf(node, gpu) : StackElement::node(node),
                                                {node}, globalPos);
                });
}

bool ClusterView::eventFilter(QObject *watched, QEvent *event)
{
    const auto layer = m_menuLayers.constFind(watched);
    if (layer == m_menuLayers.cend())
        return QWidget::eventFilter(watched, event);
    // The Menu key comes as a context menu event at a point Qt picks; Shift+F10 as a key press.
    const bool menuKey = event->type() == QEvent::ContextMenu
                         && static_cast<QContextMenuEvent *>(event)->reason() == QContextMenuEvent::Keyboard;
    if (!menuKey && !(event->type() == QEvent::KeyPress && isContextMenuShortcut(static_cast<QKeyEvent *>(event))))
        return QWidget::eventFilter(watched, event);
    requestContextMenuAtCurrentRow(static_cast<QTableView *>(watched), *layer);
    return true;
}

void ClusterView::requestContextMenu(QAbstractItemView *view, const QPoint &pos, StackElement::Layer layer)
{
    const QModelIndex index = view->indexAt(pos);
    if (index.isValid())
        openContextMenu(view, index, pos, layer);
}

void ClusterView::requestContextMenuAtCurrentRow(QTableView *view, StackElement::Layer layer)
{
    QModelIndex index = view->currentIndex();
    if (!index.isValid()) {
        const QModelIndexList selected = view->selectionModel()->selectedRows();
        if (selected.isEmpty())
            return;
        index = selected.first();
    }
    view->scrollTo(index);
    // At the current cell, or at the row's start when its column is hidden (the overview's layers).
    QRect cell = view->visualRect(index);
    if (cell.isEmpty())
        cell = QRect(0, view->rowViewportPosition(index.row()), view->viewport()->width() / 4, view->rowHeight(index.row()));
    openContextMenu(view, index, cell.center(), layer);
}

void ClusterView::openContextMenu(QAbstractItemView *view, const QModelIndex &index, const QPoint &viewportPos,
                                  StackElement::Layer layer)
{
    StackElement element;
    if (layer == StackElement::Layer::None) {
        const Finding &finding = m_findingModel->finding(index.row());
        element = finding.gpu >= 0 ? StackElement::gpuOf(finding.node, finding.gpu) : StackElement::node(finding.node);
    } else {
        element = StackElement{layer, index.data(SnapshotRowModel::KeyRole).toString(), -1};
    }
    if (!element.isValid())
        return;
    QStringList nodes;
    if (element.layer == StackElement::Layer::Node || element.layer == StackElement::Layer::Gpu) {
        // On one of the selected rows of the Nodes table: all of them, as the Actions menu does.
        const QStringList selected = view == m_nodesPage->view() ? m_nodesPage->selectedKeys() : QStringList{};
        nodes = selected.contains(element.key) ? selected : QStringList{element.key};
    }
    Q_EMIT contextMenuRequested(element, nodes, view->viewport()->mapToGlobal(viewportPos));
}

void ClusterView::filterTo(const StackElement &element)
{
    TablePage *page = element.layer == StackElement::Layer::Job ? m_jobsPage : m_nodesPage;
    m_tabs->setCurrentWidget(page);
    if (element.layer == StackElement::Layer::Framework) {
        page = m_jobsPage; // the jobs running it: the text filter matches a job's framework
        m_tabs->setCurrentWidget(page);
    }
    if (element.layer == StackElement::Layer::Partition) {
        page->filterEdit()->clear();
        const int at = page->partitionCombo()->findText(element.key);
        if (at >= 0)
            page->partitionCombo()->setCurrentIndex(at);
    } else {
        page->partitionCombo()->setCurrentIndex(0);
        page->filterEdit()->setText(element.key);
    }
    page->applyFilterNow();
}

ClusterView::~ClusterView()
{
    // The dock holding the detail pane may outlive us; the pane must not.
    delete m_details.data();
}

void ClusterView::setSnapshot(const SnapshotPtr &snapshot)
{
    if (!snapshot)
        return;
    // Kind names a Kubernetes workload's kind; on Slurm it would be a column of dashes taking
    // the width the GPU columns need.
    m_jobsPage->view()->setColumnHidden(JobTableModel::Kind, snapshot->orchestrator != OrchestratorKind::Kubernetes);
    m_pending = snapshot;
    if (!m_preparing)
        prepareNext();
}

void ClusterView::prepareNext()
{
    const SnapshotPtr next = std::exchange(m_pending, nullptr);
    if (!next)
        return;
    m_preparing = true;
    PreparedSnapshot::Current current;
    current.nodes = m_nodeModel->current();
    current.jobs = m_jobModel->current();
    if (const RowOrder order = m_jobsPage->proxy()->orderRequest(); order.column >= 0)
        current.jobs.orders << order;
    current.partitions = m_partitionModel->current();
    current.instanceTypesSnapshot = m_instanceTypeModel->snapshot();
    current.instanceTypeRows = m_instanceTypeModel->rows();
    current.workloadsSnapshot = m_workloadModel->snapshot();
    current.workloadRows = m_workloadModel->rows();
    current.findingsSnapshot = m_findingModel->snapshot();
    current.findingRows = m_findingModel->rows();
    whenFinished(runOnPool(nullptr, &PreparedSnapshot::prepare, current, next), this,
                 [this](const PreparedSnapshot &prepared) {
                     apply(prepared);
                     m_preparing = false;
                     prepareNext();
                 });
}

void ClusterView::apply(const PreparedSnapshot &p)
{
    QElapsedTimer timer;
    timer.start();
    // Freeing a 50,000-job snapshot takes tens of milliseconds: if we hold the last
    // references to the old one (and its relation index), let a worker drop them.
    SnapshotPtr previous = std::exchange(m_snapshot, p.snapshot);
    RelationIndex previousIndex = std::exchange(m_index, p.relations);
    m_totals = p.totals;
    m_nodeModel->apply(p.nodes);
    m_jobModel->apply(p.jobs);
    m_partitionModel->apply(p.partitions);
    m_instanceTypeModel->apply(p.instanceTypes);
    m_workloadModel->apply(p.workloads);
    m_findingModel->apply(p.findings);
    m_nodesPage->setChoices(p.nodes.choices);
    m_jobsPage->setChoices(p.jobs.choices);
    m_heatmap->view()->setSnapshot(p.snapshot);
    m_fleet->view()->setSnapshot(p.snapshot);
    m_overview->setSnapshot(p.snapshot, p.totals);
    showPlaceholder();
    const QLocale locale;
    m_heatmap->setSummary(tr("%1 nodes, %2 GPUs: %3")
                              .arg(locale.toString(p.totals.nodes), locale.toString(p.totals.gpus),
                                   p.totals.gpuSplitText(locale)));
    // The picked element may have changed (a job moved, a node left): recompute its relatives.
    m_relations = m_index.relatedTo(m_selection);
    showRelations();
    showDetail();
    // The models, views and index have let go of it by now; these two are the last. Freed on
    // the global pool, off this thread (50,000 jobs take ~40 ms to free); nothing waits for it,
    // and the pool finishes it before the application exits.
    (void)runOnPool(nullptr, [previous = std::move(previous), index = std::move(previousIndex)]() mutable {
        previous.reset();
        index = RelationIndex{};
    });
    Q_EMIT snapshotApplied(p.snapshot, p.prepareMs, timer.elapsed());
}

void ClusterView::clear()
{
    m_selection = {};
    m_relations = {};
    m_pending = nullptr;
    auto empty = std::make_shared<ClusterSnapshot>();
    empty->finalize();
    setSnapshot(empty);
}

void ClusterView::setReach(Reach reach, const QString &host)
{
    m_reach = reach;
    m_host = host;
    // A snapshot on its way shows the words with itself (not the last one's "no nodes" first).
    if (reach != Reach::Connected || !m_preparing)
        showPlaceholder();
}

QString ClusterView::placeholderText() const
{
    switch (m_reach) {
    case Reach::NotConnected:
        return tr("Not connected.");
    case Reach::Connecting:
        return tr("Connecting to %1\u2026").arg(m_host);
    case Reach::Connected:
        break;
    }
    // No node to show: the cluster has none, or its scheduler (or the way to it) did not answer.
    if (m_snapshot)
        for (const SourceStatus &s : m_snapshot->sources)
            if (s.configured && !s.ok && s.source != SourceKind::Prometheus)
                return tr("No answer from %1 yet: the bar above says why.").arg(m_host);
    return tr("The cluster reports no nodes.");
}

void ClusterView::showPlaceholder()
{
    const QString text = placeholderText();
    m_heatmap->view()->setPlaceholder(text);
    m_fleet->view()->setPlaceholder(text);
    m_overview->gpuView()->setPlaceholder(text);
}

void ClusterView::select(const StackElement &element)
{
    if (element == m_selection)
        return;
    m_selection = element;
    m_relations = m_index.relatedTo(element);
    showRelations();
    showDetail();
    Q_EMIT selectionChanged(element);
}

void ClusterView::showRelations()
{
    const bool active = m_selection.isValid();
    m_overview->showRelations(m_selection, m_relations);
    m_heatmap->view()->setRelations(m_relations);
    m_fleet->view()->setRelations(m_relations);
    if (active && !m_relations.nodes.isEmpty() && m_tabs->currentWidget() != m_heatmap)
        m_heatmap->view()->scrollToNode(*std::min_element(m_relations.nodes.cbegin(), m_relations.nodes.cend()));
    m_nodesPage->delegate()->setRelated(m_relations.nodes, active && m_selection.layer != StackElement::Layer::Node);
    m_jobsPage->delegate()->setRelated(m_relations.jobs, active && m_selection.layer != StackElement::Layer::Job);
    m_nodesPage->view()->viewport()->update();
    m_jobsPage->view()->viewport()->update();
}

void ClusterView::showDetail()
{
    switch (m_selection.layer) {
    case StackElement::Layer::Node:
    case StackElement::Layer::Gpu:
        m_nodeDetail->showNode(m_snapshot, m_selection.key);
        m_details->setCurrentWidget(m_nodeDetail);
        break;
    case StackElement::Layer::Job:
        m_jobDetail->showJob(m_snapshot, m_selection.key);
        m_details->setCurrentWidget(m_jobDetail);
        break;
    default:
        m_details->setCurrentWidget(m_noDetail);
        break;
    }
}

void ClusterView::setPreferences(const DisplayPreferences &preferences)
{
    const UnitFormatter formatter(preferences);
    m_nodeModel->setFormatter(formatter);
    m_nodeDetail->setFormatter(formatter);
    m_heatmap->setMetric(HeatmapMetric::fromId(preferences.heatmapMetric));
    showDetail();
}

void ClusterView::setMetricHistory(MetricHistory *history, const QString &unavailableReason)
{
    m_nodeDetail->setMetricHistory(history, unavailableReason);
    m_jobDetail->setMetricHistory(history, unavailableReason);
}

void ClusterView::focusFilter()
{
    if (m_tabs->currentWidget() != m_nodesPage && m_tabs->currentWidget() != m_jobsPage)
        m_tabs->setCurrentWidget(m_jobsPage);
    static_cast<TablePage *>(m_tabs->currentWidget())->focusFilter();
}

// The last pick decides what an action applies to: a node, GPU or job picked outside its table
// (heatmap, fleet map, overview, a detail pane's list) is the one acted on, never an older
// selection still standing in the Nodes or Jobs table; a pick inside the table's selection
// acts on the whole selection.
QStringList ClusterView::actionNodes() const
{
    const QStringList nodes = m_nodesPage->selectedKeys();
    if (m_selection.key.isEmpty())
        return nodes;
    // A GPU is never a row of the Nodes table: its pick came from elsewhere.
    if (m_selection.layer == StackElement::Layer::Gpu
        || (m_selection.layer == StackElement::Layer::Node && !nodes.contains(m_selection.key)))
        return {m_selection.key};
    return nodes;
}

QString ClusterView::actionJob() const
{
    const QStringList jobs = m_jobsPage->selectedKeys();
    const bool jobPicked = m_selection.layer == StackElement::Layer::Job && !m_selection.key.isEmpty();
    if (jobPicked && !jobs.contains(m_selection.key))
        return m_selection.key;
    return jobs.value(0);
}

} // namespace strata
