#include "kubernetes_profile_options.h"

namespace strata {

KubernetesSourceOptions kubernetesProfileOptions(const ClusterProfile &profile)
{
    KubernetesSourceOptions options;
    options.context = profile.kubeContext;
    options.namespaceName = profile.kubeNamespace;
    options.submittedBy = profile.sshUser;
    options.requestTimeoutSeconds = qMax(5, profile.commandTimeoutSeconds / 2);
    return options;
}

} // namespace strata
