#pragma once

#include "kube_object_ref.h"

#include <QString>

namespace strata {

// The API paths the inspect views read (one object, its events, a container's log, the pods a
// Service selects), each checked: an empty path with *error for a name the API would refuse or
// that would change the path's meaning. Pure; any thread.
namespace KubeInspectPaths {

// /api/v1/namespaces/NS/pods/NAME, /apis/GROUP/VERSION/[namespaces/NS/]RESOURCE/NAME
QString objectPath(const KubeObjectRef &ref, QString *error);
// The events of ref (fieldSelector on involvedObject name, namespace, and uid when known; all
// namespaces for a cluster-scoped object), or, for an empty ref, of the whole cluster (of its
// namespaceName only, when that is set): at most limit of them.
QString eventsUri(const KubeObjectRef &ref, int limit, QString *error);
// /api/v1/namespaces/NS/pods/POD/log?container=C&previous=true&tailLines=N (tailLines <= 0: all)
QString logUri(const QString &ns, const QString &pod, const QString &container, bool previous, int tailLines,
               QString *error);
// The pods of ns that labelSelector ("k=v,k2=v2") selects.
QString selectedPodsUri(const QString &ns, const QString &labelSelector, QString *error);

} // namespace KubeInspectPaths

} // namespace strata
