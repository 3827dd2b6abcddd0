#pragma once

#include "prometheus_response.h"

#include <QFuture>
#include <QMap>
#include <QString>
#include <QVector>

#include <optional>

namespace strata {

class PrometheusClient;
struct ClusterProfile;

// One GPU's history of one metric.
struct MetricSeries
{
    QString node;
    int gpu = -1;
    QString uuid;
    QVector<PrometheusSample> samples; // time order; NaN/Inf kept as the server sent them
};

// The answer to `strata metrics --node N [--gpu I] --metric NAME --since 1h`, and the data of
// a UI chart.
struct MetricSeriesResult
{
    QString error;       // empty on success
    QString metric;      // the DCGM name queried
    QString unit;        // "%", "C", ... ; empty for a DCGM name Strata has no entry for
    QString promql;
    qint64 start = 0, end = 0, stepSeconds = 0;
    QVector<MetricSeries> series; // by GPU index
};

// Builds the PromQL for one node (and optionally one GPU) and one metric, and turns the
// query_range answer into series. Pure except run(), which sends the query via a client.
class MetricSeriesQuery
{
public:
    struct Request
    {
        QString node;              // the scheduler's node name
        int gpu = -1;              // -1: every GPU of the node
        QString metric;            // friendly (util, temp, power, memory, tensor, sm-clock, ...) or DCGM name
        qint64 sinceSeconds = 3600;
        qint64 stepSeconds = 0;    // 0: since / 240, at least 15 s
    };

    // The DCGM name for a friendly or raw name; nullopt (and *error) when it is neither.
    static std::optional<QString> resolveMetric(const QString &metric, QString *error);
    // PromQL selecting the node's series of the metric under any host label the profile
    // allows (Hostname/hostname or the profile's label, target `node`, `instance`), any
    // relabelled exporter name of the node, FQDN or short; one series per GPU.
    static QString promql(const Request &request, const QString &metricName, const ClusterProfile &profile);
    static qint64 stepFor(const Request &request);
    // "90s", "30m", "1h", "2d", "1w" -> seconds; nullopt when malformed or longer than
    // maxDurationSeconds.
    static std::optional<qint64> parseDuration(const QString &text);
    // Ten years (3650d): longer than any Prometheus retention or silence a person means, and
    // small enough that a time plus it, in milliseconds, never overflows.
    static constexpr qint64 maxDurationSeconds = 3650LL * 86400;

    static MetricSeriesResult fromResponse(const PrometheusResponse &response, const Request &request);
    // resolve + promql + query_range ending now; the future finishes as the client's does.
    static QFuture<MetricSeriesResult> run(PrometheusClient &client, const Request &request,
                                           const ClusterProfile &profile);
};

} // namespace strata
