#pragma once

#include "chart_metric.h"
#include "time_series.h"

#include <QDateTime>
#include <QFuture>
#include <QVector>

namespace strata {

struct MetricHistoryRequest
{
    QString node;
    QVector<int> gpus;  // empty: every GPU of the node
    ChartMetric::Kind metric = ChartMetric::Utilisation;
    QString jobId;      // application metrics (ChartMetric::isApplication): the job, not GPUs
    QDateTime start, end;
    int stepSeconds = 15;
};

// Where the detail panes get GPU time series from: a range query against the cluster's
// metrics, offered by the session (ClusterSession::metricHistory: PrometheusMetricHistory,
// a query_range through core/prometheus). Implementations do their I/O off the GUI thread;
// the future finishes with one series per GPU, or with `error` set.
class MetricHistory
{
public:
    virtual ~MetricHistory() = default;
    struct Result
    {
        QVector<TimeSeries> series;
        QString error; // empty on success
    };
    virtual QFuture<Result> range(const MetricHistoryRequest &request) = 0;
};

} // namespace strata
