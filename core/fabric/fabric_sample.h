#pragma once

#include <QString>

namespace strata {

// The collective a fabric sample measured.
enum class FabricOp { AllReduce, AllToAll };

QString fabricOpName(FabricOp op); // "all_reduce", "all_to_all"

// One message size of one collective across one group of nodes, as nccl-tests reports it:
// algbw = bytes / seconds; busbw = algbw x 2(n-1)/n for all-reduce and x (n-1)/n for
// all-to-all, comparable across rank counts. GB/s are 10^9 bytes per second.
struct FabricSample
{
    FabricOp op = FabricOp::AllReduce;
    qint64 bytes = 0;
    double seconds = 0;   // one operation, the slowest rank's average
    double algbwGBps = 0;
    double busbwGBps = 0;
    int ranks = 0;
};

} // namespace strata
