#pragma once

#include <QMap>
#include <QString>
#include <QStringList>

#include <algorithm>

namespace strata {

// How a node's physical GPUs are handed to workloads when they are not handed out whole
// (Kubernetes with the NVIDIA device plugin / GPU feature discovery, or GKE's own sharing).
// Node::gpuCount always stays the number of physical GPUs; this says what they are cut into:
//  - "time-slicing" / "mps": each GPU is offered as `replicas` shares of resource `resource`
//    ("nvidia.com/gpu", or "nvidia.com/gpu.shared" when renamed); one T4 with replicas 8 is one
//    GPU with 8 shares, never 8 GPUs.
//  - "mig-mixed": MIG devices offered as their own resources (nvidia.com/mig-1g.10gb: 7).
//  - "mig-single": MIG devices of one profile offered as nvidia.com/gpu.
// Counts are what the node offers and what bound, unfinished pods request.
struct GpuSharing
{
    QString strategy;        // empty: whole GPUs
    QString resource;        // the resource shares are requested as (time-slicing, MPS, MIG single)
    int replicas = 0;        // shares per physical GPU (time-slicing, MPS)
    int shares = 0;          // shares the node offers in all
    int sharesAllocated = 0;
    int migSlicesPerGpu = 0; // GPU-instance slices of one GPU (7 on A100/H100, 4 on A30); 0 unknown
    QMap<QString, int> migDevices;          // MIG profile ("1g.10gb") -> devices offered
    QMap<QString, int> migDevicesAllocated; // MIG profile -> devices requested by pods

    bool isShared() const { return !strategy.isEmpty(); }
    bool isMig() const { return strategy.startsWith(QLatin1String("mig-")); }
    // GPU-instance slices of a MIG profile: "3g.40gb" -> 3, "1g.10gb+me" -> 1; 0 if not a profile.
    static int profileSlices(const QString &profile)
    {
        const qsizetype g = profile.indexOf(QLatin1Char('g'));
        if (g <= 0)
            return 0;
        bool ok = false;
        const int slices = profile.left(g).toInt(&ok);
        // No GPU has more than 7 ("7g.80gb"): a larger number is no profile, and would multiply
        // a device count past int.
        return ok && slices > 0 && slices <= 7 ? slices : 0;
    }
    // Physical GPUs that hold at least one allocated share or MIG device: a lower bound (which
    // GPU a share lands on is the device plugin's secret).
    int gpusInUseAtLeast(int gpuCount) const;
    // One line for tables: "time-slicing x4: 3/4 shares", "MIG 1g.5gb 5/56"; empty when whole.
    QString summary() const;

    bool operator==(const GpuSharing &) const = default;
};

inline int GpuSharing::gpusInUseAtLeast(int gpuCount) const
{
    int atLeast = 0;
    if (replicas > 0 && sharesAllocated > 0)
        atLeast = int((qint64(sharesAllocated) + replicas - 1) / replicas);
    if (isMig()) {
        qint64 slices = 0; // requests of many pods: summed past int, clamped below by gpuCount
        for (auto it = migDevicesAllocated.constBegin(); it != migDevicesAllocated.constEnd(); ++it)
            slices += qint64(std::max(0, it.value())) * std::max(1, profileSlices(it.key()));
        if (slices > 0)
            atLeast = int(std::min<qint64>(migSlicesPerGpu > 0 ? (slices + migSlicesPerGpu - 1) / migSlicesPerGpu : 1,
                                           std::max(0, gpuCount)));
    }
    return std::min(atLeast, gpuCount);
}

inline QString GpuSharing::summary() const
{
    if (!isShared())
        return {};
    if (!isMig())
        return QStringLiteral("%1 x%2: %3/%4 shares")
            .arg(strategy == QLatin1String("mps") ? QStringLiteral("MPS") : strategy)
            .arg(replicas).arg(sharesAllocated).arg(shares);
    QStringList profiles;
    for (auto it = migDevices.constBegin(); it != migDevices.constEnd(); ++it)
        profiles << QStringLiteral("%1 %2/%3").arg(it.key()).arg(migDevicesAllocated.value(it.key())).arg(it.value());
    return QStringLiteral("MIG ") + profiles.join(QStringLiteral(", "));
}

} // namespace strata
