#pragma once

#include "model/node.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QVector>

namespace strata {

class GpuCatalog;

struct KubeNodeParseResult
{
    QString error; // the whole document was unusable
    QVector<Node> nodes; // sorted by name; pod-derived fields (allocations) still zero
};

// `kubectl get nodes -o json` (a List) or the API's NodeList, and the objects of a node watch's
// events, into Node values. Pure.
//  state: "ready", "notready" (Ready False or Unknown) or "cordoned" (spec.unschedulable);
//         a node both not ready and cordoned is "notready" with the CORDONED flag.
//  stateFlags: READY/NOTREADY/UNKNOWN, CORDONED and DRAIN when unschedulable, MEMORY_PRESSURE,
//         DISK_PRESSURE, PID_PRESSURE, NETWORK_UNAVAILABLE, UNHEALTHY (HyperPod health label).
//  reason: Strata's drain reason annotation, else the failing condition's message, else the
//         HyperPod health status when it is not Schedulable.
//  partitions: the node pool (EKS node group, Karpenter node pool, GKE/AKS pool), else the
//         instance type. features: health, zone, capacity type, roles, GPU product and sharing
//         labels, taints.
//  gpuCount, gpuModel, gpuSharing: physical GPUs and how they are shared (KubeGpuLabels).
class KubeNodeParser
{
public:
    static KubeNodeParseResult parse(const QByteArray &json, const GpuCatalog &catalog);
    // One node object (an item of a list, or a watch event's object).
    static Node parseObject(const QJsonObject &object, const GpuCatalog &catalog);
    // Annotation Strata's drain writes (and resume removes) with the reason.
    static QLatin1StringView drainReasonAnnotation() { return QLatin1StringView("strata.io/drain-reason"); }
    static QLatin1StringView healthLabel()
    {
        return QLatin1StringView("sagemaker.amazonaws.com/node-health-status");
    }
};

} // namespace strata
