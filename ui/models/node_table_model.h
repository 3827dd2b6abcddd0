#pragma once

#include "filter_choices.h"
#include "node_summary.h"
#include "snapshot_row_model.h"
#include "unit_formatter.h"

#include <memory>

namespace strata {

// The Nodes table: one row per node, keyed by name, updated by diff (see SnapshotRowModel).
// GUI thread.
class NodeTableModel : public SnapshotRowModel
{
    Q_OBJECT
public:
    enum Column {
        Name, State, Reason, Partitions, InstanceType, GpuModel, Gpus, Cpus, Util, Temp, Power,
        Memory, Jobs, Findings, ColumnCount
    };

    struct Plan
    {
        RowPlan rows;
        std::shared_ptr<const QVector<NodeSummary>> summaries;
        FilterChoices choices;
    };
    // What planning needs from the model, copied on the GUI thread (shared data: cheap).
    struct Current
    {
        SnapshotPtr snapshot;
        QVector<int> rows;
        std::shared_ptr<const QVector<NodeSummary>> summaries;
    };

    explicit NodeTableModel(QObject *parent = nullptr);

    Current current() const { return {m_snapshot, m_rows, m_summaries}; }
    // Thread-safe: uses only its arguments.
    static Plan plan(const Current &current, const SnapshotPtr &next);
    void apply(const Plan &plan);
    void setSnapshot(const SnapshotPtr &next) { apply(plan(current(), next)); }

    void setFormatter(const UnitFormatter &formatter);
    const Node &node(int row) const { return m_snapshot->nodes[m_rows[row]]; }
    const NodeSummary &summary(int row) const { return (*m_summaries)[m_rows[row]]; }

    // "idle", "mixed", "allocated", "draining", "drained", "down", "launch failed", "powering up",
    // "powered down", "powering down", or the scheduler's word.
    static QString stateCategory(const Node &node);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    QString key(int row) const override;
    bool matches(int row, const RowFilter &filter) const override;
    bool lessThan(int leftRow, int rightRow, int column) const override;

private:
    QString text(int row, int column) const;

    std::shared_ptr<const QVector<NodeSummary>> m_summaries;
    UnitFormatter m_formatter;
};

} // namespace strata
