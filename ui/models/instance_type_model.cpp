#include "instance_type_model.h"

#include "unit_formatter.h"

#include "model/gpu_catalog.h"

namespace strata {

RowPlan InstanceTypeModel::plan(const SnapshotPtr &current, const QVector<int> &rows,
                                const SnapshotPtr &next)
{
    const auto find = [&](const QString &type) {
        for (int i = 0; i < next->instanceGroups.size(); ++i)
            if (next->instanceGroups[i].instanceType == type)
                return i;
        return -1;
    };
    return diff(
        current, rows, next, int(next->instanceGroups.size()),
        [](const ClusterSnapshot &s, int item) -> const QString & {
            return s.instanceGroups[item].instanceType;
        },
        find,
        [&](int oldItem, int newItem) {
            const InstanceGroup &a = current->instanceGroups[oldItem];
            const InstanceGroup &b = next->instanceGroups[newItem];
            return a.nodeCount != b.nodeCount || a.gpuCount != b.gpuCount || a.gpuModel != b.gpuModel
                   || a.gpusByModel != b.gpusByModel;
        });
}

int InstanceTypeModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString InstanceTypeModel::key(int row) const
{
    return group(row).instanceType;
}

QVariant InstanceTypeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const InstanceGroup &g = group(index.row());
    const GpuSpec *spec = GpuCatalog::builtIn().gpu(g.gpuModel);
    if (role == KeyRole)
        return g.instanceType;
    if (role == Qt::ToolTipRole && spec)
        return tr("%1: %2 \u00d7 %3 (%4), %5 PF BF16 and %6 GiB %7 per GPU")
            .arg(g.instanceType).arg(g.gpuCount / qMax(1, g.nodeCount)).arg(spec->name)
            .arg(spec->architecture).arg(spec->bf16PetaFlops).arg(spec->hbmGiB).arg(spec->hbmType);
    if (role == Qt::TextAlignmentRole && index.column() >= Nodes)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Type: return g.instanceType;
    case GpuModel: return g.gpuModel.isEmpty() ? UnitFormatter::dash() : g.gpuModel;
    case Nodes: return g.nodeCount;
    case Gpus: return g.gpuCount;
    // A catalog figure of 0 is unknown (a family entry such as "A100" without its memory size).
    case Bf16PetaFlops:
        return spec && spec->bf16PetaFlops > 0 ? QString::number(spec->bf16PetaFlops, 'f', 3) : UnitFormatter::dash();
    case HbmGiB: return spec && spec->hbmGiB > 0 ? QStringLiteral("%1 GiB").arg(spec->hbmGiB) : UnitFormatter::dash();
    case TotalPetaFlops: {
        // Model by model: a mixed group ("H100+H200") has no one spec, its GPUs each have one.
        double total = 0;
        for (auto it = g.gpusByModel.constBegin(); it != g.gpusByModel.constEnd(); ++it)
            if (const GpuSpec *modelSpec = GpuCatalog::builtIn().gpu(it.key()))
                total += modelSpec->bf16PetaFlops * it.value();
        return total > 0 ? QString::number(total, 'f', 1) : UnitFormatter::dash();
    }
    }
    return {};
}

QVariant InstanceTypeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Type: return tr("Instance type");
    case GpuModel: return tr("GPU");
    case Nodes: return tr("Nodes");
    case Gpus: return tr("GPUs");
    case Bf16PetaFlops: return tr("PF/GPU");
    case HbmGiB: return tr("HBM/GPU");
    case TotalPetaFlops: return tr("BF16 PF total");
    }
    return {};
}

bool InstanceTypeModel::matches(int row, const RowFilter &filter) const
{
    return filter.text.isEmpty() || key(row).contains(filter.text, Qt::CaseInsensitive);
}

bool InstanceTypeModel::lessThan(int leftRow, int rightRow, int column) const
{
    const InstanceGroup &a = group(leftRow), &b = group(rightRow);
    if (column == Nodes && a.nodeCount != b.nodeCount)
        return a.nodeCount < b.nodeCount;
    if ((column == Gpus || column == TotalPetaFlops) && a.gpuCount != b.gpuCount)
        return a.gpuCount < b.gpuCount;
    return a.instanceType < b.instanceType;
}

} // namespace strata
