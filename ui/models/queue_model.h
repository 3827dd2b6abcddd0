#pragma once

#include "model/queue.h"

#include <QAbstractTableModel>
#include <QVector>

namespace strata {

// Kueue's queues for the overview (the Kubernetes counterpart of the partitions): one row per
// ClusterQueue, then per LocalQueue, with GPUs used of the quota, per flavor, the workload
// counts and the next workload waiting with Kueue's reason; the whole pending list in order as
// the row's tool tip. Tens of rows: set whole on each snapshot (the rows stay when the queues
// do, so a selection survives a refresh). Owned by StackOverviewView; GUI thread.
class QueueModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Kind, Feeds, Gpus, Flavors, Pending, Admitted, Next, State, ColumnCount };

    explicit QueueModel(QObject *parent = nullptr);

    void setQueues(const QVector<Queue> &queues);
    const Queue &queue(int row) const { return m_queues[row]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // "h100 16/16, h200 0/8": GPUs used of the quota per flavor (LocalQueue: used only).
    static QString flavorText(const Queue &queue);
    // The pending workloads in order, one a line, saying whose order it is.
    static QString pendingText(const Queue &queue);

private:
    QVector<Queue> m_queues;
};

} // namespace strata
