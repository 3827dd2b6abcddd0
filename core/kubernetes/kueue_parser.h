#pragma once

#include "kueue_discovery.h"
#include "kueue_pending_position.h"
#include "kueue_workload.h"
#include "model/queue.h"

#include <QByteArray>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QVector>

#include <optional>

namespace strata {

struct KueueQueueParseResult
{
    QString error; // the whole document was unusable
    QVector<Queue> queues;
};

struct KueueWorkloadParseResult
{
    QString error;
    QVector<KueueWorkload> workloads;
};

struct KueuePendingParseResult
{
    QString error;
    QVector<KueuePendingPosition> positions; // in the answer's order (the ClusterQueue's)
};

// Kueue's objects (kueue.x-k8s.io/v1beta1) as the API lists them (ClusterQueueList,
// LocalQueueList, WorkloadList, or kubectl's List) and as a watch sends them, and the visibility
// API's PendingWorkloadsSummary (visibility.kueue.x-k8s.io/v1beta1). Only nvidia.com/gpu is read
// of the quotas and usage. Pure.
class KueueParser
{
public:
    static KueueQueueParseResult parseClusterQueues(const QByteArray &json);
    static Queue parseClusterQueue(const QJsonObject &object);
    static KueueQueueParseResult parseLocalQueues(const QByteArray &json);
    static Queue parseLocalQueue(const QJsonObject &object);
    static KueueWorkloadParseResult parseWorkloads(const QByteArray &json);
    static KueueWorkload parseWorkload(const QJsonObject &object);
    static KueuePendingParseResult parsePendingWorkloads(const QByteArray &json);
    // Whether Kueue is served, from the API server's group list (/apis: group -> versions, as
    // KubeDiscoveryParser::groupVersions reads it).
    static KueueDiscovery discoveryOf(const QMap<QString, QStringList> &groupVersions);

    static QLatin1StringView gpuResource() { return QLatin1StringView("nvidia.com/gpu"); }
};

} // namespace strata
