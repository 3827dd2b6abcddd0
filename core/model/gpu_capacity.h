#pragma once

#include <QString>

namespace strata {

struct Node;

// GPUs split the way an operator plans with them, by one rule for every surface (status bar,
// overview, heatmap, fleet map, CLI text and JSON). Each GPU is in exactly one bucket:
//  - busy:        held by a job on a launched node (a draining node's running work included);
//  - idle:        free on a launched node that takes work (not drained, draining, cordoned, down);
//  - starting:    on a node being launched (a CONFIGURING job waits for it);
//  - launchable:  on a powered-down node that takes work: a job that needs it launches it;
//  - unavailable: on a node that is down, drained, powering down or failed to launch, and the
//                 free GPUs of a draining or cordoned node.
// GPUs of a node whose count was refused are unknown and in no bucket (gpuCount is 0).
struct GpuCapacity
{
    enum class Bucket { Busy, Idle, Starting, Launchable, Unavailable };

    int busy = 0;
    int idle = 0;
    int starting = 0;
    int launchable = 0;
    int unavailable = 0;

    int total() const { return busy + idle + starting + launchable + unavailable; }
    GpuCapacity &operator+=(const GpuCapacity &other);

    // The bucket of one GPU of `node`, held by a job or not (a surface drawing GPUs one by one).
    static Bucket bucket(const Node &node, bool held);
    // A node's GPUs: its gpusAllocated held, the rest not.
    static GpuCapacity of(const Node &node);
    // "busy", "idle", "starting", "launchable", "unavailable": the word every surface uses.
    static QString bucketName(Bucket bucket);
};

} // namespace strata
