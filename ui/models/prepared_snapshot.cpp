#include "prepared_snapshot.h"

#include <QElapsedTimer>

namespace strata {

PreparedSnapshot PreparedSnapshot::prepare(const Current &current, const SnapshotPtr &next)
{
    QElapsedTimer timer;
    timer.start();
    PreparedSnapshot p;
    p.snapshot = next;
    p.nodes = NodeTableModel::plan(current.nodes, next);
    p.jobs = JobTableModel::plan(current.jobs, next);
    p.partitions = PartitionModel::plan(current.partitions, next);
    p.instanceTypes = InstanceTypeModel::plan(current.instanceTypesSnapshot, current.instanceTypeRows, next);
    p.workloads = WorkloadModel::plan(current.workloadsSnapshot, current.workloadRows, next);
    p.findings = FindingTableModel::plan(current.findingsSnapshot, current.findingRows, next);
    p.relations = RelationIndex::build(next);
    p.totals = next->totals();
    p.prepareMs = timer.elapsed();
    return p;
}

} // namespace strata
