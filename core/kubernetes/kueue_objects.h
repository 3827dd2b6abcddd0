#pragma once

#include "kueue_pending_position.h"
#include "kueue_workload.h"
#include "model/queue.h"

#include <QHash>
#include <QString>
#include <QVector>

namespace strata {

// What one refresh read of Kueue (KueueReader), for KueueFacts to apply to the part.
struct KueueObjects
{
    QVector<Queue> clusterQueues;
    QVector<Queue> localQueues;
    QVector<KueueWorkload> workloads;
    // ClusterQueue name -> its pending workloads in Kueue's order, from the visibility API; a
    // ClusterQueue absent here had no answer (the API is not served, or failed: said in a warning).
    QHash<QString, QVector<KueuePendingPosition>> positions;
};

} // namespace strata
