#include "metrics_part.h"

namespace strata {

MetricsQueryStat MetricsQueryStat::of(const QString &name, const PrometheusResponse &response)
{
    MetricsQueryStat s;
    s.name = name;
    s.promql = response.query;
    s.ok = response.ok;
    s.error = response.error;
    s.errorKind = response.errorKind();
    s.elapsedMs = response.elapsedMs;
    s.bytes = response.bytes;
    s.series = int(response.series.size());
    return s;
}

SourceStatus MetricsPart::status() const
{
    SourceStatus s;
    s.source = SourceKind::Prometheus;
    s.configured = true;
    s.ok = ok();
    s.error = error;
    s.lastAttempt = takenAt;
    if (s.ok)
        s.lastSuccess = takenAt;
    s.lastDurationMs = durationMs;
    return s;
}

void MetricsPart::takeUsage(const MetricsPart &other)
{
    if (other.linkCountersKnown) {
        linkCounters = other.linkCounters;
        linkCountersKnown = true;
        linkCountersEnd = other.linkCountersEnd;
    }
    if (other.usageKnown) {
        usage = other.usage;
        usageKnown = true;
        usageTakenAt = other.usageTakenAt;
        usageStart = other.usageStart;
        usageEnd = other.usageEnd;
        usageStepSeconds = other.usageStepSeconds;
    }
    if (other.usageKnown || other.linkCountersKnown)
        queries += other.queries;
}

} // namespace strata
