#include "burnin_transport_factory.h"

#include "burnin_kubernetes_transport.h"
#include "burnin_slurm_transport.h"
#include "burnin_ssh_transport.h"
#include "kubernetes/kubernetes_source.h"
#include "model/gpu_catalog.h"
#include "session/cluster_session.h"
#include "session/kubernetes_profile_options.h"

namespace strata::BurninTransportFactory {

std::unique_ptr<BurninTransport> create(BurninTransportKind kind, ClusterSession *cluster)
{
    switch (kind) {
    case BurninTransportKind::Slurm:
        return std::make_unique<BurninSlurmTransport>(cluster->shell());
    case BurninTransportKind::Ssh:
        return std::make_unique<BurninSshTransport>(cluster->shell());
    case BurninTransportKind::Kubernetes:
        return std::make_unique<BurninKubernetesTransport>(std::make_shared<KubernetesSource>(
            cluster->shell(), GpuCatalog::builtIn(), kubernetesProfileOptions(cluster->profile())));
    }
    return nullptr;
}

} // namespace strata::BurninTransportFactory
