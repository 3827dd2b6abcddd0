#pragma once

#include "queue_condition.h"
#include "queue_flavor.h"
#include "queue_pending_workload.h"

#include <QString>
#include <QVector>

namespace strata {

// A Kubernetes queue: Kueue's ClusterQueue (the quota of GPUs per flavor, the counterpart of a
// Slurm partition) or LocalQueue (a namespace's door into one ClusterQueue), as the
// orchestrator part carries it beside the partitions.
struct Queue
{
    enum class Kind { Cluster, Local };
    // Where a pending workload's position comes from: Kueue's own visibility API (its order:
    // priority, then the queueing strategy), or, where that API is not served, the order the
    // workloads were created in within the ClusterQueue (Strata's reckoning, said as such).
    enum class PositionSource { None, Visibility, CreationOrder };

    Kind kind = Kind::Cluster;
    QString name;
    QString namespaceName;   // LocalQueue only
    QString clusterQueue;    // LocalQueue: the ClusterQueue it feeds; ClusterQueue: its own name
    QString cohort;          // ClusterQueue only: the cohort it borrows and lends within
    QString queueingStrategy; // ClusterQueue: "BestEffortFIFO" or "StrictFIFO"
    QString stopPolicy;      // "None", "Hold", "HoldAndDrain"
    QVector<QueueCondition> conditions;
    QVector<QueueFlavor> flavors; // ClusterQueue: quota and usage; LocalQueue: its usage only
    int pendingWorkloads = 0;
    int reservingWorkloads = 0;
    int admittedWorkloads = 0;
    QVector<QueuePendingWorkload> pending; // ClusterQueue only: in position order
    PositionSource positionSource = PositionSource::None;

    // "name" for a ClusterQueue, "namespace/name" for a LocalQueue.
    QString id() const { return kind == Kind::Local ? namespaceName + QLatin1Char('/') + name : name; }
    // The Active condition: false with its reason when the controller says the queue admits nothing.
    bool isActive() const
    {
        for (const QueueCondition &c : conditions)
            if (c.type == QLatin1String("Active"))
                return c.isTrue;
        return true;
    }
    const QueueCondition *condition(QLatin1StringView type) const
    {
        for (const QueueCondition &c : conditions)
            if (c.type == type)
                return &c;
        return nullptr;
    }
    int gpuQuota() const
    {
        int sum = 0;
        for (const QueueFlavor &f : flavors)
            sum += f.gpuQuota.value_or(0);
        return sum;
    }
    int gpusUsed() const
    {
        int sum = 0;
        for (const QueueFlavor &f : flavors)
            sum += f.gpusUsed;
        return sum;
    }
};

} // namespace strata
