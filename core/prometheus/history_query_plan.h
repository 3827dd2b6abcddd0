#pragma once

#include "metrics_query_plan.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

// The PromQL and the time grid of one history read (finished and running jobs' efficiency over a
// period, JobEfficiencyCalculator). Per metric ONE query_range over the whole cluster for the
// whole period, never one per job: each point is the metric over the step that ends there
// (avg_over_time for utilisation and power, max_over_time for memory), so a coarse step still
// averages every scrape and a job shorter than the step still has its peak. The period is cut
// into chunks only so that no answer is too large (maxPointsPerAnswer) and no series passes
// Prometheus's own 11,000 points per query. Pure; no state beyond the options.
class HistoryQueryPlan
{
public:
    enum class Metric { Util, MemUsed, Power };
    static constexpr int kMetricCount = 3;
    // Prometheus refuses a query_range of more than 11,000 points per series.
    static constexpr qint64 kPrometheusMaxPoints = 11000;

    struct Options
    {
        MetricsQueryPlan::Options labels; // hostLabel, extraMatchers as for the live refresh
        int maxPointsPerSeries = 1440;    // over the whole period: 24 h at 60 s, 30 d at 30 min
        int minStepSeconds = 60;
        // Points per answer at most (series x points): about 20 bytes of JSON and 9x that
        // parsed each, so 500,000 points is ~10 MB moved and ~90 MB parsed at once.
        qint64 maxPointsPerAnswer = 500000;
    };

    // One query_range: evaluation times start, start + step, ..., end (both included).
    struct Chunk
    {
        qint64 start = 0, end = 0;
        bool operator==(const Chunk &other) const = default;
    };

    explicit HistoryQueryPlan(Options options);

    // The step for a period of periodSeconds: at most maxPointsPerSeries points, at least
    // minStepSeconds, a whole minute when over a minute (so the windows line up with scrapes).
    static qint64 stepFor(qint64 periodSeconds, const Options &options);
    // The chunks covering (periodStart, periodEnd]: the first point at periodStart + step (its
    // window is the period's first step), the last at or after periodEnd. seriesEstimate: the
    // GPUs expected (the latest snapshot's; <= 0: 64).
    static QVector<Chunk> chunks(qint64 periodStart, qint64 periodEnd, qint64 stepSeconds, qint64 seriesEstimate,
                                 const Options &options);

    QString promql(Metric metric, qint64 stepSeconds) const;
    static QString metricName(Metric metric); // the DCGM field
    static QString statName(Metric metric);   // "history-util", ... (MetricsQueryStat::name)
    // The labels the `max by` keeps: host labels, gpu and the workload labels.
    QStringList keptLabels() const;

private:
    Options m_options;
};

} // namespace strata
