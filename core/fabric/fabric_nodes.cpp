#include "fabric_nodes.h"

#include "model/cluster_snapshot.h"
#include "model/gpu_catalog.h"

namespace strata {

FabricNodes fabricNodes(const ClusterSnapshot &snapshot, const QStringList &nodes, const GpuCatalog &catalog)
{
    FabricNodes result;
    QStringList types;
    for (const QString &n : nodes) {
        const Node *node = snapshot.node(n);
        if (!node) {
            if (result.missingNode.isEmpty())
                result.missingNode = n;
            types << QString();
            continue;
        }
        types << node->instanceType;
        result.gpusPerNode = result.gpusPerNode == 0 ? node->gpuCount : qMin(result.gpusPerNode, node->gpuCount);
    }
    result.expectation = fabricExpectation(catalog, types);
    if (!types.isEmpty() && !types.first().isEmpty() && types.count(types.first()) == types.size())
        result.instanceType = types.first();
    return result;
}

} // namespace strata
