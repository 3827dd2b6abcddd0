#pragma once

#include "kubernetes/kubernetes_source.h"
#include "profile/cluster_profile.h"

namespace strata {

// How a profile's kubectl is called (context, namespace, who submits, timeouts): for the
// cluster's own source and for others that talk to the same cluster (the burn-in's Jobs).
KubernetesSourceOptions kubernetesProfileOptions(const ClusterProfile &profile);

} // namespace strata
