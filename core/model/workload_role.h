#pragma once

#include <QString>

namespace strata {

// One role of a Kubernetes workload as its controller reports it: a PyTorchJob's "Master" and
// "Worker", a JobSet's replicated job, a RayCluster's "head" and a worker group, a
// LeaderWorkerSet's leaders and workers, a Deployment's replicas. Counts are pods; -1 where the
// object does not say.
struct WorkloadRole
{
    QString name;
    int desired = -1;   // replicas the spec asks for
    int active = -1;    // pods created and not finished
    int ready = -1;
    int succeeded = -1;
    int failed = -1;
};

} // namespace strata
