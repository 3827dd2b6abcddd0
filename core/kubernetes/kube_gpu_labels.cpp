#include "kube_gpu_labels.h"

#include "kube_quantity.h"
#include "model/gpu_catalog.h"
#include "model/gpu_count.h"

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

using namespace Qt::StringLiterals;

// Reads the node's counts, each checked: a value that is no whole count within its bound is
// taken as 0 and the first such one is kept in `refused` ("capacity nvidia.com/gpu \"2000000000\"").
struct CountReader
{
    QString refused;

    int quantity(const QJsonObject &resources, const QString &name, int most)
    {
        const QJsonValue value = resources.value(name);
        if (value.isUndefined() || value.isNull())
            return 0;
        const std::optional<double> v = value.isDouble() ? std::optional<double>(value.toDouble())
                                                         : KubeQuantity::parse(value.toString());
        // Devices come whole: "2.5" or "500m" GPUs is no count a device plugin reports.
        if (v && *v >= 0 && *v <= most && std::floor(*v) == *v)
            return int(*v);
        refuse(describe(resources, name));
        return 0;
    }

    // "capacity nvidia.com/gpu \"2000000000\"": the value as the node gave it, cut short.
    static QString describe(const QJsonObject &resources, const QString &name)
    {
        const QJsonValue value = resources.value(name);
        return u"capacity %1 \"%2\""_s.arg(name, value.isDouble() ? QString::number(value.toDouble(), 'g', 17)
                                                                  : value.toString().left(60));
    }

    int label(const QMap<QString, QString> &labels, const QString &key, int most)
    {
        const auto it = labels.constFind(key);
        if (it == labels.constEnd() || it->isEmpty())
            return 0;
        const std::optional<qint64> v = GpuCount::parseDecimal(*it);
        if (v && GpuCount::inRange(*v, most))
            return int(*v);
        refuse(u"label %1=\"%2\""_s.arg(key, it->left(60)));
        return 0;
    }

    void refuse(const QString &what)
    {
        if (refused.isEmpty())
            refused = what;
    }
};

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

    // Bounds (GpuCount): nvidia.com/gpu counts GPUs, or shares of them under time-slicing and
    // MPS, or MIG devices under MIG single; the most any of those can be is the shares.
    using namespace GpuCount;
    constexpr int mostShares = kMaxPerNode * kMaxSharesPerGpu;
    constexpr int mostMigDevices = kMaxPerNode * kMaxMigDevicesPerGpu;
    CountReader counts;
    const int gfdCount = counts.label(labels, u"nvidia.com/gpu.count"_s, mostShares);
    const int whole = counts.quantity(capacity, gpuResource(), mostShares);
    const int renamed = counts.quantity(capacity, sharedGpuResource(), mostShares);
    for (auto it = capacity.constBegin(); it != capacity.constEnd(); ++it)
        if (it.key().startsWith(migResourcePrefix())) {
            const int devices = counts.quantity(capacity, it.key(), mostMigDevices);
            if (devices > 0)
                sharing.migDevices.insert(it.key().mid(migResourcePrefix().size()), devices);
        }
    const QString migStrategy = labels.value(u"nvidia.com/mig.strategy"_s);
    const qsizetype migInProduct = product.indexOf(QLatin1String("-MIG-"), 0, Qt::CaseInsensitive);
    const QString gkePartition = labels.value(u"cloud.google.com/gke-gpu-partition-size"_s);
    QString sharingLabel = labels.value(u"nvidia.com/gpu.sharing-strategy"_s);
    int replicas = counts.label(labels, u"nvidia.com/gpu.replicas"_s, kMaxSharesPerGpu);
    const QString gkeSharing = labels.value(u"cloud.google.com/gke-gpu-sharing-strategy"_s);
    if (sharingLabel.isEmpty() && !gkeSharing.isEmpty()) {
        sharingLabel = gkeSharing == QLatin1String("time-sharing") ? u"time-slicing"_s : gkeSharing.toLower();
        replicas = counts.label(labels, u"cloud.google.com/gke-max-shared-clients-per-gpu"_s, kMaxSharesPerGpu);
    }
    // GFD before it had the strategy label marked time-slicing only by replicas and "-SHARED".
    if (sharingLabel.isEmpty() && (replicas > 1 || product.endsWith(QLatin1String("-SHARED"), Qt::CaseInsensitive)))
        sharingLabel = u"time-slicing"_s;
    // The device plugin offers nvidia.com/gpu.shared only when it shares GPUs with
    // renameByDefault (EKS's time-slicing setup, often without GFD): time-slicing unless a label
    // says MPS. Such a node says nvidia.com/gpu: 0 (or nothing) and must not read as GPU-less.
    if (sharingLabel.isEmpty() && renamed > 0)
        sharingLabel = u"time-slicing"_s;

    if (!sharing.migDevices.isEmpty()) {
        // MIG "mixed": every profile its own resource; gpu.count stays the physical GPUs, and
        // GPUs left whole are still nvidia.com/gpu.
        sharing.strategy = u"mig-mixed"_s;
        qint64 slices = 0; // many profiles of many devices each: past int, then refused below
        for (auto it = sharing.migDevices.constBegin(); it != sharing.migDevices.constEnd(); ++it)
            slices = std::min<qint64>(slices + qint64(it.value()) * std::max(1, GpuSharing::profileSlices(it.key())),
                                      mostMigDevices * 8);
        info.gpuCount = gfdCount ? gfdCount
                        : type   ? type->gpuCount
                                 : whole + ceilDiv(int(slices), sharing.migSlicesPerGpu);
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
        // Without the replicas label the shares over the physical GPUs say it, when they divide
        // evenly (every GPU is offered alike; an uneven split leaves it unknown, 0).
        if (sharing.replicas == 0 && info.gpuCount > 0 && sharing.shares % info.gpuCount == 0)
            sharing.replicas = sharing.shares / info.gpuCount;
        // Shares past what a GPU can be cut into are no count (GpuCount::kMaxSharesPerGpu).
        if (info.gpuCount > 0 && qint64(sharing.shares) > qint64(info.gpuCount) * kMaxSharesPerGpu)
            counts.refuse(counts.describe(capacity, sharing.resource));
    } else {
        // Whole GPUs. A node whose device plugin is not (yet) advertising keeps what GFD saw.
        info.gpuCount = whole > 0 ? whole : gfdCount;
        // Read within the shares' bound above (the resource may count shares); whole, it counts
        // GPUs: name what said so.
        if (!inRange(info.gpuCount, kMaxPerNode))
            counts.refuse(whole > 0 ? counts.describe(capacity, gpuResource())
                                    : u"label nvidia.com/gpu.count=\"%1\""_s.arg(gfdCount));
    }
    if (counts.refused.isEmpty() && !inRange(info.gpuCount, kMaxPerNode))
        counts.refuse(u"%1 GPUs"_s.arg(info.gpuCount)); // e.g. 16,384 shares at one replica each
    if (!counts.refused.isEmpty()) {
        // Unknown, not zero and not the absurd number: nothing is sized by it (a finding says why).
        info.refused = counts.refused;
        info.gpuCount = 0;
        sharing = GpuSharing{};
        return info;
    }
    if (info.gpuCount == 0 && !sharing.isShared())
        info.model.clear();
    return info;
}

} // namespace strata
