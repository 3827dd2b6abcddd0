#pragma once

#include "snapshot_row_model.h"

namespace strata {

// The health findings: one row per finding, keyed by node, GPU and code, with the jobs each
// affects (FindingJobs). GUI thread.
class FindingTableModel : public SnapshotRowModel
{
    Q_OBJECT
public:
    enum Column { Severity, Node, Gpu, Jobs, Code, Message, ColumnCount };

    // The jobs a finding affects as shown: "1234", "1234, 1240"; empty when none.
    static QString jobsText(const Finding &finding);

    using SnapshotRowModel::SnapshotRowModel;

    static RowPlan plan(const SnapshotPtr &current, const QVector<int> &rows, const SnapshotPtr &next);
    void apply(const RowPlan &plan) { applyPlan(plan); }
    void setSnapshot(const SnapshotPtr &next) { apply(plan(m_snapshot, m_rows, next)); }
    QVector<int> rows() const { return m_rows; }
    const Finding &finding(int row) const { return m_snapshot->findings[m_rows[row]]; }
    static QString keyOf(const Finding &finding);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    QString key(int row) const override;
    bool matches(int row, const RowFilter &filter) const override;
    bool lessThan(int leftRow, int rightRow, int column) const override;
};

} // namespace strata
