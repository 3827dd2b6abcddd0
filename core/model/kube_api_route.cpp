#include "kube_api_route.h"

namespace strata {

QString kubeApiRouteName(KubeApiRoute route)
{
    switch (route) {
    case KubeApiRoute::Auto: return QStringLiteral("auto");
    case KubeApiRoute::Direct: return QStringLiteral("direct");
    case KubeApiRoute::Kubectl: return QStringLiteral("kubectl");
    }
    return QString();
}

std::optional<KubeApiRoute> parseKubeApiRoute(QStringView word)
{
    for (KubeApiRoute route : {KubeApiRoute::Auto, KubeApiRoute::Direct, KubeApiRoute::Kubectl})
        if (word == kubeApiRouteName(route))
            return route;
    return std::nullopt;
}

} // namespace strata
