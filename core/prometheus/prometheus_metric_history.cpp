#include "prometheus_metric_history.h"

#include "prometheus/app_metrics_query.h"
#include "prometheus/metric_series_query.h"
#include "prometheus/prometheus_response_parser.h"
#include "prometheus/prometheus_client.h"

#include <QPromise>

#include <cmath>

namespace strata {

PrometheusMetricHistory::PrometheusMetricHistory(const ClusterProfile &profile, QObject *parent)
    : QObject(parent), m_profile(profile),
      m_client(std::make_unique<PrometheusClient>(PrometheusClient::Config::fromProfile(profile)))
{
}

PrometheusMetricHistory::~PrometheusMetricHistory() = default;

QString PrometheusMetricHistory::metricName(ChartMetric::Kind kind)
{
    switch (kind) {
    case ChartMetric::Utilisation: return QStringLiteral("util");
    case ChartMetric::Temperature: return QStringLiteral("temp");
    case ChartMetric::Power: return QStringLiteral("power");
    case ChartMetric::Memory: return QStringLiteral("memory");
    case ChartMetric::AppTokens:
    case ChartMetric::AppStep:
    case ChartMetric::AppWaiting: return ChartMetric::applicationFigure(kind); // queried by range(), per job
    }
    return QStringLiteral("util");
}

QFuture<MetricHistory::Result> PrometheusMetricHistory::range(const MetricHistoryRequest &request)
{
    if (ChartMetric::isApplication(request.metric)) {
        const QString promql = AppMetricsQuery::jobSeriesPromql(ChartMetric::applicationFigure(request.metric), request.jobId);
        if (promql.isEmpty()) {
            QPromise<Result> refused;
            refused.start();
            refused.addResult(Result{{}, QStringLiteral("\"%1\" is not a job id Strata can look up").arg(request.jobId)});
            refused.finish();
            return refused.future();
        }
        PrometheusResponseParser::Options matrix;
        matrix.expect = PrometheusResponse::ResultType::Matrix;
        const QString label = ChartMetric::applicationFigure(request.metric);
        return m_client->queryRange(promql, request.start.toSecsSinceEpoch(), request.end.toSecsSinceEpoch(),
                                    request.stepSeconds, matrix)
            .then([label](const PrometheusResponse &r) {
                Result result;
                if (!r.ok) {
                    result.error = r.error;
                    return result;
                }
                // One line: the first answering series (the server names the job's application uses).
                if (r.series.isEmpty())
                    return result;
                TimeSeries ts;
                ts.label = label;
                for (const PrometheusSample &sample : r.series.first().samples)
                    ts.points << QPointF(sample.time * 1000, std::isfinite(sample.value) ? sample.value : std::nan(""));
                result.series << ts;
                return result;
            });
    }
    MetricSeriesQuery::Request query;
    query.node = request.node;
    query.gpu = request.gpus.size() == 1 ? request.gpus.first() : -1;
    query.metric = metricName(request.metric);
    query.sinceSeconds = qMax<qint64>(60, request.start.secsTo(request.end));
    query.stepSeconds = request.stepSeconds;
    const QVector<int> wanted = request.gpus;
    return MetricSeriesQuery::run(*m_client, query, m_profile)
        .then([wanted](const MetricSeriesResult &answer) {
            Result result;
            result.error = answer.error;
            for (const MetricSeries &s : answer.series) {
                if (!wanted.isEmpty() && !wanted.contains(s.gpu))
                    continue;
                TimeSeries ts;
                ts.label = QString::number(s.gpu); // short: eight of them share a narrow legend
                ts.points.reserve(s.samples.size());
                for (const PrometheusSample &sample : s.samples)
                    ts.points << QPointF(sample.time * 1000,
                                         std::isfinite(sample.value) ? sample.value : std::nan(""));
                result.series << ts;
            }
            return result;
        });
}

} // namespace strata
