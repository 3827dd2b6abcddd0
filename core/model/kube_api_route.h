#pragma once

#include <QString>
#include <QStringView>

#include <optional>

namespace strata {

// Which way a KubernetesSource reaches the API server's lists and watches (KubeApiRouter). Kept
// here, beside the model, because the profile (ClusterProfile::kubeApi) names it too.
enum class KubeApiRoute {
    Auto,    // directly through an SSH tunnel when the kubeconfig allows it, else kubectl
    Direct,  // directly only: a context that cannot be reached that way fails, saying why
    Kubectl, // `kubectl get --raw` on the login node only
};

// "auto", "direct" or "kubectl": the word of the profile file and of --kube-api.
QString kubeApiRouteName(KubeApiRoute route);
// The route a word names, as kubeApiRouteName writes it; nullopt for any other word.
std::optional<KubeApiRoute> parseKubeApiRoute(QStringView word);

} // namespace strata
