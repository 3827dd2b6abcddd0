#pragma once

#include "model/queue.h"

#include <QString>
#include <QVector>

namespace strata {

// `strata queues` as text: each ClusterQueue with its GPU quota and usage per flavor, its
// workload counts and its pending workloads in order (saying whose order), then the
// LocalQueues. Names from the cluster are shown escaped (TextTable::printable). Pure.
class QueueTextPrinter
{
public:
    static QString print(const QVector<Queue> &queues);
};

} // namespace strata
