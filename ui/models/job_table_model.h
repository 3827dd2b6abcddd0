#pragma once

#include "filter_choices.h"
#include "snapshot_row_model.h"

#include <memory>

namespace strata {

// The Jobs table: one row per job, keyed by job id, updated by diff (see SnapshotRowModel).
// At 50,000 jobs plan() takes tens of milliseconds: run it off the GUI thread. GUI thread.
class JobTableModel : public SnapshotRowModel
{
    Q_OBJECT
public:
    enum Column {
        Id, Name, User, State, Reason, Partition, Nodes, Gpus, TimeUsed, TimeLimit, Util,
        Efficiency, Framework,
        Kind, // Kubernetes: the workload's kind (PyTorchJob, Deployment, Job, Pod, ...); a dash for Slurm
        ColumnCount
    };

    struct Plan
    {
        RowPlan rows;
        FilterChoices choices;
        // Job ids as sortable numbers, one per snapshot job (see compareIds); ~0 for names.
        std::shared_ptr<const QVector<quint64>> idKeys;
    };
    struct Current
    {
        SnapshotPtr snapshot;
        QVector<int> rows;
        // Sorted views' filter and order (SnapshotFilterProxyModel::orderRequest): plan() sorts
        // the new rows for them, so the GUI thread only adopts the order.
        QVector<RowOrder> orders;
    };

    explicit JobTableModel(QObject *parent = nullptr);

    Current current() const { return {m_snapshot, m_rows, {}}; }
    static Plan plan(const Current &current, const SnapshotPtr &next); // thread-safe
    void apply(const Plan &plan);
    void setSnapshot(const SnapshotPtr &next) { apply(plan(current(), next)); }

    const Job &job(int row) const { return m_snapshot->jobs[m_rows[row]]; }
    // Job ids compare as numbers ("998" < "1000"), array tasks by task number.
    static int compareIds(const QString &a, const QString &b);
    static quint64 idKey(const QString &id);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    QString key(int row) const override;
    bool matches(int row, const RowFilter &filter) const override;
    bool lessThan(int leftRow, int rightRow, int column) const override;

    // The same on snapshot items (indices into snapshot.jobs), for plan() on a worker.
    static bool itemMatches(const Job &job, const RowFilter &filter);
    static bool itemLess(const ClusterSnapshot &snapshot, const QVector<quint64> &idKeys, int leftItem,
                         int rightItem, int column);

private:
    QString text(int row, int column) const;
    static QString itemText(const Job &job, int column);

    std::shared_ptr<const QVector<quint64>> m_idKeys;
};

} // namespace strata
