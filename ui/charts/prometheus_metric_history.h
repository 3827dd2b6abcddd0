#pragma once

#include "metric_history.h"

#include "session/cluster_profile.h"

#include <QObject>

#include <memory>

namespace strata {

class PrometheusClient;

// MetricHistory over the cluster's Prometheus: one query_range per request through
// core/prometheus (MetricSeriesQuery builds the PromQL for the node under any host label the
// profile allows). Its PrometheusClient lives on the GUI thread and never blocks it.
// Owned by the MainWindow, one per connected profile that has a Prometheus URL.
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
