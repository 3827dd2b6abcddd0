#include "fabric_expectation.h"

#include "model/gpu_catalog.h"

namespace strata {

FabricExpectation fabricExpectation(const GpuCatalog &catalog, const QStringList &instanceTypes)
{
    FabricExpectation e;
    QStringList types;
    for (const QString &t : instanceTypes)
        if (!types.contains(t))
            types << t;
    if (types.size() != 1 || types.first().isEmpty()) {
        e.explanation = types.size() > 1 ? QStringLiteral("the nodes are of %1 instance types (%2): no single floor; judged against each other")
                                               .arg(types.size()).arg(types.join(QLatin1String(", ")))
                                         : QStringLiteral("the nodes' instance type is unknown: judged against each other");
        return e;
    }
    const InstanceTypeSpec *spec = catalog.instanceType(types.first());
    if (!spec || spec->networkGbps <= 0) {
        e.explanation = QStringLiteral("no network figure for %1 in the catalog: judged against each other").arg(types.first());
        return e;
    }
    e.lineGBps = spec->networkGbps / 8.0;
    e.floorGBps = e.lineGBps * kFabricFloorFraction;
    e.explanation = QStringLiteral("%1: %2 Gbps of EFA per instance (%3 GB/s); floor %4 % of it, %5 GB/s of all-reduce bus bandwidth")
                        .arg(spec->name)
                        .arg(spec->networkGbps)
                        .arg(e.lineGBps, 0, 'f', 0)
                        .arg(qRound(kFabricFloorFraction * 100))
                        .arg(e.floorGBps, 0, 'f', 0);
    return e;
}

} // namespace strata
