#pragma once

#include "kueue_objects.h"
#include "model/orchestrator_part.h"

namespace strata {

// Applies what Kueue says to a Kubernetes part (after KubernetesPartBuilder made its jobs). Pure.
//  - part.queues: the ClusterQueues (by name), then the LocalQueues (by namespace/name); each
//    ClusterQueue with its pending workloads in order: Kueue's own (the visibility API) where
//    it answered, else by priority and then creation, as Kueue orders them
//    (Queue::PositionSource::CreationOrder, said as Strata's reckoning).
//  - Each Workload's job (its owner, "namespace/ownerName", of the same kind where the job has
//    one): queueName; while it waits for quota, queuePosition and PENDING with Kueue's reason
//    (the QuotaReserved=False message); evicted or preempted: PENDING, the reason saying so;
//    held out (spec.active false): its state kept, the reason says so. A job that runs keeps its
//    state.
class KueueFacts
{
public:
    static void apply(OrchestratorPart &part, const KueueObjects &objects);
    // What a pending workload's reason reads as, from its state and conditions.
    static QString waitingReason(const KueueWorkload &workload);
};

} // namespace strata
