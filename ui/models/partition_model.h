#pragma once

#include "snapshot_row_model.h"

#include <memory>

namespace strata {

// The partitions layer: one row per partition (or Kubernetes pool) with its node, GPU and job
// counts. Keyed by name. The counts scan every job, so plan() belongs off the GUI thread.
class PartitionModel : public SnapshotRowModel
{
    Q_OBJECT
public:
    enum Column { Name, State, Nodes, Gpus, GpusBusy, JobsRunning, JobsPending, ColumnCount };

    struct Counts
    {
        int nodes = 0, gpus = 0, gpusBusy = 0, jobsRunning = 0, jobsPending = 0;
        bool operator==(const Counts &) const = default;
    };
    struct Plan
    {
        RowPlan rows;
        std::shared_ptr<const QVector<Counts>> counts;
    };
    struct Current
    {
        SnapshotPtr snapshot;
        QVector<int> rows;
        std::shared_ptr<const QVector<Counts>> counts;
    };

    explicit PartitionModel(QObject *parent = nullptr);

    Current current() const { return {m_snapshot, m_rows, m_counts}; }
    static Plan plan(const Current &current, const SnapshotPtr &next);
    void apply(const Plan &plan);
    void setSnapshot(const SnapshotPtr &next) { apply(plan(current(), next)); }
    const Partition &partition(int row) const { return m_snapshot->partitions[m_rows[row]]; }
    const Counts &counts(int row) const { return (*m_counts)[m_rows[row]]; }

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    QString key(int row) const override;
    bool matches(int row, const RowFilter &filter) const override;
    bool lessThan(int leftRow, int rightRow, int column) const override;

private:
    std::shared_ptr<const QVector<Counts>> m_counts;
};

} // namespace strata
