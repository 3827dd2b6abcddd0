#include "gpu_capacity.h"

#include "node.h"

#include <algorithm>

namespace strata {

GpuCapacity &GpuCapacity::operator+=(const GpuCapacity &other)
{
    busy += other.busy;
    idle += other.idle;
    starting += other.starting;
    launchable += other.launchable;
    unavailable += other.unavailable;
    return *this;
}

GpuCapacity::Bucket GpuCapacity::bucket(const Node &node, bool held)
{
    if (node.isDown())
        return Bucket::Unavailable;
    switch (node.power) {
    case PowerState::PoweringDown:
    case PowerState::FailedToLaunch:
        return Bucket::Unavailable;
    case PowerState::PoweredDown:
        return node.isDrained() ? Bucket::Unavailable : Bucket::Launchable;
    case PowerState::PoweringUp:
        return node.isDrained() ? Bucket::Unavailable : Bucket::Starting;
    case PowerState::Launched:
        break;
    }
    if (held)
        return Bucket::Busy;
    return node.isDrained() ? Bucket::Unavailable : Bucket::Idle;
}

GpuCapacity GpuCapacity::of(const Node &node)
{
    GpuCapacity c;
    const int gpus = std::max(0, node.gpuCount);
    const int held = std::clamp(node.gpusAllocated, 0, gpus);
    const auto add = [&c](Bucket b, int count) {
        switch (b) {
        case Bucket::Busy: c.busy += count; break;
        case Bucket::Idle: c.idle += count; break;
        case Bucket::Starting: c.starting += count; break;
        case Bucket::Launchable: c.launchable += count; break;
        case Bucket::Unavailable: c.unavailable += count; break;
        }
    };
    add(bucket(node, true), held);
    add(bucket(node, false), gpus - held);
    return c;
}

QString GpuCapacity::bucketName(Bucket bucket)
{
    switch (bucket) {
    case Bucket::Busy: return QStringLiteral("busy");
    case Bucket::Idle: return QStringLiteral("idle");
    case Bucket::Starting: return QStringLiteral("starting");
    case Bucket::Launchable: return QStringLiteral("launchable");
    case Bucket::Unavailable: return QStringLiteral("unavailable");
    }
    return QString();
}

} // namespace strata
