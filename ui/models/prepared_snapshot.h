#pragma once

#include "finding_table_model.h"
#include "instance_type_model.h"
#include "workload_model.h"
#include "job_table_model.h"
#include "node_table_model.h"
#include "partition_model.h"
#include "relation_index.h"

namespace strata {

// Everything a new snapshot needs before the window can show it (the models' diffs, the
// relation index, the totals), computed in one go off the GUI thread so that applying it is
// only signal emission and pointer swaps.
struct PreparedSnapshot
{
    // What the models show now, captured on the GUI thread (shared data: cheap copies).
    struct Current
    {
        NodeTableModel::Current nodes;
        JobTableModel::Current jobs;
        PartitionModel::Current partitions;
        SnapshotPtr instanceTypesSnapshot;
        QVector<int> instanceTypeRows;
        SnapshotPtr workloadsSnapshot;
        QVector<int> workloadRows;
        SnapshotPtr findingsSnapshot;
        QVector<int> findingRows;
    };

    SnapshotPtr snapshot;
    NodeTableModel::Plan nodes;
    JobTableModel::Plan jobs;
    PartitionModel::Plan partitions;
    RowPlan instanceTypes;
    RowPlan workloads;
    RowPlan findings;
    RelationIndex relations;
    ClusterSnapshot::Totals totals;
    qint64 prepareMs = 0;

    // Thread-safe: reads only its arguments.
    static PreparedSnapshot prepare(const Current &current, const SnapshotPtr &next);
};

} // namespace strata
