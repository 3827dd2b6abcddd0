#pragma once

#include "fabric_sample.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace strata {

// Which program measured a group.
enum class FabricTool { Unknown, TorchProbe, NcclTests };

QString fabricToolName(FabricTool tool); // "torch.distributed", "nccl-tests"

// What one test job over one set of nodes measured (or why it measured nothing).
struct FabricGroupResult
{
    QStringList nodes;
    QString jobId;
    FabricTool tool = FabricTool::Unknown;
    QString backend;          // "gloo", "nccl"
    int ranks = 0;
    QList<FabricSample> samples;
    QStringList unsupported;  // collectives the backend refused ("all_to_all: ...")
    QString error;            // non-empty: no figure (the job failed, the output was unreadable)

    bool ok() const { return error.isEmpty() && figureGBps() > 0; }
    // The figure groups are compared by: all-reduce busbw at the largest message size measured
    // (small messages measure latency, not the links). 0 when there is none.
    double figureGBps() const;
    // The all-reduce latency: seconds of one operation at the smallest size (0 when none).
    double smallestMessageSeconds() const;
};

} // namespace strata
