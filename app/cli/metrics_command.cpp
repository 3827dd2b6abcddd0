#include "metrics_command.h"

#include "cli/cli_profile_resolver.h"
#include "cli/cli_output.h"

#include "prometheus/metric_series_query.h"
#include "prometheus/prometheus_client.h"
#include "model/when_finished.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdio>

namespace strata {

namespace {

const QCommandLineOption kNode{QStringLiteral("node"), QStringLiteral("Node name."), QStringLiteral("name")};
const QCommandLineOption kGpu{QStringLiteral("gpu"), QStringLiteral("GPU index (default: all GPUs of the node)."), QStringLiteral("index")};
const QCommandLineOption kMetric{QStringLiteral("metric"), QStringLiteral("util, temp, power, memory, tensor, sm-clock, ... or a DCGM name."), QStringLiteral("name")};
const QCommandLineOption kSince{QStringLiteral("since"), QStringLiteral("How far back: 30m, 1h, 2d (default 1h)."), QStringLiteral("duration")};
const QCommandLineOption kStep{QStringLiteral("step"), QStringLiteral("Resolution: 15s, 1m (default: since/240)."), QStringLiteral("duration")};

void write(FILE *stream, const QString &text)
{
    if (stream == stdout)
        CliOutput::out(text);
    else
        CliOutput::line(text.endsWith(QLatin1Char('\n')) ? text.chopped(1) : text);
}

QJsonValue sampleValue(double v)
{
    // JSON has no NaN/Inf: write them as Prometheus does, as strings.
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("+Inf") : QStringLiteral("-Inf");
    return v;
}

} // namespace

QList<QCommandLineOption> MetricsCommand::options()
{
    return {kNode, kGpu, kMetric, kSince, kStep};
}

int MetricsCommand::run(QCoreApplication &app, QCommandLineParser &parser, const ClusterProfile &profile)
{
    if (profile.prometheusUrl.isEmpty()) {
        write(stderr, QStringLiteral("strata: metrics needs --prometheus URL (or a profile with one)\n"));
        return 2;
    }
    MetricSeriesQuery::Request request;
    request.node = parser.value(kNode);
    request.metric = parser.value(kMetric);
    if (request.node.isEmpty() || request.metric.isEmpty()) {
        write(stderr, QStringLiteral("strata: metrics needs --node NAME and --metric NAME\n"));
        return 2;
    }
    if (parser.isSet(kGpu)) {
        bool ok = false;
        request.gpu = parser.value(kGpu).toInt(&ok);
        if (!ok || request.gpu < 0) {
            write(stderr, QStringLiteral("strata: --gpu needs a GPU index\n"));
            return 2;
        }
    }
    for (const auto &[option, target] : {std::pair{&kSince, &request.sinceSeconds}, std::pair{&kStep, &request.stepSeconds}}) {
        if (!parser.isSet(*option))
            continue;
        const auto seconds = MetricSeriesQuery::parseDuration(parser.value(*option));
        if (!seconds || *seconds <= 0) {
            write(stderr, QStringLiteral("strata: --%1 \"%2\" is not a duration such as 90s, 30m, 1h, 2d (at most 3650d)\n")
                              .arg(option->names().first(), parser.value(*option)));
            return 2;
        }
        *target = *seconds;
    }
    PrometheusClient client(PrometheusClient::Config::fromProfile(profile));
    if (!client.credentialsWarning().isEmpty())
        write(stderr, QStringLiteral("strata: warning: %1\n").arg(client.credentialsWarning()));
    MetricSeriesResult result;
    whenFinished(MetricSeriesQuery::run(client, request, profile), &app, [&](const MetricSeriesResult &r) {
        result = r;
        app.quit();
    });
    app.exec();
    if (!result.error.isEmpty()) {
        write(stderr, QStringLiteral("strata: %1\n").arg(result.error));
        return 1;
    }
    if (result.series.isEmpty()) {
        write(stderr, QStringLiteral("strata: no %1 series for %2%3 in the last %4 s (query: %5)\n")
                          .arg(result.metric, request.node,
                               request.gpu >= 0 ? QStringLiteral(" GPU %1").arg(request.gpu) : QString())
                          .arg(request.sinceSeconds)
                          .arg(result.promql));
        return 1;
    }
    if (parser.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray series;
        for (const MetricSeries &s : result.series) {
            QJsonArray samples;
            for (const PrometheusSample &p : s.samples)
                samples.append(QJsonArray{p.time, sampleValue(p.value)});
            series.append(QJsonObject{{QLatin1String("node"), s.node}, {QLatin1String("gpu"), s.gpu},
                                      {QLatin1String("uuid"), s.uuid}, {QLatin1String("samples"), samples}});
        }
        write(stdout, QString::fromUtf8(QJsonDocument(QJsonObject{{QLatin1String("schema"), QStringLiteral("strata.metrics/1")},
                                                                  {QLatin1String("metric"), result.metric},
                                                                  {QLatin1String("unit"), result.unit},
                                                                  {QLatin1String("promql"), result.promql},
                                                                  {QLatin1String("start"), result.start},
                                                                  {QLatin1String("end"), result.end},
                                                                  {QLatin1String("stepSeconds"), result.stepSeconds},
                                                                  {QLatin1String("series"), series}})
                                            .toJson(QJsonDocument::Indented)));
        return 0;
    }
    QString text;
    for (const MetricSeries &s : result.series) {
        text += QStringLiteral("# %1 GPU %2 %3 %4 (%5)\n").arg(s.node).arg(s.gpu).arg(s.uuid, result.metric, result.unit);
        for (const PrometheusSample &p : s.samples)
            text += QStringLiteral("%1 %2\n").arg(QDateTime::fromMSecsSinceEpoch(qint64(p.time * 1000), Qt::UTC).toString(Qt::ISODate))
                        .arg(p.value);
    }
    write(stdout, text);
    return 0;
}

int MetricsCommand::runFromCommandLine(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    ClusterProfile profile;
    if (!CliProfileResolver::resolve(connection, parser, &profile, ConnectionOptions::SshOptional))
        return 2;
    return run(app, parser, profile);
}

} // namespace strata
