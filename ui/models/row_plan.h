#pragma once

#include "row_filter.h"

#include "model/cluster_snapshot.h"

#include <QVector>
#include <QtCore/qnamespace.h>

namespace strata {

// The rows a filtered, sorted view of a table shows after a plan, in order (post-plan row
// numbers): what SnapshotFilterProxyModel would compute on the GUI thread, computed with the
// plan instead. A request carries no rows.
struct RowOrder
{
    RowFilter filter;
    int column = -1;
    Qt::SortOrder order = Qt::AscendingOrder;
    QVector<int> rows;
};

// How a keyed table moves from the rows it shows to those of a new snapshot. Computed off the
// GUI thread (it holds only shared, immutable data), applied on it.
struct RowPlan
{
    SnapshotPtr snapshot;      // the new snapshot
    QVector<int> removedRows;  // current rows whose key is gone, ascending
    QVector<int> rows;         // item index in `snapshot` for every row after the update
    QVector<int> changedRows;  // surviving rows (post-removal numbering) whose shown data changed
    int keptCount = 0;         // rows[0..keptCount) survive in order, the rest are appended
    QVector<RowOrder> orders;  // for the sorted views that asked (Current::orders)
};

} // namespace strata
