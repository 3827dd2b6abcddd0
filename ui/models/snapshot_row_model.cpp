#include "snapshot_row_model.h"

namespace strata {

namespace {

// Changed rows closer than this are reported as one range: fewer signals for the views and
// proxies, at the price of repainting a few unchanged rows.
constexpr int kMergeGap = 32;
// Past this many ranges one span is cheaper for QSortFilterProxyModel than many signals.
constexpr int kMaxRanges = 64;

} // namespace

int SnapshotRowModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SnapshotRowModel::rowForKey(const QString &key) const
{
    for (int row = 0; row < m_rows.size(); ++row)
        if (this->key(row) == key)
            return row;
    return -1;
}

void SnapshotRowModel::applyPlan(const RowPlan &plan, const std::function<void()> &adoptDerived)
{
    Q_EMIT planAboutToBeApplied(plan);
    // Removals from the bottom up, one signal per contiguous range, so row numbers above a
    // range stay valid while we go.
    const QVector<int> &removed = plan.removedRows;
    for (int end = int(removed.size()) - 1; end >= 0;) {
        int begin = end;
        while (begin > 0 && removed[begin - 1] == removed[begin] - 1)
            --begin;
        const int first = removed[begin], last = removed[end];
        beginRemoveRows({}, first, last);
        m_rows.remove(first, last - first + 1);
        endRemoveRows();
        end = begin - 1;
    }

    Q_ASSERT(m_rows.size() == plan.keptCount);
    m_snapshot = plan.snapshot;
    m_rows = plan.rows.mid(0, plan.keptCount);
    if (adoptDerived)
        adoptDerived();
    emitChanged(plan.changedRows);

    if (plan.rows.size() > plan.keptCount) {
        beginInsertRows({}, plan.keptCount, int(plan.rows.size()) - 1);
        m_rows = plan.rows;
        endInsertRows();
    }
    Q_EMIT planApplied();
    Q_EMIT updated(int(removed.size()), int(plan.changedRows.size()),
                   int(plan.rows.size()) - plan.keptCount);
}

void SnapshotRowModel::emitChanged(const QVector<int> &rows)
{
    if (rows.isEmpty())
        return;
    const int lastColumn = columnCount() - 1;
    QVector<QPair<int, int>> ranges;
    for (int row : rows) {
        if (!ranges.isEmpty() && row - ranges.last().second <= kMergeGap)
            ranges.last().second = row;
        else
            ranges.append({row, row});
    }
    if (ranges.size() > kMaxRanges)
        ranges = {{ranges.first().first, ranges.last().second}};
    for (const auto &range : std::as_const(ranges))
        Q_EMIT dataChanged(index(range.first, 0), index(range.second, lastColumn));
}

} // namespace strata
