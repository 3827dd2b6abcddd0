#include "fabric_fleet.h"

namespace strata {

namespace FabricFleet {

bool isPeer(const FabricHistoryRecord &record, const FabricHistoryRecord &candidate)
{
    return !record.instanceType.isEmpty() && candidate.runId != record.runId && candidate.busbwGBps > 0
        && candidate.instanceType == record.instanceType && candidate.nodeCount == record.nodeCount
        && candidate.tool == record.tool && candidate.backend == record.backend && candidate.op == record.op
        && candidate.largestMessageBytes == record.largestMessageBytes;
}

FleetComparison compare(const FabricHistoryRecord &record, const QVector<FabricHistoryRecord> &history, const FleetRule &rule)
{
    QVector<double> peers;
    for (const FabricHistoryRecord &candidate : history)
        if (isPeer(record, candidate))
            peers << candidate.busbwGBps;
    FleetComparison c = compareWithFleet(record.busbwGBps, peers, true, rule);
    const QString fleet = QStringLiteral("%1 x %2, %3 %4 %5, %6 bytes")
                              .arg(record.nodeCount)
                              .arg(record.instanceType.isEmpty() ? QStringLiteral("unknown type") : record.instanceType,
                                   record.tool, record.backend, record.op)
                              .arg(record.largestMessageBytes);
    if (record.instanceType.isEmpty())
        c.explanation = QStringLiteral("no fleet: the nodes' instance type is unknown or mixed");
    else if (c.standing == FleetComparison::Standing::Outlier)
        c.explanation = QStringLiteral("outlier, robust z %1: %2 (%3)").arg(c.robustZ, 0, 'f', 1).arg(c.explanation, fleet);
    else
        c.explanation = QStringLiteral("%1 (%2)").arg(c.explanation, fleet);
    return c;
}

} // namespace FabricFleet

} // namespace strata
