#pragma once

#include <QString>

#include <optional>

namespace strata {

// A workload waiting in a queue for quota: Kueue's Workload object, the job it stands for and
// why it waits.
struct QueuePendingWorkload
{
    QString workload;   // "namespace/name" of the Workload object
    QString jobId;      // the Job Strata shows for it (Job::id); empty when it has no owner
    QString jobKind;    // its owner's kind ("JobSet", "PyTorchJob", "Job")
    QString localQueue; // the LocalQueue it was submitted to
    std::optional<int> position; // 0 = next, in its ClusterQueue; empty when not known
    int priority = 0;
    int gpus = 0;       // nvidia.com/gpu its pod sets ask for in all
    QString reason;     // Kueue's word why it waits (the QuotaReserved=False message)
    bool evicted = false; // it ran, was evicted (preempted, ...) and waits again; reason says why
};

} // namespace strata
