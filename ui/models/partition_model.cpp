#include "partition_model.h"

namespace strata {

PartitionModel::PartitionModel(QObject *parent)
    : SnapshotRowModel(parent), m_counts(std::make_shared<QVector<Counts>>())
{
}

PartitionModel::Plan PartitionModel::plan(const Current &current, const SnapshotPtr &next)
{
    auto counts = std::make_shared<QVector<Counts>>(next->partitions.size());
    QHash<QString, int> byName;
    for (int i = 0; i < next->partitions.size(); ++i) {
        const Partition &p = next->partitions[i];
        byName.insert(p.name, i);
        Counts &c = (*counts)[i];
        for (const QString &name : p.nodes) {
            const Node *node = next->node(name);
            if (!node)
                continue;
            ++c.nodes;
            c.gpus += node->gpuCount;
            c.gpusBusy += node->gpusAllocated;
        }
    }
    for (const Job &job : next->jobs) {
        const auto it = byName.constFind(job.partition);
        if (it == byName.constEnd())
            continue;
        if (job.isRunning())
            ++(*counts)[*it].jobsRunning;
        else if (job.isPending())
            ++(*counts)[*it].jobsPending;
    }
    Plan plan;
    plan.counts = counts;
    const QVector<Counts> &oldCounts = *current.counts;
    plan.rows = diff(
        current.snapshot, current.rows, next, int(next->partitions.size()),
        [](const ClusterSnapshot &s, int item) -> const QString & { return s.partitions[item].name; },
        [&](const QString &name) { return byName.value(name, -1); },
        [&](int oldItem, int newItem) {
            const Partition &a = current.snapshot->partitions[oldItem];
            const Partition &b = next->partitions[newItem];
            return a.state != b.state || a.isDefault != b.isDefault
                   || !(oldCounts[oldItem] == (*counts)[newItem]);
        });
    return plan;
}

void PartitionModel::apply(const Plan &plan)
{
    applyPlan(plan.rows, [&] { m_counts = plan.counts; });
}

int PartitionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString PartitionModel::key(int row) const
{
    return partition(row).name;
}

QVariant PartitionModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Partition &p = partition(index.row());
    const Counts &c = counts(index.row());
    if (role == KeyRole)
        return p.name;
    if (role == Qt::TextAlignmentRole && index.column() >= Nodes)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Name: return p.isDefault ? p.name + QStringLiteral(" (default)") : p.name;
    case State: return p.state;
    case Nodes: return c.nodes;
    case Gpus: return c.gpus;
    case GpusBusy: return c.gpusBusy;
    case JobsRunning: return c.jobsRunning;
    case JobsPending: return c.jobsPending;
    }
    return {};
}

QVariant PartitionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Partition");
    case State: return tr("State");
    case Nodes: return tr("Nodes");
    case Gpus: return tr("GPUs");
    case GpusBusy: return tr("Busy");
    case JobsRunning: return tr("Running");
    case JobsPending: return tr("Pending");
    }
    return {};
}

bool PartitionModel::matches(int row, const RowFilter &filter) const
{
    return filter.text.isEmpty() || key(row).contains(filter.text, Qt::CaseInsensitive);
}

bool PartitionModel::lessThan(int leftRow, int rightRow, int column) const
{
    const Counts &a = counts(leftRow), &b = counts(rightRow);
    int c = 0;
    switch (column) {
    case Nodes: c = a.nodes - b.nodes; break;
    case Gpus: c = a.gpus - b.gpus; break;
    case GpusBusy: c = a.gpusBusy - b.gpusBusy; break;
    case JobsRunning: c = a.jobsRunning - b.jobsRunning; break;
    case JobsPending: c = a.jobsPending - b.jobsPending; break;
    default: break;
    }
    return c != 0 ? c < 0 : key(leftRow) < key(rightRow);
}

} // namespace strata
