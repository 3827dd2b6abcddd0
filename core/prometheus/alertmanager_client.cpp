#include "alertmanager_client.h"

#include "http_origin.h"
#include "http_reply_guard.h"
#include "model/display_url.h"
#include "profile/cluster_profile.h"

#include <QBuffer>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPromise>
#include <QRegularExpression>

#if QT_CONFIG(ssl)
#include <QSslCertificate>
#include <QSslConfiguration>
#endif

#include <memory>

namespace strata {

using namespace Qt::StringLiterals;
using namespace AlertmanagerParser;

namespace {

constexpr char kAbortedProperty[] = "strataAborted";

template <typename T>
QFuture<T> ready(T value)
{
    QPromise<T> promise;
    promise.start();
    promise.addResult(std::move(value));
    promise.finish();
    return promise.future();
}

template <typename Result>
Result transportFailure(const AlertmanagerClient::Reply &reply)
{
    Result r;
    r.error = reply.error;
    r.errorKind = reply.errorKind;
    return r;
}

} // namespace

AlertmanagerClient::Config AlertmanagerClient::Config::fromProfile(const ClusterProfile &profile)
{
    Config c;
    c.baseUrl = QUrl(profile.alertmanagerUrl);
    c.bearerToken = profile.prometheusToken;
    c.user = profile.prometheusUser;
    c.password = profile.prometheusPassword;
    c.caFile = profile.prometheusCaFile;
    c.timeoutMs = qMin(c.timeoutMs, qMax(1, profile.commandTimeoutSeconds) * 1000);
    return c;
}

AlertmanagerClient::AlertmanagerClient(Config config, QObject *parent)
    : QObject(parent), m_config(std::move(config))
{
    const QUrl &url = m_config.baseUrl;
    if (!url.isValid() || url.host().isEmpty() || (url.scheme() != "http"_L1 && url.scheme() != "https"_L1))
        m_configError = u"Alertmanager URL \"%1\" is not an http(s) URL with a host"_s.arg(
            DisplayUrl::withoutPassword(url.toString()));
    if (!m_config.caFile.isEmpty()) {
#if QT_CONFIG(ssl)
        if (QSslCertificate::fromPath(m_config.caFile).isEmpty())
            m_configError = u"cannot read a PEM certificate from the CA file %1"_s.arg(m_config.caFile);
#else
        m_configError = u"this build has no TLS support, so the CA file %1 cannot be used"_s.arg(m_config.caFile);
#endif
    }
    if (const QString problem = HttpReplyGuard::credentialsProblem(u"Alertmanager", m_config.bearerToken);
        !problem.isEmpty())
        m_configError = problem;
    m_credentialsWarning = HttpOrigin::clearTextCredentialsWarning(
        u"Alertmanager", url, HttpReplyGuard::credentialsName(m_config.bearerToken, m_config.user));
}

AlertmanagerClient::~AlertmanagerClient()
{
    const QSet<QNetworkReply *> replies = m_replies;
    for (QNetworkReply *reply : replies) {
        reply->setProperty(kAbortedProperty, true);
        reply->abort();
    }
}

QString AlertmanagerClient::displayUrl() const
{
    return HttpOrigin::display(m_config.baseUrl);
}

QFuture<AlertsResult> AlertmanagerClient::alerts()
{
    return send("GET", u"/api/v2/alerts"_s, {}).then([](const Reply &reply) {
        return reply.errorKind != ErrorKind::None ? transportFailure<AlertsResult>(reply)
                                                  : parseAlerts(reply.body, reply.httpStatus);
    });
}

QFuture<SilencesResult> AlertmanagerClient::silences()
{
    return send("GET", u"/api/v2/silences"_s, {}).then([](const Reply &reply) {
        return reply.errorKind != ErrorKind::None ? transportFailure<SilencesResult>(reply)
                                                  : parseSilences(reply.body, reply.httpStatus);
    });
}

QFuture<SilenceIdResult> AlertmanagerClient::createSilence(const SilenceRequest &request)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (const QString invalid = request.validate(now); !invalid.isEmpty()) {
        SilenceIdResult r;
        r.error = invalid;
        r.errorKind = ErrorKind::InvalidRequest;
        return ready(r);
    }
    return send("POST", u"/api/v2/silences"_s, request.toJson(now)).then([](const Reply &reply) {
        return reply.errorKind != ErrorKind::None ? transportFailure<SilenceIdResult>(reply)
                                                  : parseSilenceCreated(reply.body, reply.httpStatus);
    });
}

QFuture<SilenceIdResult> AlertmanagerClient::expireSilence(const QString &id)
{
    static const QRegularExpression uuid(u"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\z"_s);
    if (!uuid.match(id).hasMatch()) {
        SilenceIdResult r;
        r.error = u"\"%1\" is not a silence id (a UUID, as `strata silence list` shows)"_s.arg(id);
        r.errorKind = ErrorKind::InvalidRequest;
        return ready(r);
    }
    return send("DELETE", u"/api/v2/silence/"_s + id, {}).then([id](const Reply &reply) {
        SilenceIdResult r;
        if (reply.errorKind != ErrorKind::None)
            return transportFailure<SilenceIdResult>(reply);
        r.error = describeError(reply.body, reply.httpStatus);
        r.errorKind = r.error.isEmpty() ? ErrorKind::None : ErrorKind::CommandFailed;
        if (r.error.isEmpty())
            r.id = id;
        return r;
    });
}

QFuture<AlertmanagerClient::Reply> AlertmanagerClient::send(const QByteArray &verb, const QString &path,
                                                            const QByteArray &body)
{
    if (!m_configError.isEmpty()) {
        Reply r;
        r.error = m_configError;
        r.errorKind = ErrorKind::InvalidRequest;
        return ready(r);
    }
    QUrl url = m_config.baseUrl;
    QString basePath = url.path();
    while (basePath.endsWith(u'/'))
        basePath.chop(1);
    url.setPath(basePath + path);

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
    QNetworkReply *reply = nullptr;
    if (verb == "POST") {
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        reply = m_network.post(request, body);
    } else if (verb == "DELETE") {
        reply = m_network.deleteResource(request);
    } else {
        reply = m_network.get(request);
    }
    new HttpReplyGuard(reply, {m_config.timeoutMs, m_config.maxResponseBytes});
    m_replies.insert(reply);

    auto promise = std::make_shared<QPromise<Reply>>();
    promise->start();
    QFuture<Reply> future = promise->future();
    const QString where = displayUrl();
    const int timeoutMs = m_config.timeoutMs;
    connect(reply, &QNetworkReply::finished, this, [this, reply, promise, where, timeoutMs] {
        m_replies.remove(reply);
        reply->deleteLater();
        Reply r;
        r.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QNetworkReply::NetworkError error = reply->error();
        const HttpReplyGuard *guard = HttpReplyGuard::of(reply);
        const HttpReplyGuard::Stop stop = guard ? guard->stop() : HttpReplyGuard::Stop::None;
        if (stop != HttpReplyGuard::Stop::None && !reply->property(kAbortedProperty).toBool()) {
            r.error = guard->describe(u"Alertmanager", where);
            r.errorKind = stop == HttpReplyGuard::Stop::Deadline   ? ErrorKind::Timeout
                          : stop == HttpReplyGuard::Stop::TooLarge ? ErrorKind::ParseFailed
                                                                   : ErrorKind::SourceUnsupported;
        } else if (r.httpStatus == 0 || (error > QNetworkReply::NoError && error < 100)) {
            // Network-layer errors are 1-99 in QNetworkReply's enum; HTTP error statuses are answers.
            if (reply->property(kAbortedProperty).toBool()) {
                r.error = u"request to Alertmanager at %1 canceled: the client was closed"_s.arg(where);
                r.errorKind = ErrorKind::Cancelled;
            } else if (error == QNetworkReply::OperationCanceledError || error == QNetworkReply::TimeoutError) {
                r.error = u"Alertmanager at %1 did not answer within %2 s"_s.arg(where).arg(timeoutMs / 1000.0);
                r.errorKind = ErrorKind::Timeout;
            } else {
                r.error = u"Alertmanager at %1 not reachable: %2"_s.arg(where, reply->errorString());
                r.errorKind = ErrorKind::ConnectFailed;
            }
        } else if (r.httpStatus == 401 || r.httpStatus == 403) {
            r.error = u"Alertmanager at %1 refused the request (HTTP %2): check the token or user/password in the profile"_s
                          .arg(where).arg(r.httpStatus);
            r.errorKind = ErrorKind::AuthenticationFailed;
        } else {
            r.body = reply->readAll();
        }
        promise->addResult(std::move(r));
        promise->finish();
    });
    return future;
}

} // namespace strata
