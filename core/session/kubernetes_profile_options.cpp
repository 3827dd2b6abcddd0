#include "kubernetes_profile_options.h"

namespace strata {

KubernetesSourceOptions kubernetesProfileOptions(const ClusterProfile &profile)
{
    KubernetesSourceOptions options;
    options.context = profile.kubeContext;
    options.namespaceName = profile.kubeNamespace;
    options.submittedBy = profile.sshUser;
    options.requestTimeoutSeconds = qMax(5, profile.commandTimeoutSeconds / 2);
    options.apiRoute = profile.kubeApi.value_or(KubeApiRoute::Auto);
    return options;
}

} // namespace strata
