#pragma once

#include "model/cluster_snapshot.h"

#include <QVector>

namespace strata {

// How a keyed table moves from the rows it shows to those of a new snapshot. Computed off the
// GUI thread (it holds only shared, immutable data), applied on it.
struct RowPlan
{
    SnapshotPtr snapshot;      // the new snapshot
    QVector<int> removedRows;  // current rows whose key is gone, ascending
    QVector<int> rows;         // item index in `snapshot` for every row after the update
    QVector<int> changedRows;  // surviving rows (post-removal numbering) whose shown data changed
    int keptCount = 0;         // rows[0..keptCount) survive in order, the rest are appended
};

} // namespace strata
