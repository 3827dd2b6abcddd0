#include "burnin_transport_factory.h"

#include "burnin_kubernetes_transport.h"
#include "burnin_slurm_transport.h"
#include "burnin_ssh_transport.h"
#include "kubernetes/kubernetes_source.h"
#include "session/cluster_session.h"

namespace strata::BurninTransportFactory {

std::unique_ptr<BurninTransport> create(BurninTransportKind kind, ClusterSession *cluster)
{
    switch (kind) {
    case BurninTransportKind::Slurm:
        return std::make_unique<BurninSlurmTransport>(cluster->shell());
    case BurninTransportKind::Ssh:
        return std::make_unique<BurninSshTransport>(cluster->shell());
    case BurninTransportKind::Kubernetes:
        return std::make_unique<BurninKubernetesTransport>(
            std::dynamic_pointer_cast<KubernetesSource>(cluster->sharedOrchestrator()));
    }
    return nullptr;
}

} // namespace strata::BurninTransportFactory
