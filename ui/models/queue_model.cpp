#include "queue_model.h"

namespace strata {

QueueModel::QueueModel(QObject *parent) : QAbstractTableModel(parent) {}

void QueueModel::setQueues(const QVector<Queue> &queues)
{
    bool sameRows = queues.size() == m_queues.size();
    for (qsizetype i = 0; sameRows && i < queues.size(); ++i)
        sameRows = queues[i].id() == m_queues[i].id() && queues[i].kind == m_queues[i].kind;
    if (!sameRows) {
        beginResetModel();
        m_queues = queues;
        endResetModel();
        return;
    }
    m_queues = queues;
    if (!m_queues.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int QueueModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_queues.size());
}

int QueueModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString QueueModel::flavorText(const Queue &q)
{
    QStringList parts;
    for (const QueueFlavor &f : q.flavors) {
        if (q.kind == Queue::Kind::Local)
            parts << tr("%1 %2").arg(f.name).arg(f.gpusUsed);
        else if (f.gpuQuota)
            parts << tr("%1 %2/%3").arg(f.name).arg(f.gpusUsed).arg(*f.gpuQuota);
    }
    return parts.join(QStringLiteral(", "));
}

QString QueueModel::pendingText(const Queue &q)
{
    if (q.pending.isEmpty())
        return {};
    QString text = q.positionSource == Queue::PositionSource::Visibility
                       ? tr("Waiting, in Kueue's order:")
                       : tr("Waiting, by priority, then creation (Kueue's visibility API is not served):");
    for (const QueuePendingWorkload &p : q.pending)
        text += QLatin1Char('\n')
                + tr("%1. %2 (%3 GPUs): %4")
                      .arg(p.position ? QString::number(*p.position) : QStringLiteral("-"),
                           p.jobId.isEmpty() ? p.workload : p.jobId)
                      .arg(p.gpus)
                      .arg(p.reason);
    return text;
}

QVariant QueueModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Queue &q = m_queues[index.row()];
    if (role == Qt::ToolTipRole) {
        if (const QString pending = pendingText(q); !pending.isEmpty())
            return pending;
        const QueueCondition *active = q.condition(QLatin1StringView("Active"));
        return active ? QStringLiteral("%1: %2").arg(active->reason, active->message) : QVariant();
    }
    if (role == Qt::TextAlignmentRole && (index.column() == Gpus || index.column() == Pending || index.column() == Admitted))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Name: return q.id();
    case Kind: return q.kind == Queue::Kind::Cluster ? tr("ClusterQueue") : tr("LocalQueue");
    case Feeds:
        if (q.kind == Queue::Kind::Local)
            return q.clusterQueue;
        return q.cohort.isEmpty() ? QString() : tr("cohort %1").arg(q.cohort);
    case Gpus:
        return q.kind == Queue::Kind::Cluster ? tr("%1/%2").arg(q.gpusUsed()).arg(q.gpuQuota()) : QString::number(q.gpusUsed());
    case Flavors: return flavorText(q);
    case Pending: return q.pendingWorkloads;
    case Admitted: return q.admittedWorkloads;
    case Next:
        if (q.pending.isEmpty())
            return {};
        return tr("%1: %2").arg(q.pending.first().jobId.isEmpty() ? q.pending.first().workload : q.pending.first().jobId,
                                q.pending.first().reason);
    case State: {
        if (q.isActive())
            return tr("active");
        const QueueCondition *active = q.condition(QLatin1StringView("Active"));
        return active && !active->reason.isEmpty() ? tr("inactive (%1)").arg(active->reason) : tr("inactive");
    }
    }
    return {};
}

QVariant QueueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Queue");
    case Kind: return tr("Kind");
    case Feeds: return tr("ClusterQueue / cohort");
    case Gpus: return tr("GPUs used/quota");
    case Flavors: return tr("Per flavor");
    case Pending: return tr("Pending");
    case Admitted: return tr("Admitted");
    case Next: return tr("Next waiting");
    case State: return tr("State");
    }
    return {};
}

} // namespace strata
