#include "workload_model.h"

#include "unit_formatter.h"

namespace strata {

RowPlan WorkloadModel::plan(const SnapshotPtr &current, const QVector<int> &rows, const SnapshotPtr &next)
{
    const auto find = [&](const QString &framework) {
        for (int i = 0; i < next->workloadGroups.size(); ++i)
            if (next->workloadGroups[i].framework == framework)
                return i;
        return -1;
    };
    return diff(
        current, rows, next, int(next->workloadGroups.size()),
        [](const ClusterSnapshot &s, int item) -> const QString & { return s.workloadGroups[item].framework; },
        find,
        [&](int oldItem, int newItem) {
            const WorkloadGroup &a = current->workloadGroups[oldItem];
            const WorkloadGroup &b = next->workloadGroups[newItem];
            return a.jobsRunning != b.jobsRunning || a.jobsPending != b.jobsPending || a.gpusHeld != b.gpusHeld
                || a.kinds != b.kinds || a.tokensPerSecond != b.tokensPerSecond;
        });
}

int WorkloadModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString WorkloadModel::key(int row) const
{
    return group(row).framework;
}

QVariant WorkloadModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const WorkloadGroup &g = group(index.row());
    if (role == KeyRole)
        return g.framework;
    if (role == Qt::ToolTipRole)
        return g.framework == WorkloadGroup::unrecognised()
            ? tr("Jobs whose command, name or image names no framework Strata knows (README, Workloads)")
            : tr("%1: %2 running and %3 pending jobs holding %4 GPUs%5")
                  .arg(g.framework).arg(g.jobsRunning).arg(g.jobsPending).arg(g.gpusHeld)
                  .arg(g.kinds.isEmpty() ? QString() : tr(" (%1)").arg(g.kinds.join(QStringLiteral(", "))));
    if (role == Qt::TextAlignmentRole && index.column() != Framework && index.column() != Kinds)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Framework: return g.framework;
    case Kinds: return g.kinds.isEmpty() ? UnitFormatter::dash() : g.kinds.join(QStringLiteral(", "));
    case JobsRunning: return g.jobsRunning;
    case JobsPending: return g.jobsPending;
    case GpusHeld: return g.gpusHeld;
    case TokensPerSecond:
        return g.tokensPerSecond ? QString::number(*g.tokensPerSecond, 'f', 0) : UnitFormatter::dash();
    }
    return {};
}

QVariant WorkloadModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Framework: return tr("Framework");
    case Kinds: return tr("Kind");
    case JobsRunning: return tr("Run");
    case JobsPending: return tr("Pend");
    case GpusHeld: return tr("GPUs");
    case TokensPerSecond: return tr("Tokens/s");
    }
    return {};
}

bool WorkloadModel::matches(int row, const RowFilter &filter) const
{
    const WorkloadGroup &g = group(row);
    return filter.text.isEmpty() || g.framework.contains(filter.text, Qt::CaseInsensitive)
        || g.kinds.join(QLatin1Char(' ')).contains(filter.text, Qt::CaseInsensitive);
}

bool WorkloadModel::lessThan(int leftRow, int rightRow, int column) const
{
    const WorkloadGroup &a = group(leftRow), &b = group(rightRow);
    if (column == JobsRunning && a.jobsRunning != b.jobsRunning)
        return a.jobsRunning < b.jobsRunning;
    if (column == JobsPending && a.jobsPending != b.jobsPending)
        return a.jobsPending < b.jobsPending;
    if (column == GpusHeld && a.gpusHeld != b.gpusHeld)
        return a.gpusHeld < b.gpusHeld;
    if (column == TokensPerSecond && a.tokensPerSecond != b.tokensPerSecond)
        return a.tokensPerSecond.value_or(-1) < b.tokensPerSecond.value_or(-1);
    return a.framework < b.framework;
}

} // namespace strata
