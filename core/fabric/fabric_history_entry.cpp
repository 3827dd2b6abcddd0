#include "fabric_history_entry.h"

namespace strata {

std::optional<FabricHistoryRecord> fabricHistoryEntry(const FabricRoundGroup &group, const QString &runId,
                                                      const QDateTime &time, const QString &instanceType)
{
    const FabricGroupResult &result = group.result;
    if (!result.ok())
        return std::nullopt;
    FabricHistoryRecord r;
    r.runId = runId;
    r.time = time.toUTC();
    r.instanceType = instanceType;
    r.nodeCount = int(result.nodes.size());
    r.tool = fabricToolName(result.tool);
    r.backend = result.backend;
    r.op = fabricOpName(FabricOp::AllReduce);
    for (const FabricSample &s : result.samples)
        if (s.op == FabricOp::AllReduce)
            r.largestMessageBytes = qMax(r.largestMessageBytes, s.bytes);
    r.busbwGBps = result.figureGBps();
    r.latencyMicroseconds = result.smallestMessageSeconds() * 1e6;
    r.nodes = result.nodes;
    r.verdict = group.shortOfReference ? FabricHistoryVerdict::Short : FabricHistoryVerdict::Ok;
    return r;
}

} // namespace strata
