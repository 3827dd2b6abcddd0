#include "kubernetes_profile_options.h"

namespace strata {

KubernetesSourceOptions kubernetesProfileOptions(const ClusterProfile &profile)
{
    KubernetesSourceOptions options;
    options.context = profile.kubeContext;
    options.namespaceName = profile.kubeNamespace;
    options.submittedBy = profile.sshUser;
    options.requestTimeoutSeconds = qMax(5, profile.commandTimeoutSeconds / 2);
    // Checked where the profile is made (ConnectionOptions); anything else reads as auto.
    if (profile.kubeApi == QLatin1String("direct"))
        options.apiRoute = KubeApiRoute::Direct;
    else if (profile.kubeApi == QLatin1String("kubectl"))
        options.apiRoute = KubeApiRoute::Kubectl;
    return options;
}

} // namespace strata
