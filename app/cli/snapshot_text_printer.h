#pragma once

#include "model/cluster_snapshot.h"

#include <QString>

namespace strata {

// The layered stack as plain text for a terminal: instances, nodes (with GPUs), partitions,
// jobs, findings, sources. Missing values print as "-".
class SnapshotTextPrinter
{
public:
    static QString print(const ClusterSnapshot &snapshot);
};

} // namespace strata
