#pragma once

#include "model/cluster_snapshot.h"

#include <QVector>

#include <optional>

namespace strata {

// Per-node figures the tables show but the snapshot does not hold directly: aggregates over the
// node's GPUs, its findings and its jobs. Built off the GUI thread, one per snapshot node.
struct NodeSummary
{
    std::optional<double> utilMean;
    std::optional<double> tempMax;
    std::optional<double> powerSum;
    std::optional<double> memUsedMiB;
    int gpusReporting = 0;   // GPUs with any metric
    int findings = 0;
    int criticalFindings = 0;
    int jobs = 0;            // running jobs on the node

    bool operator==(const NodeSummary &) const = default;

    static QVector<NodeSummary> build(const ClusterSnapshot &snapshot);
};

} // namespace strata
