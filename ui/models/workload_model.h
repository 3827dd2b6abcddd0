#pragma once

#include "snapshot_row_model.h"

namespace strata {

// The top layer of the stack: one row per framework running or queued in jobs
// (snapshot->workloadGroups), with its kinds, job and GPU counts and the tokens/s its serving
// jobs report. Keyed by framework. GUI thread.
class WorkloadModel : public SnapshotRowModel
{
    Q_OBJECT
public:
    enum Column { Framework, JobsRunning, GpusHeld, Kinds, JobsPending, TokensPerSecond, ColumnCount };

    using SnapshotRowModel::SnapshotRowModel;

    static RowPlan plan(const SnapshotPtr &current, const QVector<int> &rows, const SnapshotPtr &next);
    void apply(const RowPlan &plan) { applyPlan(plan); }
    void setSnapshot(const SnapshotPtr &next) { apply(plan(m_snapshot, m_rows, next)); }
    QVector<int> rows() const { return m_rows; }
    const WorkloadGroup &group(int row) const { return m_snapshot->workloadGroups[m_rows[row]]; }

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    QString key(int row) const override;
    bool matches(int row, const RowFilter &filter) const override;
    bool lessThan(int leftRow, int rightRow, int column) const override;
};

} // namespace strata
