#include "pushgateway_client.h"

#include "profile/cluster_profile.h"

#include <QPromise>

#include <memory>

namespace strata {

PushgatewayClient::Config PushgatewayClient::Config::fromProfile(const ClusterProfile &profile)
{
    Config c;
    static_cast<HttpApiClient::Config &>(c) = HttpApiClient::Config::fromProfile(profile, profile.pushgatewayUrl);
    return c;
}

PushgatewayClient::PushgatewayClient(Config config, QObject *parent)
    : QObject(parent), m_http(new HttpApiClient(QStringLiteral("Pushgateway"), std::move(config), this))
{
}

QFuture<PushgatewayClient::Result> PushgatewayClient::replaceGroup(const QString &groupPath, const QByteArray &text)
{
    return send(true, groupPath, text);
}

QFuture<PushgatewayClient::Result> PushgatewayClient::deleteGroup(const QString &groupPath)
{
    return send(false, groupPath, {});
}

QFuture<PushgatewayClient::Result> PushgatewayClient::send(bool put, const QString &groupPath, const QByteArray &text)
{
    auto promise = std::make_shared<QPromise<Result>>();
    promise->start();
    QFuture<Result> future = promise->future();
    const auto finish = [promise](Result r) {
        promise->addResult(std::move(r));
        promise->finish();
    };
    if (!m_http->configError().isEmpty() || !groupPath.startsWith(QLatin1String("/metrics/job/"))) {
        finish({ErrorKind::InvalidRequest, m_http->configError().isEmpty()
                                                ? QStringLiteral("\"%1\" is not a Pushgateway group path").arg(groupPath)
                                                : m_http->configError()});
        return future;
    }
    const QString where = QStringLiteral("the Pushgateway at %1 (%2)").arg(m_http->displayUrl(), groupPath);
    const auto onFinished = [finish, where](const HttpApiClient::Reply &reply) {
        if (reply.failure != HttpApiClient::Failure::None)
            return finish({HttpApiClient::errorKindOf(reply.failure), reply.error});
        if (reply.httpStatus / 100 != 2) {
            // The Pushgateway says why in a line of text (e.g. a malformed exposition: 400).
            return finish({ErrorKind::CommandFailed, QStringLiteral("%1 answered HTTP %2: %3")
                                                         .arg(where)
                                                         .arg(reply.httpStatus)
                                                         .arg(QString::fromUtf8(reply.body.left(300)).trimmed())});
        }
        finish({});
    };
    const QUrl url = m_http->endpoint(groupPath);
    if (put)
        m_http->put(url, QByteArrayLiteral("text/plain; version=0.0.4"), text, onFinished);
    else
        m_http->deleteResource(url, onFinished);
    return future;
}

} // namespace strata
