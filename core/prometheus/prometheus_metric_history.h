#pragma once

#include "model/metric_history.h"
#include "profile/cluster_profile.h"

#include <QObject>

#include <memory>

namespace strata {

class PrometheusClient;

// MetricHistory over the cluster's Prometheus: one query_range per request through
// core/prometheus (MetricSeriesQuery builds the PromQL for the node under any host label the
// profile allows). Its PrometheusClient is its own, not the MetricsSource's: a chart's range
// query never waits behind a refresh's queries for the same few connections. The client lives
// on the thread that made it (the GUI thread in the window) and never blocks it.
// Owned by the MetricsSource (MetricsSource::history), so one per session with a Prometheus URL.
class PrometheusMetricHistory : public QObject, public MetricHistory
{
    Q_OBJECT
public:
    explicit PrometheusMetricHistory(const ClusterProfile &profile, QObject *parent = nullptr);
    ~PrometheusMetricHistory() override;

    QFuture<Result> range(const MetricHistoryRequest &request) override;

    // The friendly metric name core/prometheus knows for a chart metric ("util", "temp", ...).
    static QString metricName(ChartMetric::Kind kind);

private:
    ClusterProfile m_profile;
    std::unique_ptr<PrometheusClient> m_client;
};

} // namespace strata
