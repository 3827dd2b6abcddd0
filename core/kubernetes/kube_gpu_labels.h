#pragma once

#include "model/gpu_sharing.h"

#include <QJsonObject>
#include <QMap>
#include <QString>

namespace strata {

class GpuCatalog;

// What a Kubernetes node says about its GPUs, read from what NVIDIA GPU feature discovery
// (GFD, part of the GPU Operator) and GKE put on it. Pure.
struct KubeGpuInfo
{
    QString model;     // catalog model ("" unknown)
    int gpuCount = 0;  // physical GPUs
    GpuSharing sharing;
    // What the node said when a count was refused (negative, not whole, past GpuCount's bounds),
    // e.g. "capacity nvidia.com/gpu \"2000000000\"": gpuCount is then 0 and sharing empty.
    QString refused;
};

// Sources, in order of trust:
//  - GFD labels nvidia.com/gpu.count (physical GPUs, except under MIG "single", where it counts
//    MIG devices), nvidia.com/gpu.product (with "-SHARED" for time-slicing without renaming,
//    "-MIG-<profile>" under MIG single), nvidia.com/gpu.replicas, nvidia.com/gpu.sharing-strategy
//    (time-slicing, mps, none), nvidia.com/mig.strategy (single, mixed);
//  - GKE: cloud.google.com/gke-accelerator, gke-gpu-sharing-strategy (time-sharing, mps),
//    gke-max-shared-clients-per-gpu, gke-gpu-partition-size (MIG, devices as nvidia.com/gpu);
//  - status.capacity: nvidia.com/gpu, nvidia.com/gpu.shared, nvidia.com/mig-<profile>;
//  - the instance type (node.kubernetes.io/instance-type) for the variant and, where nothing
//    else says it (MIG single), the physical GPU count.
class KubeGpuLabels
{
public:
    static KubeGpuInfo read(const QMap<QString, QString> &labels, const QJsonObject &capacity,
                            const QString &instanceType, const GpuCatalog &catalog);
    static QLatin1StringView migResourcePrefix() { return QLatin1StringView("nvidia.com/mig-"); }
    static QLatin1StringView gpuResource() { return QLatin1StringView("nvidia.com/gpu"); }
    static QLatin1StringView sharedGpuResource() { return QLatin1StringView("nvidia.com/gpu.shared"); }
};

} // namespace strata
