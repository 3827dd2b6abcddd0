#include "snapshot_filter_proxy_model.h"

#include "snapshot_row_model.h"

namespace strata {

SnapshotFilterProxyModel::SnapshotFilterProxyModel(SnapshotRowModel *source, QObject *parent)
    : QSortFilterProxyModel(parent), m_source(source)
{
    setSourceModel(source);
    setDynamicSortFilter(true);
}

void SnapshotFilterProxyModel::setFilter(const RowFilter &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    invalidateFilter();
}

bool SnapshotFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &) const
{
    return m_filter.isEmpty() || m_source->matches(sourceRow, m_filter);
}

bool SnapshotFilterProxyModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    return m_source->lessThan(left.row(), right.row(), left.column());
}

} // namespace strata
