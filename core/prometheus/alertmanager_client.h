#pragma once

#include "alertmanager_parser.h"
#include "prometheus_response_parser.h"
#include "silence_request.h"

#include <QFuture>
#include <QNetworkAccessManager>
#include <QObject>
#include <QSet>
#include <QUrl>

class QNetworkReply;

namespace strata {

struct ClusterProfile;

// Asynchronous client of Alertmanager's API v2 (/api/v2/alerts, /api/v2/silences,
// /api/v2/silence/ID) over QNetworkAccessManager. Lives on the thread that creates it and needs
// its event loop; no call blocks. Owned by MetricsSource (the window, `strata alerts`) or by
// `strata silence`. Every future gets exactly one result, finished on this object's thread;
// failures are values (transport: ConnectFailed or Timeout; the server's refusal:
// CommandFailed; an unreadable answer: ParseFailed; a request refused before sending:
// InvalidRequest). Destroying the client aborts what is in flight (those finish Cancelled).
// Every request keeps HttpReplyGuard's limits: timeoutMs for the whole request (Timeout),
// maxResponseBytes read at most (ParseFailed), no redirect to another origin
// (SourceUnsupported).
class AlertmanagerClient : public QObject
{
    Q_OBJECT
public:
    struct Config
    {
        QUrl baseUrl;        // "http://127.0.0.1:19093" or "https://host/alertmanager"
        QString bearerToken; // as for Prometheus: often the same proxy in front of both
        QString user;
        QString password;
        QString caFile;
        int timeoutMs = 20000; // the whole request; fromProfile: no longer than the command timeout
        qint64 maxResponseBytes = PrometheusResponseParser::maxInputBytes;

        // The profile's alertmanagerUrl, with its Prometheus credentials and CA file.
        static Config fromProfile(const ClusterProfile &profile);
    };

    explicit AlertmanagerClient(Config config, QObject *parent = nullptr);
    ~AlertmanagerClient() override;

    // Every alert Alertmanager holds, silenced and inhibited ones included.
    QFuture<AlertmanagerParser::AlertsResult> alerts();
    QFuture<AlertmanagerParser::SilencesResult> silences();
    // Validated first (SilenceRequest::validate); the id of the new silence.
    QFuture<AlertmanagerParser::SilenceIdResult> createSilence(const SilenceRequest &request);
    // Expires the silence now; the result's id is the one expired.
    QFuture<AlertmanagerParser::SilenceIdResult> expireSilence(const QString &id);

    QString configError() const { return m_configError; }
    QString displayUrl() const;
    // As PrometheusClient::credentialsWarning: set when the credentials would go in clear.
    QString credentialsWarning() const { return m_credentialsWarning; }

    // The transport's answer before any parse: HTTP status and body, or why there is none.
    struct Reply
    {
        int httpStatus = 0;
        QByteArray body;
        QString error; // transport failure only
        ErrorKind errorKind = ErrorKind::None;
    };

private:
    QFuture<Reply> send(const QByteArray &verb, const QString &path, const QByteArray &body);

    Config m_config;
    QString m_configError;
    QString m_credentialsWarning;
    QNetworkAccessManager m_network;
    QSet<QNetworkReply *> m_replies;
};

} // namespace strata
