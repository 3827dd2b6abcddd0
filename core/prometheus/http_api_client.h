#pragma once

#include "prometheus_response_parser.h"

#include <QByteArray>
#include <QNetworkAccessManager>
#include <QObject>
#include <QSet>
#include <QString>
#include <QUrl>

#include <functional>

class QNetworkReply;
class QNetworkRequest;

namespace strata {

struct ClusterProfile;

// The HTTP conversation PrometheusClient and AlertmanagerClient share: the configuration's
// checks (an http(s) URL with a host, a readable CA file, a token that fits in a header), the
// requests' headers (Accept: application/json, the credentials, the CA file), HttpReplyGuard's
// limits on every reply, and one reading of how a reply ended (canceled, stopped by the guard,
// no answer, a broken-off answer, refused credentials, or an answer to parse). Each client
// turns a Reply into its own result type; the service's name ("Prometheus") starts every
// sentence. Owned by (a child of) the client, on its thread; needs that thread's event loop.
// Destroying it aborts what is in flight: those replies finish Canceled, at once.
class HttpApiClient : public QObject
{
    Q_OBJECT
public:
    struct Config
    {
        QUrl baseUrl;          // "http://127.0.0.1:19090" or "https://host/prometheus"
        QString bearerToken;   // sent as "Authorization: Bearer ..." when set (wins over basic)
        QString user;          // basic auth, with password
        QString password;
        QString caFile;        // PEM file of CAs to trust in addition to the system's
        int timeoutMs = 20000; // the whole request, however slowly the answer comes
        qint64 maxResponseBytes = PrometheusResponseParser::maxInputBytes;

        // `url` with the profile's Prometheus credentials and CA file (Alertmanager usually sits
        // behind the same proxy); timeoutMs no longer than the profile's command timeout: a
        // stalled server must not hold a refresh or a CLI command longer than a stalled login
        // node would.
        static Config fromProfile(const ClusterProfile &profile, const QString &url);
    };

    // How a request ended. Everything but None comes with a sentence in Reply::error.
    enum class Failure {
        None,      // an HTTP answer other than 401/403: httpStatus and body hold it
        Canceled,  // the client was destroyed first
        Timeout,   // the guard's deadline, or Qt's own timeout
        TooLarge,  // more than maxResponseBytes, announced or sent
        Redirect,  // a redirect to another origin, not followed
        Transport, // no answer (refused, unreachable, TLS) or an answer broken off mid-body
        Refused,   // HTTP 401 or 403: the credentials
    };
    struct Reply
    {
        int httpStatus = 0; // 0 when no status line came, and for Canceled
        QByteArray body;    // read only when failure is None
        Failure failure = Failure::None;
        QString error;
    };
    using Finished = std::function<void(const Reply &)>;

    // service: the name messages use, "Prometheus" or "Alertmanager".
    HttpApiClient(QString service, Config config, QObject *parent = nullptr);
    ~HttpApiClient() override;

    const Config &config() const { return m_config; }
    // Set when the configuration cannot work (bad URL, unreadable CA file, a token that would
    // change the headers); the owner then fails every request at once with it.
    QString configError() const { return m_configError; }
    // Set when the token or password would cross the network in clear
    // (HttpOrigin::clearTextCredentialsWarning); requests still go.
    QString credentialsWarning() const { return m_credentialsWarning; }
    // The base URL as messages show it (HttpOrigin::display).
    QString displayUrl() const;
    int inFlight() const { return int(m_replies.size()); }

    // The base URL with `path` ("/api/v1/query") appended to its own path.
    QUrl endpoint(const QString &path) const;

    // Each calls onFinished exactly once, on this object's thread, after the reply finished.
    void get(const QUrl &url, Finished onFinished);
    void post(const QUrl &url, const QByteArray &contentType, const QByteArray &body, Finished onFinished);
    void deleteResource(const QUrl &url, Finished onFinished);
    void put(const QUrl &url, const QByteArray &contentType, const QByteArray &body, Finished onFinished);
    // The kind a failure is reported as in the clients' results (Refused: AuthenticationFailed,
    // Redirect: SourceUnsupported, TooLarge: ParseFailed, ...).
    static ErrorKind errorKindOf(Failure failure);

private:
    QNetworkRequest request(const QUrl &url) const;
    void watch(QNetworkReply *reply, Finished onFinished);
    Reply readReply(QNetworkReply *reply) const;

    QString m_service;
    Config m_config;
    QString m_configError;
    QString m_credentialsWarning;
    QNetworkAccessManager m_network;
    QSet<QNetworkReply *> m_replies;
};

} // namespace strata
