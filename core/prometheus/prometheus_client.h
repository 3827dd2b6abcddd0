#pragma once

#include "http_api_client.h"
#include "prometheus_response.h"
#include "prometheus_response_parser.h"

#include <QFuture>
#include <QObject>
#include <QUrlQuery>

#include <optional>

namespace strata {

struct ClusterProfile;

// Asynchronous client of the Prometheus HTTP API over QNetworkAccessManager. Lives on the
// thread that creates it (the GUI thread in the window, the main thread in the CLI) and needs
// that thread's event loop; no call blocks. Owned by MetricsSource (or the CLI command). The
// HTTP conversation itself (checks, headers, limits, how a reply ended) is HttpApiClient's.
//
// Results come as QFuture<PrometheusResponse>, fulfilled through a QPromise: every future
// gets exactly one result and is never cancelled or exceptional, so callers chain
// whenFinished(future, context, ...) (model/when_finished.h) without checks. Failures are
// values: ok=false with an errorType and a sentence (transport errors such as "Prometheus at
// URL not reachable: Connection refused", timeouts, HTTP 401/403, the API's own 400/422/503
// errors, malformed JSON). Every request keeps HttpReplyGuard's limits: timeoutMs for the
// whole request ("timeout"), maxResponseBytes read at most ("too_large"), no redirect to
// another origin ("redirect"). Bodies over kInlineParseBytes are parsed on the QtConcurrent pool,
// so the future may finish on a pool thread: come back with whenFinished, never
// QFuture::then(context) (see when_finished.h). Destroying the client aborts what is in
// flight; those futures finish with errorType "canceled".
class PrometheusClient : public QObject
{
    Q_OBJECT
public:
    struct Config : HttpApiClient::Config
    {
        // The profile's prometheusUrl (HttpApiClient::Config::fromProfile).
        static Config fromProfile(const ClusterProfile &profile);
    };

    static constexpr qint64 kInlineParseBytes = 64 * 1024;
    // Answers past this are parsed one at a time, on a pool of one thread of their own: a
    // simdjson DOM holds about 9x its input (a 33 MB answer of 262,144 DCGM series: ~300 MB),
    // and three parsed side by side made the CLI's peak 672 MB at 16,384 GPUs.
    static constexpr qint64 kSerialParseBytes = 4 * 1024 * 1024;

    explicit PrometheusClient(Config config, QObject *parent = nullptr);

    // /api/v1/query. timeSeconds: evaluation time (default: the server's now).
    QFuture<PrometheusResponse> query(const QString &promql,
                                      const PrometheusResponseParser::Options &options = {},
                                      std::optional<double> timeSeconds = std::nullopt);
    // /api/v1/query_range from start to end (seconds since the epoch) at step seconds.
    QFuture<PrometheusResponse> queryRange(const QString &promql, qint64 start, qint64 end, qint64 stepSeconds,
                                           const PrometheusResponseParser::Options &options = {});

    // /api/v1/alerts: the alerts its rules have pending or firing (PrometheusResponse::alerts).
    QFuture<PrometheusResponse> alerts();

    const HttpApiClient::Config &config() const { return m_http->config(); }
    // Set when the configuration cannot work (bad URL, unreadable CA file); every query then
    // fails at once with this message.
    QString configError() const { return m_http->configError(); }
    int inFlight() const { return m_http->inFlight(); }
    // Set when the token or password would cross the network in clear (plain http to a host
    // that is not loopback, HttpOrigin::clearTextCredentialsWarning); requests still go. The
    // owner shows it once: MetricsSource in the source's status, the CLI on stderr.
    QString credentialsWarning() const { return m_http->credentialsWarning(); }

private:
    QFuture<PrometheusResponse> send(const QString &path, QUrlQuery parameters, const QString &promql,
                                     const PrometheusResponseParser::Options &options);

    HttpApiClient *m_http; // a child: destroyed with this client, it aborts what is in flight
};

} // namespace strata
