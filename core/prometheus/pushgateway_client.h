#pragma once

#include "http_api_client.h"
#include "model/error_kind.h"

#include <QFuture>
#include <QObject>

namespace strata {

struct ClusterProfile;

// Asynchronous client of the Pushgateway (prometheus/pushgateway): replaces one group of series
// (PUT /metrics/job/...; the whole group, so a series left out is gone) or deletes one. What the
// repair loop publishes its records with (HealthExposition builds the paths and bodies). Over
// HttpApiClient like PrometheusClient and AlertmanagerClient (the profile's Prometheus
// credentials and CA file, HttpReplyGuard's limits, no redirect to another origin); lives on the
// thread that creates it, needs its event loop, never blocks. Every future gets exactly one
// result; failures are values.
class PushgatewayClient : public QObject
{
    Q_OBJECT
public:
    struct Config : HttpApiClient::Config
    {
        // The profile's pushgatewayUrl with its Prometheus credentials and CA file.
        static Config fromProfile(const ClusterProfile &profile);
    };
    struct Result
    {
        ErrorKind errorKind = ErrorKind::None;
        QString error; // a sentence naming the Pushgateway and the group
        bool ok() const { return errorKind == ErrorKind::None; }
    };

    explicit PushgatewayClient(Config config, QObject *parent = nullptr);

    // groupPath: "/metrics/job/NAME[/LABEL[@base64]/VALUE...]"; text: the exposition format.
    QFuture<Result> replaceGroup(const QString &groupPath, const QByteArray &text);
    QFuture<Result> deleteGroup(const QString &groupPath);

    QString configError() const { return m_http->configError(); }
    QString displayUrl() const { return m_http->displayUrl(); }

private:
    QFuture<Result> send(bool put, const QString &groupPath, const QByteArray &text);
    HttpApiClient *m_http; // a child: destroyed with this client, it aborts what is in flight
};

} // namespace strata
