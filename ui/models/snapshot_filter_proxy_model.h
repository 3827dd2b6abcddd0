#pragma once

#include "row_filter.h"

#include <QSortFilterProxyModel>

namespace strata {

class SnapshotRowModel;

// Filters and sorts a SnapshotRowModel by asking it directly (matches/lessThan on the structs),
// which keeps a 50,000-row filter pass to a few milliseconds. Sorting stays dynamic, so
// refreshed rows move to their place without a reset. GUI thread.
class SnapshotFilterProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit SnapshotFilterProxyModel(SnapshotRowModel *source, QObject *parent = nullptr);

    void setFilter(const RowFilter &filter);
    const RowFilter &filter() const { return m_filter; }
    SnapshotRowModel *rowModel() const { return m_source; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    SnapshotRowModel *m_source;
    RowFilter m_filter;
};

} // namespace strata
