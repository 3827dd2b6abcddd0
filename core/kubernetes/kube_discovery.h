#pragma once

#include "kube_workload_kind.h"
#include "model/error_kind.h"

#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

class KubeApiClient;

struct KubeDiscoveryResult
{
    bool ok = false;
    QString error; // !ok: /apis could not be read
    ErrorKind errorKind = ErrorKind::None;
    QVector<KubeServedKind> served; // the workload kinds this server serves, in KubeWorkloadKinds order
    // A group's resource list that could not be read (an aggregated API that is down): its kinds
    // are left out until discovery runs again; said, not guessed.
    QStringList warnings;
    // The group list itself (/apis): group -> versions served, for what else reads by group (Kueue).
    QMap<QString, QStringList> groupVersions;
};

// Which workload kinds (KubeWorkloadKinds) an API server serves: its group list (/apis), then the
// resource list of each group Strata reads at each version it reads, asked side by side. A CRD
// that is not installed is simply absent. Blocks the calling thread on the API client's GETs.
class KubeDiscovery
{
public:
    static KubeDiscoveryResult discover(KubeApiClient &api);
};

} // namespace strata
