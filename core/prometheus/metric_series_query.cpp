#include "metric_series_query.h"

#include "dcgm_blank_value.h"
#include "dcgm_metric_catalog.h"
#include "host_name_resolver.h"
#include "metrics_query_plan.h"
#include "prometheus_client.h"
#include "profile/cluster_profile.h"

#include <QDateTime>
#include <QPromise>
#include <QRegularExpression>

#include <algorithm>
#include <limits>

namespace strata {

std::optional<QString> MetricSeriesQuery::resolveMetric(const QString &metric, QString *error)
{
    if (const DcgmMetric *m = DcgmMetricCatalog::find(metric.trimmed()))
        return m->name;
    if (DcgmMetricCatalog::looksLikeDcgmName(metric.trimmed()))
        return metric.trimmed();
    if (error) {
        QStringList names;
        for (const DcgmMetric &m : DcgmMetricCatalog::all())
            names << m.friendlyName;
        *error = QStringLiteral("unknown metric \"%1\": use one of %2, or a DCGM field name such as "
                                "DCGM_FI_DEV_GPU_UTIL")
                     .arg(metric, names.join(QStringLiteral(", ")));
    }
    return std::nullopt;
}

qint64 MetricSeriesQuery::stepFor(const Request &request)
{
    if (request.stepSeconds > 0)
        return request.stepSeconds;
    return std::max<qint64>(15, request.sinceSeconds / 240);
}

std::optional<qint64> MetricSeriesQuery::parseDuration(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d+)([smhdw]?)\\z"));
    const QRegularExpressionMatch m = pattern.match(text.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    bool ok = false;
    const qint64 n = m.captured(1).toLongLong(&ok);
    if (!ok || n <= 0)
        return std::nullopt;
    const QString unit = m.captured(2);
    const qint64 factor = unit == QLatin1String("m") ? 60
        : unit == QLatin1String("h")                 ? 3600
        : unit == QLatin1String("d")                 ? 86400
        : unit == QLatin1String("w")                 ? 7 * 86400
                                                     : 1;
    // Checked before multiplying: n * factor past qint64 would wrap to a negative or small span.
    if (n > maxDurationSeconds / factor)
        return std::nullopt;
    return n * factor;
}

QString MetricSeriesQuery::promql(const Request &request, const QString &metricName, const ClusterProfile &profile)
{
    // The node under every name an exporter may give it: itself, any relabelled exporter name,
    // each either bare or with a domain.
    QStringList names{request.node};
    for (auto it = profile.hostRelabel.cbegin(); it != profile.hostRelabel.cend(); ++it)
        if (it.value() == request.node && !names.contains(it.key()))
            names << it.key();
    QStringList alternatives;
    for (const QString &n : std::as_const(names))
        alternatives << MetricsQueryPlan::escapeRegex(HostNameResolver::normalise(n));
    // RE2, fully anchored by Prometheus; escaped once more below for the PromQL string.
    const QString hostPattern = QStringLiteral("(?i)(%1)(\\..+)?").arg(alternatives.join(QLatin1Char('|')));

    QString gpuMatcher;
    if (request.gpu >= 0)
        gpuMatcher = QStringLiteral(", gpu=\"%1\"").arg(request.gpu);
    QStringList selectors;
    const QStringList labels = HostNameResolver::hostLabelNames(profile.hostLabel);
    for (const QString &label : labels) {
        const QString pattern = label == QLatin1String("instance")
            ? hostPattern + QStringLiteral("(:[0-9]+)?")
            : hostPattern;
        selectors << QStringLiteral("%1{%2=~\"%3\"%4}")
                         .arg(metricName, label, MetricsQueryPlan::escapeString(pattern), gpuMatcher);
    }
    // `or` keeps a series once even when several labels match it; max by gpu merges the
    // series one GPU gets per job (hpc_job) into one line.
    return QStringLiteral("max by (gpu, UUID) (%1)").arg(selectors.join(QStringLiteral(" or ")));
}

MetricSeriesResult MetricSeriesQuery::fromResponse(const PrometheusResponse &response, const Request &request)
{
    MetricSeriesResult result;
    result.promql = response.query;
    if (!response.ok) {
        result.error = QStringLiteral("metrics unavailable: %1").arg(response.error);
        return result;
    }
    const bool known = DcgmMetricCatalog::find(request.metric) != nullptr;
    for (const PrometheusSeries &s : response.series) {
        MetricSeries series;
        series.node = request.node;
        bool ok = false;
        series.gpu = s.label(u"gpu").toInt(&ok);
        if (!ok)
            series.gpu = -1;
        series.uuid = s.label(u"UUID");
        series.samples = s.samples;
        // DCGM "not supported" codes are gaps, never points of the line.
        for (PrometheusSample &sample : series.samples)
            if (known ? DcgmBlankValue::isMissing(sample.value) : DcgmBlankValue::isMissingAnyField(sample.value))
                sample.value = std::numeric_limits<double>::quiet_NaN();
        result.series << series;
    }
    std::sort(result.series.begin(), result.series.end(),
              [](const MetricSeries &a, const MetricSeries &b) { return a.gpu < b.gpu; });
    if (result.series.isEmpty())
        result.error = request.gpu >= 0
            ? QStringLiteral("no data for GPU %1 of %2 in this window: check the node and GPU index").arg(request.gpu).arg(request.node)
            : QStringLiteral("no data for %1 in this window: check the node name and that its DCGM exporter is scraped").arg(request.node);
    return result;
}

QFuture<MetricSeriesResult> MetricSeriesQuery::run(PrometheusClient &client, const Request &request,
                                                   const ClusterProfile &profile)
{
    QString error;
    const std::optional<QString> name = resolveMetric(request.metric, &error);
    if (!name) {
        QPromise<MetricSeriesResult> promise;
        promise.start();
        MetricSeriesResult r;
        r.error = error;
        promise.addResult(r);
        promise.finish();
        return promise.future();
    }
    const qint64 end = QDateTime::currentSecsSinceEpoch();
    const qint64 step = stepFor(request);
    const qint64 start = end - request.sinceSeconds;
    const DcgmMetric *known = DcgmMetricCatalog::byName(*name);
    PrometheusResponseParser::Options options;
    options.expect = PrometheusResponse::ResultType::Matrix;
    return client.queryRange(promql(request, *name, profile), start, end, step, options)
        .then([request, metric = *name, unit = known ? known->unit : QString(), start, end, step](PrometheusResponse r) {
            MetricSeriesResult result = fromResponse(r, request);
            result.metric = metric;
            result.unit = unit;
            result.start = start;
            result.end = end;
            result.stepSeconds = step;
            return result;
        });
}

} // namespace strata
