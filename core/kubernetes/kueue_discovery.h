#pragma once

namespace strata {

// Which of Kueue's APIs the API server lists (its APIGroupList, GET /apis): a cluster without
// Kueue has neither, which is no error.
struct KueueDiscovery
{
    bool kueueServed = false;      // kueue.x-k8s.io/v1beta1: ClusterQueue, LocalQueue, Workload
    bool visibilityServed = false; // visibility.kueue.x-k8s.io/v1beta1: pending workloads in order
};

} // namespace strata
