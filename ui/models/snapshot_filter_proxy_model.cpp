#include "snapshot_filter_proxy_model.h"

#include "snapshot_row_model.h"

#include <algorithm>

namespace strata {

SnapshotFilterProxyModel::SnapshotFilterProxyModel(SnapshotRowModel *source, QObject *parent)
    : QAbstractProxyModel(parent), m_source(source)
{
    QAbstractProxyModel::setSourceModel(source);
    connect(source, &SnapshotRowModel::planAboutToBeApplied, this,
            &SnapshotFilterProxyModel::onPlanAboutToBeApplied);
    connect(source, &SnapshotRowModel::planApplied, this, &SnapshotFilterProxyModel::onPlanApplied);
    connect(source, &QAbstractItemModel::dataChanged, this,
            &SnapshotFilterProxyModel::onSourceDataChanged);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(source, signal, this, [this] {
            if (!m_inPlan)
                onSourceStructureChanged();
        });
    connect(source, &QAbstractItemModel::modelReset, this, &SnapshotFilterProxyModel::onSourceStructureChanged);
    connect(source, &QAbstractItemModel::layoutChanged, this, &SnapshotFilterProxyModel::onSourceStructureChanged);
    connect(source, &QAbstractItemModel::headerDataChanged, this, &QAbstractItemModel::headerDataChanged);
    setRows(visibleRows());
}

QModelIndex SnapshotFilterProxyModel::index(int row, int column, const QModelIndex &parent) const
{
    if (parent.isValid() || row < 0 || row >= m_proxyToSource.size() || column < 0
        || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex SnapshotFilterProxyModel::parent(const QModelIndex &) const
{
    return {};
}

int SnapshotFilterProxyModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_proxyToSource.size());
}

int SnapshotFilterProxyModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_source->columnCount();
}

QModelIndex SnapshotFilterProxyModel::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!proxyIndex.isValid() || proxyIndex.model() != this || proxyIndex.row() >= m_proxyToSource.size())
        return {};
    return m_source->index(m_proxyToSource[proxyIndex.row()], proxyIndex.column());
}

QModelIndex SnapshotFilterProxyModel::mapFromSource(const QModelIndex &sourceIndex) const
{
    if (!sourceIndex.isValid() || sourceIndex.row() >= m_sourceToProxy.size())
        return {};
    const int row = m_sourceToProxy[sourceIndex.row()];
    return row < 0 ? QModelIndex() : createIndex(row, sourceIndex.column());
}

bool SnapshotFilterProxyModel::less(int left, int right) const
{
    return m_order == Qt::AscendingOrder ? m_source->lessThan(left, right, m_sortColumn)
                                         : m_source->lessThan(right, left, m_sortColumn);
}

void SnapshotFilterProxyModel::sortRows(QVector<int> &rows) const
{
    if (m_sortColumn < 0)
        std::sort(rows.begin(), rows.end());
    else
        std::stable_sort(rows.begin(), rows.end(), [this](int a, int b) { return less(a, b); });
}

QVector<int> SnapshotFilterProxyModel::visibleRows() const
{
    QVector<int> rows;
    const int count = m_source->rowCount();
    rows.reserve(count);
    const bool all = m_filter.isEmpty();
    for (int row = 0; row < count; ++row)
        if (all || m_source->matches(row, m_filter))
            rows << row;
    if (m_sortColumn >= 0)
        sortRows(rows);
    return rows;
}

void SnapshotFilterProxyModel::setRows(QVector<int> rows)
{
    m_proxyToSource = std::move(rows);
    m_sourceToProxy.fill(-1, m_source->rowCount());
    for (int i = 0; i < m_proxyToSource.size(); ++i)
        m_sourceToProxy[m_proxyToSource[i]] = i;
}

void SnapshotFilterProxyModel::beginLayout(QAbstractItemModel::LayoutChangeHint hint)
{
    // VerticalSortHint only when rows are merely reordered: then the horizontal header can
    // skip its bookkeeping. Anything that changes the row count says nothing.
    m_hint = hint;
    Q_EMIT layoutAboutToBeChanged({}, hint);
    m_savedPersistent = persistentIndexList();
    m_savedSourceRows.resize(m_savedPersistent.size());
    for (int i = 0; i < m_savedPersistent.size(); ++i) {
        const QModelIndex &index = m_savedPersistent[i];
        m_savedSourceRows[i] = index.row() < m_proxyToSource.size() ? m_proxyToSource[index.row()] : -1;
    }
}

void SnapshotFilterProxyModel::endLayout(const QVector<int> &oldToNewSource)
{
    QModelIndexList to;
    to.reserve(m_savedPersistent.size());
    for (int i = 0; i < m_savedPersistent.size(); ++i) {
        int source = m_savedSourceRows[i];
        if (source >= 0 && !oldToNewSource.isEmpty())
            source = source < oldToNewSource.size() ? oldToNewSource[source] : -1;
        const int row = source >= 0 && source < m_sourceToProxy.size() ? m_sourceToProxy[source] : -1;
        to << (row >= 0 ? createIndex(row, m_savedPersistent[i].column()) : QModelIndex());
    }
    changePersistentIndexList(m_savedPersistent, to);
    m_savedPersistent.clear();
    m_savedSourceRows.clear();
    Q_EMIT layoutChanged({}, m_hint);
}

void SnapshotFilterProxyModel::setFilter(const RowFilter &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    beginLayout();
    setRows(visibleRows());
    endLayout({});
}

void SnapshotFilterProxyModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_order = order;
    beginLayout(QAbstractItemModel::VerticalSortHint);
    QVector<int> rows = m_proxyToSource;
    sortRows(rows);
    setRows(std::move(rows));
    endLayout({});
}

void SnapshotFilterProxyModel::onPlanAboutToBeApplied(const RowPlan &plan)
{
    m_inPlan = true;
    m_plan = plan;
    m_sourceRowsBeforePlan = int(m_sourceToProxy.size());
    beginLayout();
}

void SnapshotFilterProxyModel::onPlanApplied()
{
    m_inPlan = false;
    const RowPlan plan = std::exchange(m_plan, RowPlan{});
    // Old source row -> new: survivors keep their order and close up over the removed rows.
    QVector<int> oldToNew(m_sourceRowsBeforePlan, -1);
    {
        int removedIndex = 0, next = 0;
        for (int row = 0; row < m_sourceRowsBeforePlan; ++row) {
            if (removedIndex < plan.removedRows.size() && plan.removedRows[removedIndex] == row) {
                ++removedIndex;
                continue;
            }
            oldToNew[row] = next++;
        }
    }
    const int total = m_source->rowCount();
    for (const RowOrder &order : plan.orders) {
        if (m_sortColumn >= 0 && order.column == m_sortColumn && order.order == m_order && order.filter == m_filter) {
            setRows(order.rows);
            endLayout(oldToNew);
            return;
        }
    }
    QVector<bool> changed(total, false);
    for (int row : plan.changedRows)
        changed[row] = true;
    const bool all = m_filter.isEmpty();

    // Rows whose place must be decided again: changed survivors and new arrivals.
    QVector<int> rows, placed;
    rows.reserve(total);
    for (int oldSource : std::as_const(m_proxyToSource)) {
        const int source = oldToNew[oldSource];
        if (source < 0 || changed[source])
            continue;
        rows << source; // unchanged and visible before: still visible, still in order
    }
    for (int source : plan.changedRows)
        if (all || m_source->matches(source, m_filter))
            placed << source;
    for (int source = plan.keptCount; source < total; ++source)
        if (all || m_source->matches(source, m_filter))
            placed << source;

    sortRows(placed);
    QVector<int> merged;
    merged.reserve(rows.size() + placed.size());
    if (m_sortColumn < 0) {
        std::merge(rows.cbegin(), rows.cend(), placed.cbegin(), placed.cend(), std::back_inserter(merged));
    } else {
        std::merge(rows.cbegin(), rows.cend(), placed.cbegin(), placed.cend(), std::back_inserter(merged),
                   [this](int a, int b) { return less(a, b); });
    }
    setRows(std::move(merged));
    endLayout(oldToNew);
}

void SnapshotFilterProxyModel::onSourceDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight)
{
    if (m_inPlan || !topLeft.isValid())
        return;
    // Outside a plan (units changed, say): same rows, maybe other order or filter result.
    QVector<int> rows = visibleRows();
    if (rows == m_proxyToSource) {
        int first = INT_MAX, last = -1;
        for (int source = topLeft.row(); source <= bottomRight.row(); ++source) {
            const int row = m_sourceToProxy.value(source, -1);
            if (row >= 0) {
                first = qMin(first, row);
                last = qMax(last, row);
            }
        }
        if (last >= 0)
            Q_EMIT dataChanged(index(first, topLeft.column()), index(last, bottomRight.column()));
        return;
    }
    beginLayout();
    setRows(std::move(rows));
    endLayout({});
}

void SnapshotFilterProxyModel::onSourceStructureChanged()
{
    // Only a model used outside applyPlan gets here; follow it with a full layout change.
    beginLayout();
    for (int &row : m_savedSourceRows)
        row = -1; // the rows' identity is unknown after an unplanned change
    setRows(visibleRows());
    endLayout({});
}

} // namespace strata
