#include "cluster_view.h"

#include "models/snapshot_filter_proxy_model.h"
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
#include "models/snapshot_row_model.h"
#include "model/pool_task.h"

#include <QElapsedTimer>
#include <QHeaderView>
#include <QComboBox>
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

    const auto widths = [](QTableView *view, const QList<int> &pixels) {
        for (int c = 0; c < pixels.size(); ++c)
            view->horizontalHeader()->resizeSection(c, pixels[c]);
    };
    widths(m_nodesPage->view(), {110, 95, 150, 100, 120, 55, 75, 80, 70, 75, 75, 90, 45});
    widths(m_jobsPage->view(), {70, 140, 65, 95, 110, 70, 140, 50, 85, 90, 60, 90, 120});
    // What an operator scans first, first: the GPUs and their use before the node list, the
    // reason and the limits, so they are on screen at 1280 px beside the detail dock.
    QHeaderView *jobsHeader = m_jobsPage->view()->horizontalHeader();
    const QList<int> jobsOrder = {JobTableModel::Id, JobTableModel::Name, JobTableModel::User,
                                  JobTableModel::State, JobTableModel::Gpus, JobTableModel::Util,
                                  JobTableModel::Efficiency, JobTableModel::Nodes, JobTableModel::Partition,
                                  JobTableModel::Framework, JobTableModel::TimeUsed, JobTableModel::Reason,
                                  JobTableModel::TimeLimit};
    for (int visual = 0; visual < jobsOrder.size(); ++visual)
        jobsHeader->moveSection(jobsHeader->visualIndex(jobsOrder[visual]), visual);

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
    connect(m_nodesPage, &TablePage::currentKeyChanged, this, [this](const QString &key) {
        if (!key.isEmpty())
            select(StackElement::node(key));
    });
    connect(m_jobsPage, &TablePage::currentKeyChanged, this, [this](const QString &key) {
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
    const auto table = [this](QAbstractItemView *view, StackElement::Layer layer) {
        view->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(view, &QWidget::customContextMenuRequested, this,
                [this, view, layer](const QPoint &pos) { requestContextMenu(view, pos, layer); });
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

void ClusterView::requestContextMenu(QAbstractItemView *view, const QPoint &pos, StackElement::Layer layer)
{
    const QModelIndex index = view->indexAt(pos);
    if (!index.isValid())
        return;
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
    Q_EMIT contextMenuRequested(element, nodes, view->viewport()->mapToGlobal(pos));
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

QStringList ClusterView::actionNodes() const
{
    QStringList nodes = m_nodesPage->selectedKeys();
    if (nodes.isEmpty() && (m_selection.layer == StackElement::Layer::Node
                            || m_selection.layer == StackElement::Layer::Gpu))
        nodes << m_selection.key;
    return nodes;
}

QString ClusterView::actionJob() const
{
    const QStringList jobs = m_jobsPage->selectedKeys();
    if (!jobs.isEmpty())
        return jobs.first();
    return m_selection.layer == StackElement::Layer::Job ? m_selection.key : QString();
}

} // namespace strata
