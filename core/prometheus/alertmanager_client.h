#pragma once

#include "alertmanager_parser.h"
#include "http_api_client.h"
#include "silence_request.h"

#include <QFuture>
#include <QObject>

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
// (SourceUnsupported). The HTTP conversation itself is HttpApiClient's, as for PrometheusClient.
class AlertmanagerClient : public QObject
{
    Q_OBJECT
public:
    // baseUrl: "http://127.0.0.1:19093" or "https://host/alertmanager".
    struct Config : HttpApiClient::Config
    {
        // The profile's alertmanagerUrl, with its Prometheus credentials and CA file: often the
        // same proxy stands in front of both (HttpApiClient::Config::fromProfile).
        static Config fromProfile(const ClusterProfile &profile);
    };

    explicit AlertmanagerClient(Config config, QObject *parent = nullptr);

    // Every alert Alertmanager holds, silenced and inhibited ones included.
    QFuture<AlertmanagerParser::AlertsResult> alerts();
    QFuture<AlertmanagerParser::SilencesResult> silences();
    // Validated first (SilenceRequest::validate); the id of the new silence.
    QFuture<AlertmanagerParser::SilenceIdResult> createSilence(const SilenceRequest &request);
    // Expires the silence now; the result's id is the one expired.
    QFuture<AlertmanagerParser::SilenceIdResult> expireSilence(const QString &id);

    QString configError() const { return m_http->configError(); }
    QString displayUrl() const { return m_http->displayUrl(); }
    // As PrometheusClient::credentialsWarning: set when the credentials would go in clear.
    QString credentialsWarning() const { return m_http->credentialsWarning(); }

    // The transport's answer before any parse: HTTP status and body, or why there is none.
    struct Reply
    {
        int httpStatus = 0;
        QByteArray body;
        QString error; // transport failure only
        ErrorKind errorKind = ErrorKind::None;
    };

private:
    enum class Verb { Get, Post, Delete };
    QFuture<Reply> send(Verb verb, const QString &path, const QByteArray &body);

    HttpApiClient *m_http; // a child: destroyed with this client, it aborts what is in flight
};

} // namespace strata
