#pragma once

#include "kueue_objects.h"

#include <QMap>
#include <QStringList>

#include <atomic>
#include <memory>

namespace strata {

class KubeApiClient;
template <typename T>
class KubeInformer;

// Kueue's queues and workloads for a KubernetesSource refresh: only where the API server serves
// kueue.x-k8s.io/v1beta1 (its group list, as the source's KubeDiscovery read it and hands over
// with setServedGroups; a cluster without Kueue has no queues and no error), through KubeInformers like the nodes', pods' and Jobs' (a list, then a watch while
// the session polls), and the visibility API's pending workloads of each ClusterQueue that has
// any (visibility.kueue.x-k8s.io/v1beta1, where it is served; asked again only after Kueue's
// objects changed). Whatever of Kueue cannot be read is a warning, never the refresh's failure:
// the nodes and jobs are shown without it.
//
// Owned by KubernetesSource; read() and stopWatching() are called from one thread at a time.
class KueueReader
{
public:
    // api outlives it; namespaceName: LocalQueues and Workloads of that namespace only (empty:
    // all); changed (may be null) is set when a watch sends an event (any thread).
    KueueReader(KubeApiClient &api, const QString &namespaceName, std::shared_ptr<std::atomic_bool> changed);
    ~KueueReader();

    struct Read
    {
        bool served = false;  // Kueue is served and its objects were read: apply them
        KueueObjects objects;
        QStringList warnings; // what of Kueue could not be read (then served is false, or positions lack)
        qint64 bytesRead = 0;
    };
    // The API server's group list (KubeDiscoveryResult::groupVersions): whether Kueue and its
    // visibility API are served. Until it is given, read() reads nothing.
    void setServedGroups(const QMap<QString, QStringList> &groupVersions);
    // Kueue's collections failed (removed since the group list was read?): read the list again.
    bool needsDiscovery() const { return m_needsDiscovery; }
    // watch: as KubeInformer::sync.
    Read read(bool watch);
    void stopWatching();

    static constexpr int kVisibilityLimit = 5000; // pending workloads asked of one ClusterQueue

    // The visibility API's path for one ClusterQueue's pending workloads; empty for a name that
    // is no valid object name.
    static QString pendingWorkloadsUri(const QString &clusterQueue, int limit);

private:
    void makeInformers();
    void readPositions(Read &read, bool changed);

    KubeApiClient &m_api;
    QString m_namespaceName;
    std::shared_ptr<std::atomic_bool> m_changed;
    std::unique_ptr<KubeInformer<Queue>> m_clusterQueues;
    std::unique_ptr<KubeInformer<Queue>> m_localQueues;
    std::unique_ptr<KubeInformer<KueueWorkload>> m_workloads;
    bool m_served = false;     // set by setServedGroups, on the source's pool before a read starts
    bool m_visibility = false;
    bool m_needsDiscovery = false;
    // The visibility API's last answers (ClusterQueue -> positions), kept while nothing changed.
    QHash<QString, QVector<KueuePendingPosition>> m_positions;
    QStringList m_positionWarnings;
};

} // namespace strata
