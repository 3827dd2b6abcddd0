#include "prometheus_client.h"

#include "profile/cluster_profile.h"
#include "model/heap_memory.h"
#include "model/pool_task.h"

#include <QElapsedTimer>
#include <QPromise>
#include <QThreadPool>

#include <memory>

namespace strata {

namespace {

// The one thread that parses large answers (kSerialParseBytes), for every client of the process.
QThreadPool *largeAnswerPool()
{
    static QThreadPool *pool = [] {
        auto *p = new QThreadPool; // lives as long as the process, like QThreadPool::globalInstance()
        p->setMaxThreadCount(1);
        p->setObjectName(QStringLiteral("strata-prometheus-large-parse"));
        return p;
    }();
    return pool;
}
// Past this a GET URL risks proxy limits; Prometheus takes the same form as a POST body.
constexpr qsizetype kMaxGetUrl = 4000;

PrometheusResponse failed(const QString &promql, const QString &type, const QString &message, int status = 0)
{
    PrometheusResponse r;
    r.query = promql;
    r.errorType = type;
    r.error = message;
    r.httpStatus = status;
    return r;
}

// The errorType PrometheusResponse has always named each way a request can fail.
QString errorTypeOf(HttpApiClient::Failure failure)
{
    switch (failure) {
    case HttpApiClient::Failure::None: return {};
    case HttpApiClient::Failure::Canceled: return QStringLiteral("canceled");
    case HttpApiClient::Failure::Timeout: return QStringLiteral("timeout");
    case HttpApiClient::Failure::TooLarge: return QStringLiteral("too_large");
    case HttpApiClient::Failure::Redirect: return QStringLiteral("redirect");
    case HttpApiClient::Failure::Transport: return QStringLiteral("transport");
    case HttpApiClient::Failure::Refused: return QStringLiteral("auth");
    }
    return QStringLiteral("transport");
}

QFuture<PrometheusResponse> ready(PrometheusResponse response)
{
    QPromise<PrometheusResponse> promise;
    promise.start();
    promise.addResult(std::move(response));
    promise.finish();
    return promise.future();
}

} // namespace

PrometheusClient::Config PrometheusClient::Config::fromProfile(const ClusterProfile &profile)
{
    Config c;
    static_cast<HttpApiClient::Config &>(c) = HttpApiClient::Config::fromProfile(profile, profile.prometheusUrl);
    return c;
}

PrometheusClient::PrometheusClient(Config config, QObject *parent)
    : QObject(parent), m_http(new HttpApiClient(QStringLiteral("Prometheus"), std::move(config), this))
{
}

QFuture<PrometheusResponse> PrometheusClient::query(const QString &promql,
                                                    const PrometheusResponseParser::Options &options,
                                                    std::optional<double> timeSeconds)
{
    QUrlQuery parameters;
    parameters.addQueryItem(QStringLiteral("query"), promql);
    if (timeSeconds)
        parameters.addQueryItem(QStringLiteral("time"), QString::number(*timeSeconds, 'f', 3));
    return send(QStringLiteral("/api/v1/query"), parameters, promql, options);
}

QFuture<PrometheusResponse> PrometheusClient::queryRange(const QString &promql, qint64 start, qint64 end,
                                                         qint64 stepSeconds,
                                                         const PrometheusResponseParser::Options &options)
{
    QUrlQuery parameters;
    parameters.addQueryItem(QStringLiteral("query"), promql);
    parameters.addQueryItem(QStringLiteral("start"), QString::number(start));
    parameters.addQueryItem(QStringLiteral("end"), QString::number(end));
    parameters.addQueryItem(QStringLiteral("step"), QString::number(stepSeconds));
    return send(QStringLiteral("/api/v1/query_range"), parameters, promql, options);
}

QFuture<PrometheusResponse> PrometheusClient::alerts()
{
    PrometheusResponseParser::Options options;
    options.alertList = true;
    return send(QStringLiteral("/api/v1/alerts"), QUrlQuery(), QStringLiteral("(alerts)"), options);
}

QFuture<PrometheusResponse> PrometheusClient::send(const QString &path, QUrlQuery parameters,
                                                   const QString &promql,
                                                   const PrometheusResponseParser::Options &options)
{
    if (!m_http->configError().isEmpty())
        return ready(failed(promql, QStringLiteral("config"), m_http->configError()));

    const QUrl url = m_http->endpoint(path);
    // A literal '+' in PromQL must reach the server as %2B, not as a space.
    const QByteArray encoded = parameters.toString(QUrl::FullyEncoded).replace('+', "%2B").toUtf8();

    auto promise = std::make_shared<QPromise<PrometheusResponse>>();
    promise->start();
    QFuture<PrometheusResponse> future = promise->future();
    QElapsedTimer timer;
    timer.start();
    const QString where = m_http->displayUrl();
    const auto onFinished = [promise, timer, where, promql, options](const HttpApiClient::Reply &reply) {
        const auto finish = [promise, timer](PrometheusResponse r) {
            r.elapsedMs = timer.elapsed();
            promise->addResult(std::move(r));
            promise->finish();
        };
        if (reply.failure != HttpApiClient::Failure::None)
            return finish(failed(promql, errorTypeOf(reply.failure), reply.error, reply.httpStatus));
        const auto parse = [body = reply.body, status = reply.httpStatus, options, promql, where] {
            PrometheusResponse r = PrometheusResponseParser::parse(body, status, options);
            r.query = promql;
            if (r.isTruncated())
                r.error = QStringLiteral("Prometheus at %1 broke off its answer: %2").arg(where, r.error);
            return r;
        };
        if (reply.body.size() <= kInlineParseBytes)
            return finish(parse());
        if (reply.body.size() < kSerialParseBytes) {
            (void)runOnPool(QThreadPool::globalInstance(), [parse, finish] { finish(parse()); });
            return;
        }
        // Its DOM freed, the pages go back (glibc keeps them in the pool thread's arena).
        (void)runOnPool(largeAnswerPool(), [parse, finish] {
            finish(parse());
            HeapMemory::releaseFree();
        });
    };

    QUrl getUrl = url;
    getUrl.setQuery(QString::fromUtf8(encoded), QUrl::StrictMode);
    if (getUrl.toEncoded().size() <= kMaxGetUrl)
        m_http->get(getUrl, onFinished);
    else
        m_http->post(url, QByteArrayLiteral("application/x-www-form-urlencoded"), encoded, onFinished);
    return future;
}

} // namespace strata
