#include "prometheus_client.h"

#include "http_origin.h"
#include "http_reply_guard.h"
#include "session/cluster_profile.h"
#include "model/display_url.h"
#include "model/heap_memory.h"
#include "model/pool_task.h"

#include <QElapsedTimer>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPromise>
#include <QThreadPool>

#if QT_CONFIG(ssl)
#include <QSslCertificate>
#include <QSslConfiguration>
#endif

#include <memory>

namespace strata {

namespace {

constexpr char kAbortedProperty[] = "strataAborted";

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
    c.baseUrl = QUrl(profile.prometheusUrl);
    c.bearerToken = profile.prometheusToken;
    c.user = profile.prometheusUser;
    c.password = profile.prometheusPassword;
    c.caFile = profile.prometheusCaFile;
    c.timeoutMs = qMin(c.timeoutMs, qMax(1, profile.commandTimeoutSeconds) * 1000);
    return c;
}

PrometheusClient::PrometheusClient(Config config, QObject *parent)
    : QObject(parent), m_config(std::move(config))
{
    const QUrl &url = m_config.baseUrl;
    if (!url.isValid() || url.host().isEmpty()
        || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        m_configError = QStringLiteral("Prometheus URL \"%1\" is not an http(s) URL with a host")
                            .arg(DisplayUrl::withoutPassword(url.toString()));
    if (!m_config.caFile.isEmpty()) {
#if QT_CONFIG(ssl)
        if (QSslCertificate::fromPath(m_config.caFile).isEmpty())
            m_configError = QStringLiteral("cannot read a PEM certificate from the Prometheus CA file %1")
                                .arg(m_config.caFile);
#else
        m_configError = QStringLiteral("this build has no TLS support, so the CA file %1 cannot be used")
                            .arg(m_config.caFile);
#endif
    }
    if (const QString problem = HttpReplyGuard::credentialsProblem(u"Prometheus", m_config.bearerToken);
        !problem.isEmpty())
        m_configError = problem;
    m_credentialsWarning = HttpOrigin::clearTextCredentialsWarning(
        u"Prometheus", url, HttpReplyGuard::credentialsName(m_config.bearerToken, m_config.user));
}

PrometheusClient::~PrometheusClient()
{
    // abort() emits finished() at once: each pending future gets its "canceled" result here,
    // while this object (the connections' context) still exists.
    const QSet<QNetworkReply *> replies = m_replies;
    for (QNetworkReply *reply : replies) {
        reply->setProperty(kAbortedProperty, true);
        reply->abort();
    }
}

QString PrometheusClient::displayUrl() const
{
    return HttpOrigin::display(m_config.baseUrl);
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
    if (!m_configError.isEmpty())
        return ready(failed(promql, QStringLiteral("config"), m_configError));

    QUrl url = m_config.baseUrl;
    QString basePath = url.path();
    while (basePath.endsWith(QLatin1Char('/')))
        basePath.chop(1);
    url.setPath(basePath + path);
    // A literal '+' in PromQL must reach the server as %2B, not as a space.
    const QByteArray encoded = parameters.toString(QUrl::FullyEncoded).replace('+', "%2B").toUtf8();

    QNetworkRequest request;
    request.setRawHeader("Accept", "application/json");
    HttpReplyGuard::prepare(request, m_config.bearerToken, m_config.user, m_config.password);
#if QT_CONFIG(ssl)
    if (!m_config.caFile.isEmpty()) {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        ssl.addCaCertificates(QSslCertificate::fromPath(m_config.caFile));
        request.setSslConfiguration(ssl);
    }
#endif

    QNetworkReply *reply = nullptr;
    QUrl getUrl = url;
    getUrl.setQuery(QString::fromUtf8(encoded), QUrl::StrictMode);
    if (getUrl.toEncoded().size() <= kMaxGetUrl) {
        request.setUrl(getUrl);
        reply = m_network.get(request);
    } else {
        request.setUrl(url);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/x-www-form-urlencoded"));
        reply = m_network.post(request, encoded);
    }
    new HttpReplyGuard(reply, {m_config.timeoutMs, m_config.maxResponseBytes});
    m_replies.insert(reply);

    auto promise = std::make_shared<QPromise<PrometheusResponse>>();
    promise->start();
    QFuture<PrometheusResponse> future = promise->future();
    QElapsedTimer timer;
    timer.start();
    const QString where = displayUrl();
    const int timeoutMs = m_config.timeoutMs;

    connect(reply, &QNetworkReply::finished, this, [this, reply, promise, timer, where, promql, options, timeoutMs] {
        m_replies.remove(reply);
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const auto finish = [promise, timer](PrometheusResponse r) {
            r.elapsedMs = timer.elapsed();
            promise->addResult(std::move(r));
            promise->finish();
        };
        if (reply->property(kAbortedProperty).toBool())
            return finish(failed(promql, QStringLiteral("canceled"),
                                 QStringLiteral("request to Prometheus at %1 canceled: the client was closed").arg(where)));
        if (const HttpReplyGuard *guard = HttpReplyGuard::of(reply); guard && guard->stop() != HttpReplyGuard::Stop::None) {
            const HttpReplyGuard::Stop stop = guard->stop();
            return finish(failed(promql,
                                 stop == HttpReplyGuard::Stop::Deadline   ? QStringLiteral("timeout")
                                 : stop == HttpReplyGuard::Stop::TooLarge ? QStringLiteral("too_large")
                                                                          : QStringLiteral("redirect"),
                                 guard->describe(u"Prometheus", where), status));
        }
        if (status == 0) {
            const QNetworkReply::NetworkError error = reply->error();
            if (error == QNetworkReply::OperationCanceledError || error == QNetworkReply::TimeoutError)
                return finish(failed(promql, QStringLiteral("timeout"),
                                     QStringLiteral("Prometheus at %1 did not answer within %2 s")
                                         .arg(where).arg(timeoutMs / 1000.0)));
            return finish(failed(promql, QStringLiteral("transport"),
                                 QStringLiteral("Prometheus at %1 not reachable: %2").arg(where, reply->errorString())));
        }
        // The status line came, then the connection dropped or stalled mid-body: a truncated
        // answer, not malformed JSON. Network-layer errors are 1-99 in QNetworkReply's enum.
        if (const QNetworkReply::NetworkError error = reply->error(); error > QNetworkReply::NoError && error < 100) {
            const qint64 received = reply->bytesAvailable();
            if (error == QNetworkReply::OperationCanceledError || error == QNetworkReply::TimeoutError)
                return finish(failed(promql, QStringLiteral("timeout"),
                                     QStringLiteral("Prometheus at %1 stopped sending its answer (HTTP %2) after %3 bytes "
                                                    "and nothing more came within %4 s")
                                         .arg(where).arg(status).arg(received).arg(timeoutMs / 1000.0),
                                     status));
            return finish(failed(promql, QStringLiteral("transport"),
                                 QStringLiteral("Prometheus at %1 broke off its answer (HTTP %2) after %3 bytes: %4")
                                     .arg(where).arg(status).arg(received).arg(reply->errorString()),
                                 status));
        }
        if (status == 401 || status == 403)
            return finish(failed(promql, QStringLiteral("auth"),
                                 QStringLiteral("Prometheus at %1 refused the request (HTTP %2): check the token or "
                                                "user/password in the profile")
                                     .arg(where).arg(status),
                                 status));
        const QByteArray body = reply->readAll();
        const auto parse = [body, status, options, promql, where] {
            PrometheusResponse r = PrometheusResponseParser::parse(body, status, options);
            r.query = promql;
            if (r.isTruncated())
                r.error = QStringLiteral("Prometheus at %1 broke off its answer: %2").arg(where, r.error);
            return r;
        };
        if (body.size() <= kInlineParseBytes)
            return finish(parse());
        if (body.size() < kSerialParseBytes) {
            (void)runOnPool(QThreadPool::globalInstance(), [parse, finish] { finish(parse()); });
            return;
        }
        // Its DOM freed, the pages go back (glibc keeps them in the pool thread's arena).
        (void)runOnPool(largeAnswerPool(), [parse, finish] {
            finish(parse());
            HeapMemory::releaseFree();
        });
    });
    return future;
}

} // namespace strata
