#include "kube_gpu_labels.h"

#include "kube_quantity.h"
#include "model/gpu_catalog.h"

#include <cmath>

namespace strata {

namespace {

using namespace Qt::StringLiterals;

int quantity(const QJsonObject &resources, const QString &name)
{
    const QJsonValue value = resources.value(name);
    const std::optional<double> v = value.isDouble() ? std::optional<double>(value.toDouble())
                                                     : KubeQuantity::parse(value.toString());
    return KubeQuantity::wholeCount(v);
}

int labelInt(const QMap<QString, QString> &labels, const QString &key)
{
    bool ok = false;
    const int v = labels.value(key).trimmed().toInt(&ok);
    return ok && v > 0 ? v : 0;
}

int ceilDiv(int a, int b)
{
    return b > 0 ? (a + b - 1) / b : 0;
}

} // namespace

KubeGpuInfo KubeGpuLabels::read(const QMap<QString, QString> &labels, const QJsonObject &capacity,
                                const QString &instanceType, const GpuCatalog &catalog)
{
    KubeGpuInfo info;
    QString product = labels.value(u"nvidia.com/gpu.product"_s);
    if (product.isEmpty())
        product = labels.value(u"cloud.google.com/gke-accelerator"_s);
    info.model = catalog.resolveModel(product, instanceType);
    const GpuSpec *spec = catalog.gpu(info.model);
    const InstanceTypeSpec *type = instanceType.isEmpty() ? nullptr : catalog.instanceType(instanceType);
    GpuSharing &sharing = info.sharing;
    sharing.migSlicesPerGpu = spec ? spec->migSlices : 0;

    const int gfdCount = labelInt(labels, u"nvidia.com/gpu.count"_s);
    const int whole = quantity(capacity, gpuResource());
    const int renamed = quantity(capacity, sharedGpuResource());
    for (auto it = capacity.constBegin(); it != capacity.constEnd(); ++it)
        if (it.key().startsWith(migResourcePrefix())) {
            const int devices = quantity(capacity, it.key());
            if (devices > 0)
                sharing.migDevices.insert(it.key().mid(migResourcePrefix().size()), devices);
        }
    const QString migStrategy = labels.value(u"nvidia.com/mig.strategy"_s);
    const qsizetype migInProduct = product.indexOf(QLatin1String("-MIG-"), 0, Qt::CaseInsensitive);
    const QString gkePartition = labels.value(u"cloud.google.com/gke-gpu-partition-size"_s);
    QString sharingLabel = labels.value(u"nvidia.com/gpu.sharing-strategy"_s);
    int replicas = labelInt(labels, u"nvidia.com/gpu.replicas"_s);
    const QString gkeSharing = labels.value(u"cloud.google.com/gke-gpu-sharing-strategy"_s);
    if (sharingLabel.isEmpty() && !gkeSharing.isEmpty()) {
        sharingLabel = gkeSharing == QLatin1String("time-sharing") ? u"time-slicing"_s : gkeSharing.toLower();
        replicas = labelInt(labels, u"cloud.google.com/gke-max-shared-clients-per-gpu"_s);
    }
    // GFD before it had the strategy label marked time-slicing only by replicas and "-SHARED".
    if (sharingLabel.isEmpty() && (replicas > 1 || product.endsWith(QLatin1String("-SHARED"), Qt::CaseInsensitive)))
        sharingLabel = u"time-slicing"_s;

    if (!sharing.migDevices.isEmpty()) {
        // MIG "mixed": every profile its own resource; gpu.count stays the physical GPUs, and
        // GPUs left whole are still nvidia.com/gpu.
        sharing.strategy = u"mig-mixed"_s;
        int slices = 0;
        for (auto it = sharing.migDevices.constBegin(); it != sharing.migDevices.constEnd(); ++it)
            slices += it.value() * std::max(1, GpuSharing::profileSlices(it.key()));
        info.gpuCount = gfdCount ? gfdCount
                        : type   ? type->gpuCount
                                 : whole + ceilDiv(slices, sharing.migSlicesPerGpu);
    } else if ((migStrategy == QLatin1String("single") && migInProduct > 0) || !gkePartition.isEmpty()) {
        // MIG "single" (and GKE's partitions): devices of one profile offered as nvidia.com/gpu;
        // gpu.count counts devices, so the physical GPUs come from the instance type, else from
        // how many devices of that profile one GPU holds.
        sharing.strategy = u"mig-single"_s;
        sharing.resource = QString(gpuResource());
        const QString profile = gkePartition.isEmpty() ? product.mid(migInProduct + 5) : gkePartition;
        const int devices = whole ? whole : gfdCount;
        sharing.migDevices.insert(profile, devices);
        const int slices = GpuSharing::profileSlices(profile);
        const int perGpu = sharing.migSlicesPerGpu > 0 && slices > 0 ? sharing.migSlicesPerGpu / slices : 0;
        info.gpuCount = type ? type->gpuCount : ceilDiv(devices, perGpu);
    } else if (sharingLabel == QLatin1String("time-slicing") || sharingLabel == QLatin1String("mps")) {
        sharing.strategy = sharingLabel;
        sharing.replicas = replicas;
        sharing.resource = renamed > 0 ? QString(sharedGpuResource()) : QString(gpuResource());
        sharing.shares = renamed > 0 ? renamed : whole;
        info.gpuCount = gfdCount && labels.contains(u"nvidia.com/gpu.product"_s) ? gfdCount
                        : replicas > 0 ? ceilDiv(sharing.shares, replicas)
                        : type         ? type->gpuCount
                                       : 0;
    } else {
        // Whole GPUs. A node whose device plugin is not (yet) advertising keeps what GFD saw.
        info.gpuCount = whole > 0 ? whole : gfdCount;
    }
    if (info.gpuCount == 0 && !sharing.isShared())
        info.model.clear();
    return info;
}

} // namespace strata
