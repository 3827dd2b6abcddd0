#pragma once

#include "burnin_request.h"

#include <memory>

class QObject;

namespace strata {

class BurninTransport;
class ClusterSession;

// The one place that maps a BurninTransportKind to its implementation, given the cluster the
// burn-in runs on (its SSH shell; on Kubernetes the session's own KubernetesSource).
namespace BurninTransportFactory {

std::unique_ptr<BurninTransport> create(BurninTransportKind kind, ClusterSession *cluster);

} // namespace BurninTransportFactory
} // namespace strata
