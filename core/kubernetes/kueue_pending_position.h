#pragma once

#include <QString>

namespace strata {

// One item of Kueue's visibility API answer (visibility.kueue.x-k8s.io/v1beta1
// PendingWorkloadsSummary of a ClusterQueue): a pending Workload and its place, 0 = next.
struct KueuePendingPosition
{
    QString namespaceName;
    QString name;             // the Workload's
    QString localQueue;
    int priority = 0;
    int positionInClusterQueue = 0;
    int positionInLocalQueue = 0;

    QString key() const { return namespaceName + QLatin1Char('/') + name; }
};

} // namespace strata
