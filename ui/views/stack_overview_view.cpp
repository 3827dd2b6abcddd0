#include "stack_overview_view.h"

#include "gpu_heatmap_view.h"
#include "highlight_delegate.h"
#include "layer_panel.h"
#include "models/finding_table_model.h"
#include "models/instance_type_model.h"
#include "models/job_table_model.h"
#include "models/node_table_model.h"
#include "models/partition_model.h"
#include "models/queue_model.h"
#include "models/snapshot_row_model.h"
#include "models/workload_model.h"

#include "model/gpu_catalog.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace strata {

StackOverviewView::StackOverviewView(InstanceTypeModel *instanceTypes, NodeTableModel *nodes,
                                     PartitionModel *partitions, JobTableModel *jobs, WorkloadModel *workloads,
                                     FindingTableModel *findings, QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    m_totals = new QLabel(this);
    m_totals->setObjectName(QStringLiteral("totals"));
    m_totals->setWordWrap(true);
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_totals);

    auto *vertical = new QSplitter(Qt::Vertical, this);
    vertical->setObjectName(QStringLiteral("overviewVerticalSplitter"));
    auto *layers = new QSplitter(Qt::Horizontal, vertical);
    layers->setObjectName(QStringLiteral("overviewLayerSplitter"));
    using L = StackElement::Layer;
    m_instanceTypes = new LayerPanel(tr("Instance types"), L::InstanceType, instanceTypes,
                                     {InstanceTypeModel::Type, InstanceTypeModel::Nodes,
                                      InstanceTypeModel::GpuModel, InstanceTypeModel::Bf16PetaFlops,
                                      InstanceTypeModel::HbmGiB},
                                     layers);
    m_nodes = new LayerPanel(tr("Nodes"), L::Node, nodes, {NodeTableModel::Name, NodeTableModel::State},
                             layers);
    auto *gpuBox = new QWidget(layers);
    auto *gpuLayout = new QVBoxLayout(gpuBox);
    gpuLayout->setContentsMargins(0, 0, 0, 0);
    gpuLayout->setSpacing(2);
    m_gpuHeader = new QLabel(tr("GPUs"), gpuBox);
    m_gpuHeader->setWordWrap(true);
    QFont bold = m_gpuHeader->font();
    bold.setBold(true);
    m_gpuHeader->setFont(bold);
    m_gpus = new GpuHeatmapView(gpuBox);
    m_gpus->setObjectName(QStringLiteral("overviewGpus"));
    m_gpus->setMetric(HeatmapMetric::Kind::Allocation);
    m_gpus->setCellSize(QSize(12, 12), false);
    gpuLayout->addWidget(m_gpuHeader);
    gpuLayout->addWidget(m_gpus, 1);
    m_partitions = new LayerPanel(tr("Partitions"), L::Partition, partitions,
                                  {PartitionModel::Name, PartitionModel::Gpus, PartitionModel::JobsRunning},
                                  layers);
    m_jobs = new LayerPanel(tr("Jobs"), L::Job, jobs,
                            {JobTableModel::Id, JobTableModel::User, JobTableModel::State}, layers);
    m_frameworks = new LayerPanel(tr("Frameworks"), L::Framework, workloads,
                                  {WorkloadModel::Framework, WorkloadModel::JobsRunning, WorkloadModel::GpusHeld,
                                   WorkloadModel::Kinds},
                                  layers);
    // Wide enough at 1280x800 for each layer's key column; the splitter keeps the ratios.
    m_layers = layers;
    for (int i : {0, 1, 3, 4, 5})
        layers->setStretchFactor(i, i == 0 || i == 4 ? 3 : 2);
    layers->setStretchFactor(2, 0);
    m_instanceTypes->setColumnWidths({104, 44, 44, 46});
    m_nodes->setColumnWidths({105});
    m_partitions->setColumnWidths({80, 45});
    m_jobs->setColumnWidths({62, 58});
    m_frameworks->setColumnWidths({100, 44, 44});

    auto *bottom = new QWidget(vertical);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    m_relation = new QLabel(bottom);
    m_relation->setObjectName(QStringLiteral("relation"));
    m_relation->setWordWrap(true);
    m_findingsHeader = new QLabel(tr("Health findings"), bottom);
    m_findingsHeader->setFont(bold);
    m_findings = new QTableView(bottom);
    m_findings->setObjectName(QStringLiteral("findings"));
    m_findings->setAccessibleName(tr("Health findings"));
    m_findings->setModel(findings);
    // Draws the severity swatch the model marks (StatusRole); no relation is ever shown here.
    m_findings->setItemDelegate(new HighlightDelegate(m_findings));
    m_findings->verticalHeader()->hide();
    m_findings->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_findings->verticalHeader()->setDefaultSectionSize(m_findings->fontMetrics().height() + 4);
    m_findings->setShowGrid(false);
    m_findings->setWordWrap(false);
    m_findings->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_findings->horizontalHeader()->setStretchLastSection(true);
    bottomLayout->addWidget(m_relation);
    bottomLayout->addWidget(m_findingsHeader);
    bottomLayout->addWidget(m_findings, 1);
    // Kueue's queues, where partitions are for Slurm: what each ClusterQueue may use of each
    // flavor's GPUs, what it uses, and what waits (the row's tool tip lists it in order).
    m_queueModel = new QueueModel(this);
    m_queuesHeader = new QLabel(tr("Queues"), bottom);
    m_queuesHeader->setFont(bold);
    m_queues = new QTableView(bottom);
    m_queues->setObjectName(QStringLiteral("queues"));
    m_queues->setAccessibleName(tr("Kueue queues"));
    m_queues->setModel(m_queueModel);
    m_queues->verticalHeader()->hide();
    m_queues->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_queues->verticalHeader()->setDefaultSectionSize(m_queues->fontMetrics().height() + 4);
    m_queues->setShowGrid(false);
    m_queues->setWordWrap(false);
    m_queues->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_queues->horizontalHeader()->setStretchLastSection(true);
    m_queuesHeader->hide();
    m_queues->hide();
    bottomLayout->addWidget(m_queuesHeader);
    bottomLayout->addWidget(m_queues, 1);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 1);
    layout->addWidget(vertical, 1);

    for (LayerPanel *panel : {m_instanceTypes, m_nodes, m_partitions, m_jobs, m_frameworks})
        connect(panel, &LayerPanel::picked, this, &StackOverviewView::picked);
    connect(m_gpus, &GpuHeatmapView::gpuClicked, this, [this](const QString &node, int gpu) {
        Q_EMIT picked(StackElement::gpuOf(node, gpu));
    });
    connect(m_gpus, &GpuHeatmapView::nodeClicked, this,
            [this](const QString &node) { Q_EMIT picked(StackElement::node(node)); });
    connect(m_findings, &QAbstractItemView::clicked, this, [this, findings](const QModelIndex &index) {
        const Finding &f = findings->finding(index.row());
        Q_EMIT picked(f.gpu >= 0 ? StackElement::gpuOf(f.node, f.gpu) : StackElement::node(f.node));
    });
    m_relation->setText(tr("Pick an instance type, node, GPU, partition, job or framework to see what it relates to."));
}

LayerPanel *StackOverviewView::panel(StackElement::Layer layer) const
{
    switch (layer) {
    case StackElement::Layer::InstanceType: return m_instanceTypes;
    case StackElement::Layer::Node: return m_nodes;
    case StackElement::Layer::Partition: return m_partitions;
    case StackElement::Layer::Job: return m_jobs;
    case StackElement::Layer::Framework: return m_frameworks;
    default: return nullptr;
    }
}

void StackOverviewView::setSnapshot(const SnapshotPtr &snapshot, const ClusterSnapshot::Totals &t)
{
    m_gpus->setSnapshot(snapshot);
    // The GPU layer shows whole nodes (every GPU of one) whatever the splitter does.
    const int gpus = m_gpus->oneColumnWidth();
    m_gpus->parentWidget()->setMinimumWidth(gpus);
    if (!m_sized && m_layers->width() > 600) {
        // First sizes once the real width is known: the key columns of every layer visible at
        // 1280x800. Later the person's splitter positions rule (and are remembered).
        m_sized = true;
        const int rest = m_layers->width() - gpus;
        m_layers->setSizes({rest * 19 / 100, rest * 13 / 100, gpus, rest * 12 / 100, rest * 31 / 100, rest * 25 / 100});
    }
    const QLocale locale;
    // The catalog's peak figures, summed over the instance layer's GPUs model by model (a node
    // or group may mix models).
    double petaFlops = 0, hbmGiB = 0;
    for (const InstanceGroup &g : snapshot->instanceGroups)
        for (auto it = g.gpusByModel.constBegin(); it != g.gpusByModel.constEnd(); ++it)
            if (const GpuSpec *spec = GpuCatalog::builtIn().gpu(it.key())) {
                petaFlops += spec->bf16PetaFlops * it.value();
                hbmGiB += spec->hbmGiB * it.value();
            }
    const QString capacity = petaFlops > 0 ? tr(" (%1 PF BF16 peak, %2 TiB HBM)")
                                                 .arg(locale.toString(petaFlops, 'f', 1),
                                                      locale.toString(hbmGiB / 1024, 'f', 1))
                                           : QString();
    m_totals->setText(
        tr("<b>%1</b> nodes \u00b7 <b>%2</b> GPUs%3: %4 \u00b7 jobs: %5, %6 finished or other \u00b7 findings: %7 critical, %8 warning")
            .arg(locale.toString(t.nodes), locale.toString(t.gpus), capacity, t.gpuSplitText(locale).toHtmlEscaped(),
                 t.jobSplitText(locale).toHtmlEscaped(), locale.toString(t.jobsOther), locale.toString(t.findingsCritical),
                 locale.toString(t.findingsWarning)));
    m_instanceTypes->setSubtitle(locale.toString(snapshot->instanceGroups.size()));
    m_nodes->setSubtitle(locale.toString(t.nodes));
    m_gpuHeader->setText(tr("GPUs \u00b7 %1").arg(locale.toString(t.gpus)));
    m_gpuHeader->setToolTip(tr("dark blue: busy, green: idle, pale blue: starting (being launched), "
                               "pale grey: launchable (powered down), red: unavailable"));
    m_partitions->setSubtitle(locale.toString(snapshot->partitions.size()));
    m_jobs->setSubtitle(locale.toString(snapshot->jobs.size()));
    m_frameworks->setSubtitle(locale.toString(snapshot->workloadGroups.size()));
    m_findingsHeader->setText(tr("Health findings \u00b7 %1").arg(snapshot->findings.size()));
    m_queueModel->setQueues(snapshot->queues);
    int waiting = 0;
    for (const Queue &q : snapshot->queues)
        if (q.kind == Queue::Kind::Cluster)
            waiting += q.pendingWorkloads;
    m_queuesHeader->setText(tr("Queues (Kueue) \u00b7 %1 \u00b7 %2 workload(s) waiting")
                                .arg(locale.toString(snapshot->queues.size()), locale.toString(waiting)));
    m_queuesHeader->setVisible(!snapshot->queues.isEmpty());
    m_queues->setVisible(!snapshot->queues.isEmpty());
}

void StackOverviewView::showRelations(const StackElement &picked, const Relations &r)
{
    const bool active = picked.isValid();
    m_instanceTypes->showRelated(r.instanceTypes, active);
    m_nodes->showRelated(r.nodes, active);
    m_partitions->showRelated(r.partitions, active);
    m_jobs->showRelated(r.jobs, active);
    m_frameworks->showRelated(r.frameworks, active);
    m_gpus->setRelations(r);
    if (!r.nodes.isEmpty())
        m_gpus->scrollToNode(*std::min_element(r.nodes.cbegin(), r.nodes.cend()));
    for (LayerPanel *panel : {m_instanceTypes, m_nodes, m_partitions, m_jobs, m_frameworks})
        if (panel->layer() != picked.layer)
            panel->clearSelection();
    if (!active) {
        m_relation->setText(tr("Pick an instance type, node, GPU, partition, job or framework to see what it relates to."));
        return;
    }
    QString what;
    switch (picked.layer) {
    case StackElement::Layer::InstanceType: what = tr("Instance type %1").arg(picked.key); break;
    case StackElement::Layer::Node: what = tr("Node %1").arg(picked.key); break;
    case StackElement::Layer::Gpu: what = tr("GPU %2 of %1").arg(picked.key).arg(picked.gpu); break;
    case StackElement::Layer::Partition: what = tr("Partition %1").arg(picked.key); break;
    case StackElement::Layer::Job: what = tr("Job %1").arg(picked.key); break;
    case StackElement::Layer::Framework: what = tr("Framework %1").arg(picked.key); break;
    case StackElement::Layer::None: break;
    }
    const QLocale locale;
    m_relation->setText(tr("<b>%1</b> relates to %2 instance type(s), %3 node(s), %4 GPU(s), "
                           "%5 partition(s), %6 job(s), %7 framework(s) (highlighted)")
                            .arg(what.toHtmlEscaped(), locale.toString(r.instanceTypes.size()),
                                 locale.toString(r.nodes.size()), locale.toString(r.gpuCount()),
                                 locale.toString(r.partitions.size()), locale.toString(r.jobs.size()),
                                 locale.toString(r.frameworks.size())));
}

QString StackOverviewView::totalsText() const
{
    return m_totals->text();
}

QString StackOverviewView::relationText() const
{
    return m_relation->text();
}

} // namespace strata
