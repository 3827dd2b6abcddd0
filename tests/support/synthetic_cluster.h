#pragma once

#include "model/cluster_snapshot.h"

#include <QDateTime>
#include <QString>

namespace strata {

struct SyntheticClusterOptions
{
    int nodes = 2000;
    int gpusPerNode = 8;
    int jobs = 50000;
    quint32 seed = 1;
    bool metrics = true;              // false: as if the profile had no Prometheus
    double missingMetricsFraction = 0.01; // GPUs the exporter does not see at all
    double busyFraction = 0.85;       // GPUs handed to running jobs
    QString clusterName = QStringLiteral("synthetic");
    QDateTime takenAt = QDateTime(QDate(2025, 1, 15), QTime(12, 0), Qt::UTC);
};

// Builds cluster snapshots without a cluster, for tests and benchmarks. Deterministic for a
// given seed. Node names are gpu-nodeNN (zero-padded to the width of the count, at least 2),
// so 4 nodes are gpu-node01..04 like the lab's.
class SyntheticCluster
{
public:
    static ClusterSnapshot generate(const SyntheticClusterOptions &options);

    // The next refresh of `base`, `seconds` later: running jobs' time advances, about 1% of the
    // jobs leave and as many new pending ones arrive (new ids), a few pending reasons and node
    // states change, every GPU's metrics move a little.
    static ClusterSnapshot evolve(const ClusterSnapshot &base, quint32 seed, int seconds = 10);

    static QString nodeName(int index, int nodeCount);
};

} // namespace strata
