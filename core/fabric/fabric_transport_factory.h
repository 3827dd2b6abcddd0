#pragma once

#include "fabric_transport.h"

#include <memory>

namespace strata {

class ClusterSession;

namespace FabricTransportFactory {

// The session's scheduler's transport: Kubernetes (through the session's KubernetesSource's
// kubectl commands) for a Kubernetes profile, else Slurm; both over the session's shell.
std::unique_ptr<FabricTransport> create(ClusterSession *cluster);

} // namespace FabricTransportFactory

} // namespace strata
