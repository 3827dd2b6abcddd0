#pragma once

#include "fabric_expectation.h"
#include "model/orchestrator_kind.h"

namespace strata {

class ClusterSnapshot;
class GpuCatalog;

// What a snapshot says of the nodes a fabric test is asked for: the floor their instance
// types give and the ranks per node their GPUs allow. The CLI and the window both start here.
struct FabricNodes
{
    FabricExpectation expectation;
    int gpusPerNode = 0;  // the smallest GPU count among the nodes found
    QString instanceType; // the nodes' one instance type; empty when mixed or unknown (no fleet)
    QString missingNode;  // the first node the snapshot does not have (its type counts as unknown)
    // The nodes that cannot run the test now, each as "gpu-node03 is drained (Kill task
    // failed)": a test over them would wait for ever. Slurm: drained, draining, down, not
    // responding (a maintenance reservation runs nothing on them either). Kubernetes: NotReady
    // only (the test's pods tolerate a cordon; an operator's cordon is kept).
    QStringList unavailable;
    OrchestratorKind scheduler = OrchestratorKind::Slurm;
};

FabricNodes fabricNodes(const ClusterSnapshot &snapshot, const QStringList &nodes,
                        const GpuCatalog &catalog, OrchestratorKind scheduler);
// Why the test cannot start over these nodes, for the CLI and the window alike; empty when
// every node can run it.
QString fabricNodesRefusal(const FabricNodes &found);

} // namespace strata
