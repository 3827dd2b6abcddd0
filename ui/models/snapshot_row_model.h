#pragma once

#include "row_filter.h"
#include "row_plan.h"

#include <QAbstractTableModel>
#include <QHash>

#include <functional>

namespace strata {

// Base of the tables that show one kind of snapshot item (nodes, jobs, partitions, ...), each
// row keyed by a stable identity (node name, job id). A new snapshot is applied as a diff:
// removed keys leave with beginRemoveRows, changed rows get dataChanged, new keys are appended
// with beginInsertRows. Never a reset, so views keep their selection, current index and scroll
// position across refreshes. Lives on the GUI thread; plans are computed anywhere.
class SnapshotRowModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex &parent = {}) const override;

    SnapshotPtr snapshot() const { return m_snapshot; }
    // Index of the row's item in snapshot() (e.g. into snapshot()->jobs).
    int itemIndex(int row) const { return m_rows[row]; }
    virtual QString key(int row) const = 0;
    int rowForKey(const QString &key) const; // -1 when absent; linear, for selection restore

    // Filtering and sorting straight on the structs, for SnapshotFilterProxyModel: going
    // through data() and QVariant for 50,000 rows costs several times more.
    virtual bool matches(int row, const RowFilter &filter) const = 0;
    virtual bool lessThan(int leftRow, int rightRow, int column) const = 0;

    // Rows carry their key under this role, for delegates and tests.
    static constexpr int KeyRole = Qt::UserRole + 1;
    // A cell with a status swatch carries a StatusMark (status_mark.h) under this role: what the
    // swatch stands for. The view's delegate picks its colour; models hold none.
    static constexpr int StatusRole = Qt::UserRole + 2;

Q_SIGNALS:
    // Around the row signals of one applied plan, so that a proxy can turn the whole update
    // into one layout change instead of following hundreds of scattered removals.
    void planAboutToBeApplied(const strata::RowPlan &plan);
    void planApplied();
    // After every applied plan: how many rows left, changed and arrived.
    void updated(int removed, int changed, int inserted);

protected:
    // Computes the plan from (current, currentRows) to next. keyOf(snapshot, item) gives an
    // item's key, findNext(key) its index in next or -1, changed(oldItem, newItem) whether a
    // surviving row shows something different.
    template <typename KeyOf, typename FindNext, typename Changed>
    static RowPlan diff(const SnapshotPtr &current, const QVector<int> &currentRows,
                        const SnapshotPtr &next, int nextCount, KeyOf keyOf, FindNext findNext,
                        Changed changed)
    {
        RowPlan plan;
        plan.snapshot = next;
        plan.rows.reserve(nextCount);
        QVector<bool> present(nextCount, false);
        for (int row = 0; row < currentRows.size(); ++row) {
            const int oldItem = currentRows[row];
            const int newItem = findNext(keyOf(*current, oldItem));
            if (newItem < 0) {
                plan.removedRows << row;
                continue;
            }
            present[newItem] = true;
            if (changed(oldItem, newItem))
                plan.changedRows << int(plan.rows.size());
            plan.rows << newItem;
        }
        plan.keptCount = int(plan.rows.size());
        for (int item = 0; item < nextCount; ++item)
            if (!present[item])
                plan.rows << item;
        return plan;
    }

    // Applies a plan; adoptDerived runs when the new snapshot is swapped in (after removals,
    // before dataChanged and insertions), for subclasses that keep data derived from it.
    void applyPlan(const RowPlan &plan, const std::function<void()> &adoptDerived = {});

    SnapshotPtr m_snapshot;
    QVector<int> m_rows;

private:
    void emitChanged(const QVector<int> &rows);
};

} // namespace strata
