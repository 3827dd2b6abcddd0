#include "http_api_client.h"

#include "http_origin.h"
#include "http_reply_guard.h"
#include "model/display_url.h"
#include "profile/cluster_profile.h"

#include <QNetworkReply>
#include <QNetworkRequest>

#if QT_CONFIG(ssl)
#include <QSslCertificate>
#include <QSslConfiguration>
#endif

namespace strata {

using namespace Qt::StringLiterals;

namespace {

constexpr char kAbortedProperty[] = "strataAborted";

bool isTimeout(QNetworkReply::NetworkError error)
{
    return error == QNetworkReply::OperationCanceledError || error == QNetworkReply::TimeoutError;
}

} // namespace

HttpApiClient::Config HttpApiClient::Config::fromProfile(const ClusterProfile &profile, const QString &url)
{
    Config c;
    c.baseUrl = QUrl(url);
    c.bearerToken = profile.prometheusToken;
    c.user = profile.prometheusUser;
    c.password = profile.prometheusPassword;
    c.caFile = profile.prometheusCaFile;
    c.timeoutMs = qMin(c.timeoutMs, qMax(1, profile.commandTimeoutSeconds) * 1000);
    return c;
}

HttpApiClient::HttpApiClient(QString service, Config config, QObject *parent)
    : QObject(parent), m_service(std::move(service)), m_config(std::move(config))
{
    const QUrl &url = m_config.baseUrl;
    if (!url.isValid() || url.host().isEmpty() || (url.scheme() != "http"_L1 && url.scheme() != "https"_L1))
        m_configError = u"%1 URL \"%2\" is not an http(s) URL with a host"_s.arg(
            m_service, DisplayUrl::withoutPassword(url.toString()));
    if (!m_config.caFile.isEmpty()) {
#if QT_CONFIG(ssl)
        if (QSslCertificate::fromPath(m_config.caFile).isEmpty())
            m_configError = u"cannot read a PEM certificate from the %1 CA file %2"_s.arg(m_service, m_config.caFile);
#else
        m_configError = u"this build has no TLS support, so the CA file %1 cannot be used"_s.arg(m_config.caFile);
#endif
    }
    if (const QString problem = HttpReplyGuard::credentialsProblem(m_service, m_config.bearerToken); !problem.isEmpty())
        m_configError = problem;
    m_credentialsWarning = HttpOrigin::clearTextCredentialsWarning(
        m_service, url, HttpReplyGuard::credentialsName(m_config.bearerToken, m_config.user));
}

HttpApiClient::~HttpApiClient()
{
    // abort() emits finished() at once: each pending request gets its Canceled reply here,
    // while this object (the connections' context) still exists.
    const QSet<QNetworkReply *> replies = m_replies;
    for (QNetworkReply *reply : replies) {
        reply->setProperty(kAbortedProperty, true);
        reply->abort();
    }
}

QString HttpApiClient::displayUrl() const
{
    return HttpOrigin::display(m_config.baseUrl);
}

QUrl HttpApiClient::endpoint(const QString &path) const
{
    QUrl url = m_config.baseUrl;
    QString basePath = url.path();
    while (basePath.endsWith(u'/'))
        basePath.chop(1);
    url.setPath(basePath + path);
    return url;
}

QNetworkRequest HttpApiClient::request(const QUrl &url) const
{
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    HttpReplyGuard::prepare(request, m_config.bearerToken, m_config.user, m_config.password);
#if QT_CONFIG(ssl)
    if (!m_config.caFile.isEmpty()) {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        ssl.addCaCertificates(QSslCertificate::fromPath(m_config.caFile));
        request.setSslConfiguration(ssl);
    }
#endif
    return request;
}

void HttpApiClient::get(const QUrl &url, Finished onFinished)
{
    watch(m_network.get(request(url)), std::move(onFinished));
}

void HttpApiClient::post(const QUrl &url, const QByteArray &contentType, const QByteArray &body, Finished onFinished)
{
    QNetworkRequest r = request(url);
    r.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    watch(m_network.post(r, body), std::move(onFinished));
}

void HttpApiClient::put(const QUrl &url, const QByteArray &contentType, const QByteArray &body, Finished onFinished)
{
    QNetworkRequest r = request(url);
    r.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    watch(m_network.put(r, body), std::move(onFinished));
}

ErrorKind HttpApiClient::errorKindOf(Failure failure)
{
    switch (failure) {
    case Failure::None: return ErrorKind::None;
    case Failure::Canceled: return ErrorKind::Cancelled;
    case Failure::Timeout: return ErrorKind::Timeout;
    case Failure::TooLarge: return ErrorKind::ParseFailed;
    case Failure::Redirect: return ErrorKind::SourceUnsupported;
    case Failure::Transport: return ErrorKind::ConnectFailed;
    case Failure::Refused: return ErrorKind::AuthenticationFailed;
    }
    return ErrorKind::ConnectFailed;
}

void HttpApiClient::deleteResource(const QUrl &url, Finished onFinished)
{
    watch(m_network.deleteResource(request(url)), std::move(onFinished));
}

void HttpApiClient::watch(QNetworkReply *reply, Finished onFinished)
{
    new HttpReplyGuard(reply, {m_config.timeoutMs, m_config.maxResponseBytes});
    m_replies.insert(reply);
    connect(reply, &QNetworkReply::finished, this, [this, reply, onFinished = std::move(onFinished)] {
        m_replies.remove(reply);
        reply->deleteLater();
        onFinished(readReply(reply));
    });
}

HttpApiClient::Reply HttpApiClient::readReply(QNetworkReply *reply) const
{
    Reply r;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString where = displayUrl();
    const double timeoutSeconds = m_config.timeoutMs / 1000.0;
    const auto failed = [&r](Failure failure, const QString &error, int httpStatus) {
        r.failure = failure;
        r.error = error;
        r.httpStatus = httpStatus;
        return r;
    };
    if (reply->property(kAbortedProperty).toBool())
        return failed(Failure::Canceled, u"request to %1 at %2 canceled: the client was closed"_s.arg(m_service, where), 0);
    if (const HttpReplyGuard *guard = HttpReplyGuard::of(reply); guard && guard->stop() != HttpReplyGuard::Stop::None) {
        const HttpReplyGuard::Stop stop = guard->stop();
        return failed(stop == HttpReplyGuard::Stop::Deadline   ? Failure::Timeout
                      : stop == HttpReplyGuard::Stop::TooLarge ? Failure::TooLarge
                                                               : Failure::Redirect,
                      guard->describe(m_service, where), status);
    }
    const QNetworkReply::NetworkError error = reply->error();
    if (status == 0) {
        if (isTimeout(error))
            return failed(Failure::Timeout,
                          u"%1 at %2 did not answer within %3 s"_s.arg(m_service, where).arg(timeoutSeconds), 0);
        return failed(Failure::Transport, u"%1 at %2 not reachable: %3"_s.arg(m_service, where, reply->errorString()), 0);
    }
    // The status line came, then the connection dropped or stalled mid-body: a truncated
    // answer, not malformed content. Network-layer errors are 1-99 in QNetworkReply's enum;
    // HTTP error statuses are answers.
    if (error > QNetworkReply::NoError && error < 100) {
        const qint64 received = reply->bytesAvailable();
        if (isTimeout(error))
            return failed(Failure::Timeout,
                          u"%1 at %2 stopped sending its answer (HTTP %3) after %4 bytes and nothing more came within %5 s"_s
                              .arg(m_service, where)
                              .arg(status)
                              .arg(received)
                              .arg(timeoutSeconds),
                          status);
        return failed(Failure::Transport,
                      u"%1 at %2 broke off its answer (HTTP %3) after %4 bytes: %5"_s.arg(m_service, where)
                          .arg(status)
                          .arg(received)
                          .arg(reply->errorString()),
                      status);
    }
    if (status == 401 || status == 403)
        return failed(Failure::Refused,
                      u"%1 at %2 refused the request (HTTP %3): check the token or user/password in the profile"_s
                          .arg(m_service, where)
                          .arg(status),
                      status);
    r.httpStatus = status;
    r.body = reply->readAll();
    return r;
}

} // namespace strata
