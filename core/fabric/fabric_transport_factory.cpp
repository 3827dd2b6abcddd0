#include "fabric_transport_factory.h"

#include "fabric_kubernetes_transport.h"
#include "fabric_slurm_transport.h"
#include "kubernetes/kubernetes_source.h"
#include "session/cluster_session.h"

namespace strata::FabricTransportFactory {

std::unique_ptr<FabricTransport> create(ClusterSession *cluster)
{
    if (const auto kubernetes =
            std::dynamic_pointer_cast<KubernetesSource>(cluster->sharedOrchestrator()))
        return std::make_unique<FabricKubernetesTransport>(cluster->shell(),
                                                           kubernetes->commands());
    return std::make_unique<FabricSlurmTransport>(cluster->shell());
}

} // namespace strata::FabricTransportFactory
