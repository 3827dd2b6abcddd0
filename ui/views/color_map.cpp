#include "color_map.h"

#include <QtMath>

#include <array>

namespace strata {

QColor ColorMap::sequential(double t)
{
    // viridis, sampled at 9 points
    static const std::array<QRgb, 9> stops = {0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c,
                                              0x28ae80, 0x5ec962, 0xaddc30, 0xfde725};
    t = qBound(0.0, t, 1.0) * (stops.size() - 1);
    const int i = qMin(int(t), int(stops.size()) - 2);
    const double f = t - i;
    const QColor a(stops[i]), b(stops[i + 1]);
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f),
                            float(a.greenF() + (b.greenF() - a.greenF()) * f),
                            float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

QColor ColorMap::missingFill(const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Base), mid = palette.color(QPalette::Mid);
    return QColor::fromRgbF(float((base.redF() + mid.redF()) / 2),
                            float((base.greenF() + mid.greenF()) / 2),
                            float((base.blueF() + mid.blueF()) / 2));
}

QColor ColorMap::missingHatch(const QPalette &palette)
{
    QColor c = palette.color(QPalette::Text);
    c.setAlphaF(0.35f);
    return c;
}

QColor ColorMap::textOn(const QColor &background)
{
    const double luminance =
        0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return luminance > 0.45 ? QColor(Qt::black) : QColor(Qt::white);
}

QColor ColorMap::allocatedColor() { return QColor(0x2f6fdb); }
QColor ColorMap::freeColor() { return QColor(0x3aa655); }
QColor ColorMap::unavailableColor() { return QColor(0xc0504d); }

QColor ColorMap::capacityColor(GpuCapacity::Bucket bucket)
{
    switch (bucket) {
    case GpuCapacity::Bucket::Busy: return allocatedColor();
    case GpuCapacity::Bucket::Idle: return freeColor();
    case GpuCapacity::Bucket::Starting: return QColor(0x8fb8f0);   // a paler busy: on its way
    case GpuCapacity::Bucket::Launchable: return QColor(0xd9dde3); // pale grey: no machine yet
    case GpuCapacity::Bucket::Unavailable: return unavailableColor();
    }
    return {};
}

QColor ColorMap::nodeStateColor(const QString &category)
{
    if (category == QStringLiteral("idle"))
        return freeColor();
    if (category == QStringLiteral("mixed") || category == QStringLiteral("allocated")
        || category == QStringLiteral("completing"))
        return allocatedColor();
    if (category == QStringLiteral("draining") || category == QStringLiteral("drained"))
        return QColor(0xe08a1e);
    if (category == QStringLiteral("down") || category == QStringLiteral("launch failed"))
        return unavailableColor();
    if (category == QStringLiteral("powering up"))
        return capacityColor(GpuCapacity::Bucket::Starting);
    if (category == QStringLiteral("powered down"))
        return capacityColor(GpuCapacity::Bucket::Launchable).darker(130);
    return QColor(0x8c8c8c);
}

QColor ColorMap::jobStateColor(JobState state)
{
    switch (state) {
    case JobState::Running: return allocatedColor();
    case JobState::Pending: return QColor(0xb08d1a);
    case JobState::Completed: return freeColor();
    case JobState::Failed:
    case JobState::Timeout:
    case JobState::NodeFail:
    case JobState::OutOfMemory:
        return unavailableColor();
    default:
        return QColor(0x8c8c8c);
    }
}

QColor ColorMap::severityColor(Finding::Severity severity)
{
    switch (severity) {
    case Finding::Severity::Critical: return QColor(0xd7263d);
    case Finding::Severity::Warning: return QColor(0xf28c28);
    case Finding::Severity::Info: return QColor(0x4a90d9);
    }
    return QColor(0xf28c28);
}

QColor ColorMap::relatedOutline(const QPalette &palette)
{
    return palette.color(QPalette::Highlight);
}

QColor ColorMap::statusColor(const StatusMark &mark)
{
    switch (mark.kind) {
    case StatusMark::Kind::NodeState: return nodeStateColor(mark.state);
    case StatusMark::Kind::JobState: return jobStateColor(mark.jobState);
    case StatusMark::Kind::Severity: return severityColor(mark.severity);
    }
    return {};
}

} // namespace strata
