#include "fabric_nodes.h"

#include "model/cluster_snapshot.h"
#include "model/gpu_catalog.h"

namespace strata {

FabricNodes fabricNodes(const ClusterSnapshot &snapshot, const QStringList &nodes,
                        const GpuCatalog &catalog, OrchestratorKind scheduler)
{
    FabricNodes result;
    result.scheduler = scheduler;
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
        if (scheduler == OrchestratorKind::Kubernetes ? node->isDown() : node->isUnavailable())
            result.unavailable << (node->reason.isEmpty()
                                       ? QStringLiteral("%1 is %2").arg(node->name, node->state)
                                       : QStringLiteral("%1 is %2 (%3)")
                                             .arg(node->name, node->state, node->reason));
        result.gpusPerNode =
            result.gpusPerNode == 0 ? node->gpuCount : qMin(result.gpusPerNode, node->gpuCount);
    }
    result.expectation = fabricExpectation(catalog, types);
    if (!types.isEmpty() && !types.first().isEmpty() && types.count(types.first()) == types.size())
        result.instanceType = types.first();
    return result;
}

QString fabricNodesRefusal(const FabricNodes &found)
{
    if (found.unavailable.isEmpty())
        return {};
    if (found.scheduler == OrchestratorKind::Kubernetes)
        return QStringLiteral("%1: no pod of the test can run there; leave %2 out")
            .arg(found.unavailable.join(QLatin1String("; ")),
                 found.unavailable.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"));
    return QStringLiteral("%1: Slurm starts no job there, not even in a maintenance reservation; "
                          "resume %2 or leave %3 out")
        .arg(found.unavailable.join(QLatin1String("; ")),
             found.unavailable.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"),
             found.unavailable.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"));
}

} // namespace strata
