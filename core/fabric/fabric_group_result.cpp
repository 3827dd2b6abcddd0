#include "fabric_group_result.h"

namespace strata {

QString fabricToolName(FabricTool tool)
{
    switch (tool) {
    case FabricTool::TorchProbe:
        return QStringLiteral("torch.distributed");
    case FabricTool::NcclTests:
        return QStringLiteral("nccl-tests");
    case FabricTool::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

double FabricGroupResult::figureGBps() const
{
    qint64 largest = 0;
    double figure = 0;
    for (const FabricSample &s : samples) {
        if (s.op == FabricOp::AllReduce && s.bytes > largest) {
            largest = s.bytes;
            figure = s.busbwGBps;
        }
    }
    return figure;
}

double FabricGroupResult::smallestMessageSeconds() const
{
    qint64 smallest = 0;
    double seconds = 0;
    for (const FabricSample &s : samples) {
        if (s.op == FabricOp::AllReduce && (smallest == 0 || s.bytes < smallest)) {
            smallest = s.bytes;
            seconds = s.seconds;
        }
    }
    return seconds;
}

} // namespace strata
