#pragma once

#include "fabric_expectation.h"

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
};

FabricNodes fabricNodes(const ClusterSnapshot &snapshot, const QStringList &nodes, const GpuCatalog &catalog);

} // namespace strata
