#pragma once

#include "relations.h"
#include "stack_element.h"

#include "model/cluster_snapshot.h"

#include <QHash>
#include <QVector>

namespace strata {

// Who relates to whom in one snapshot (node -> running jobs, partition -> nodes and jobs,
// instance type -> nodes, framework -> jobs), so a click in one layer finds its relatives in the others without
// scanning 50,000 jobs. Built off the GUI thread; immutable afterwards.
class RelationIndex
{
public:
    RelationIndex() = default;
    static RelationIndex build(const SnapshotPtr &snapshot);

    Relations relatedTo(const StackElement &element) const;
    const SnapshotPtr &snapshot() const { return m_snapshot; }

private:
    void addNode(Relations &r, const Node &node, bool allGpus, bool withJobs) const;

    SnapshotPtr m_snapshot;
    QHash<QString, QVector<int>> m_jobsByNode;       // running jobs, as indices into jobs
    QHash<QString, QVector<int>> m_jobsByPartition;
    QHash<QString, QVector<int>> m_nodesByPartition; // indices into nodes
    QHash<QString, QVector<int>> m_nodesByInstanceType;
    QHash<QString, QVector<int>> m_jobsByFramework;  // running and pending jobs
};

} // namespace strata
