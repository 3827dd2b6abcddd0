#include "history_query_plan.h"

#include "host_name_resolver.h"

#include <algorithm>

namespace strata {

HistoryQueryPlan::HistoryQueryPlan(Options options) : m_options(std::move(options)) {}

qint64 HistoryQueryPlan::stepFor(qint64 periodSeconds, const Options &options)
{
    const qint64 minStep = std::max(1, options.minStepSeconds);
    const qint64 points = std::max(1, options.maxPointsPerSeries);
    qint64 step = std::max(minStep, (std::max<qint64>(periodSeconds, 1) + points - 1) / points);
    if (step > 60)
        step = (step + 59) / 60 * 60;
    return step;
}

QVector<HistoryQueryPlan::Chunk> HistoryQueryPlan::chunks(qint64 periodStart, qint64 periodEnd, qint64 stepSeconds,
                                                          qint64 seriesEstimate, const Options &options)
{
    QVector<Chunk> out;
    if (stepSeconds <= 0 || periodEnd <= periodStart)
        return out;
    const qint64 total = (periodEnd - periodStart + stepSeconds - 1) / stepSeconds; // points in the period
    const qint64 series = seriesEstimate > 0 ? seriesEstimate : 64;
    const qint64 perChunk =
        std::clamp<qint64>(std::max<qint64>(options.maxPointsPerAnswer, 1) / series, 1, kPrometheusMaxPoints);
    for (qint64 first = 1; first <= total; first += perChunk) {
        const qint64 last = std::min(total, first + perChunk - 1);
        out.append(Chunk{periodStart + first * stepSeconds, periodStart + last * stepSeconds});
    }
    return out;
}

QString HistoryQueryPlan::metricName(Metric metric)
{
    switch (metric) {
    case Metric::Util:
        return QStringLiteral("DCGM_FI_DEV_GPU_UTIL");
    case Metric::MemUsed:
        return QStringLiteral("DCGM_FI_DEV_FB_USED");
    case Metric::Power:
        return QStringLiteral("DCGM_FI_DEV_POWER_USAGE");
    }
    return {};
}

QString HistoryQueryPlan::statName(Metric metric)
{
    switch (metric) {
    case Metric::Util:
        return QStringLiteral("history-util");
    case Metric::MemUsed:
        return QStringLiteral("history-memory");
    case Metric::Power:
        return QStringLiteral("history-power");
    }
    return {};
}

QStringList HistoryQueryPlan::keptLabels() const
{
    QStringList labels = HostNameResolver::hostLabelNames(m_options.labels.hostLabel);
    labels << QStringLiteral("gpu") << MetricsQueryPlan::workloadLabels();
    return labels;
}

QString HistoryQueryPlan::promql(Metric metric, qint64 stepSeconds) const
{
    // MIG instances (GPU_I_ID set) are left out: they have no GPU_UTIL, and their memory is a
    // slice that a whole-GPU job record does not name.
    QString selector = QStringLiteral("%1{GPU_I_ID=\"\"").arg(metricName(metric));
    if (!m_options.labels.extraMatchers.isEmpty())
        selector += QStringLiteral(", ") + m_options.labels.extraMatchers;
    selector += QStringLiteral("}");
    const QString function = metric == Metric::MemUsed ? QStringLiteral("max_over_time") : QStringLiteral("avg_over_time");
    return QStringLiteral("max by (%1) (%2(%3[%4s]))")
        .arg(keptLabels().join(QStringLiteral(", ")), function, selector)
        .arg(std::max<qint64>(stepSeconds, 1));
}

} // namespace strata
