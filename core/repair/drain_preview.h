#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

struct ClusterSnapshot;

// What draining one node would do, shown before Strata drains it (issue 28): the jobs running
// there with their owners and GPUs on the node, and each of its partitions' capacity in service
// before and after. Built from a snapshot, pure.
struct DrainPreview
{
    struct AffectedJob
    {
        QString id;
        QString name;
        QString user;
        int gpusOnNode = 0;   // the job's GPUs on this node (its indices there, else its share)
    };
    struct PartitionCapacity
    {
        QString name;
        int nodes = 0;             // the partition's nodes
        int nodesInService = 0;    // not drained, draining or down now
        int nodesInServiceAfter = 0;
        int gpusInService = 0;     // GPUs of the nodes in service
        int gpusInServiceAfter = 0;
    };

    QString node;
    bool nodeKnown = false;        // the snapshot lists the node
    QVector<AffectedJob> jobs;     // running (or completing) jobs on the node, by id
    QVector<PartitionCapacity> partitions;

    // The users of `jobs` other than operatorUser, sorted, once each: whose work a drain
    // would hit without their knowing (a drain needs the operator's confirmation then).
    QStringList otherUsers(const QString &operatorUser) const;
    // One sentence: "gpu-node03 runs 2 jobs: 12 \"train\" (alice, 8 GPUs), ...; partition gpu
    // keeps 3 of 4 nodes (24 of 32 GPUs) in service". Job names are shown quoted and cut.
    QString summary() const;

    static DrainPreview of(const ClusterSnapshot &snapshot, const QString &node);
};

} // namespace strata
