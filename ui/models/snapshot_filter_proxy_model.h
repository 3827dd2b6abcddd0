#pragma once

#include "row_filter.h"
#include "row_plan.h"

#include <QAbstractProxyModel>
#include <QVector>

namespace strata {

class SnapshotRowModel;

// Filters and sorts a SnapshotRowModel for a table view. Unlike QSortFilterProxyModel, which
// at 50,000 rows stalls for hundreds of milliseconds on a refresh (it re-sorts every row of a
// changed range and rebuilds its mapping for each scattered removal) and on a filter change
// (one signal per removed interval), it turns a whole refresh, filter change or sort into ONE
// layout change: the visible rows keep their identity through persistent indexes, so the
// view keeps its selection, current row and scroll position. A refresh costs O(n + k log k)
// for k changed rows; filtering and sorting ask the model directly (matches/lessThan on the
// structs, no QVariant). When the plan carries this view's order, computed on the worker
// (RowPlan::orders, same filter, column and direction), a refresh is O(n) here. GUI thread.
class SnapshotFilterProxyModel : public QAbstractProxyModel
{
    Q_OBJECT
public:
    explicit SnapshotFilterProxyModel(SnapshotRowModel *source, QObject *parent = nullptr);

    void setFilter(const RowFilter &filter);
    const RowFilter &filter() const { return m_filter; }
    SnapshotRowModel *rowModel() const { return m_source; }
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_order; }
    // What a plan may compute for this view off the GUI thread (RowPlan::orders).
    RowOrder orderRequest() const { return {m_filter, m_sortColumn, m_order, {}}; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    void onPlanAboutToBeApplied(const RowPlan &plan);
    void onPlanApplied();
    void onSourceDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight);
    void onSourceStructureChanged();
    void beginLayout(QAbstractItemModel::LayoutChangeHint hint = QAbstractItemModel::NoLayoutChangeHint);
    // Ends a layout change; oldToNewSource maps the source row a persistent index pointed at
    // before to the row it has now (-1: gone). Empty: rows did not move in the source.
    void endLayout(const QVector<int> &oldToNewSource);
    QAbstractItemModel::LayoutChangeHint m_hint = QAbstractItemModel::NoLayoutChangeHint;
    QVector<int> visibleRows() const; // filtered and sorted, from scratch
    bool less(int leftSourceRow, int rightSourceRow) const;
    void sortRows(QVector<int> &rows) const;
    void setRows(QVector<int> rows);

    SnapshotRowModel *m_source;
    RowFilter m_filter;
    int m_sortColumn = -1;
    Qt::SortOrder m_order = Qt::AscendingOrder;
    QVector<int> m_proxyToSource;
    QVector<int> m_sourceToProxy; // -1: filtered out
    bool m_inPlan = false;
    RowPlan m_plan;
    int m_sourceRowsBeforePlan = 0;
    QModelIndexList m_savedPersistent;
    QVector<int> m_savedSourceRows;
};

} // namespace strata
