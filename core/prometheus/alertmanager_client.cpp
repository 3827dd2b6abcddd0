#include "alertmanager_client.h"

#include "profile/cluster_profile.h"

#include <QPromise>
#include <QRegularExpression>

#include <memory>

namespace strata {

using namespace Qt::StringLiterals;
using namespace AlertmanagerParser;

namespace {

template <typename T>
QFuture<T> ready(T value)
{
    QPromise<T> promise;
    promise.start();
    promise.addResult(std::move(value));
    promise.finish();
    return promise.future();
}

// A silence create or expire refused before anything is sent.
QFuture<SilenceIdResult> refusedSilenceCall(const QString &why)
{
    SilenceIdResult r;
    r.error = why;
    r.errorKind = ErrorKind::InvalidRequest;
    return ready(r);
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
    static_cast<HttpApiClient::Config &>(c) = HttpApiClient::Config::fromProfile(profile, profile.alertmanagerUrl);
    return c;
}

AlertmanagerClient::AlertmanagerClient(Config config, QObject *parent)
    : QObject(parent), m_http(new HttpApiClient(u"Alertmanager"_s, std::move(config), this))
{
}

QFuture<AlertsResult> AlertmanagerClient::alerts()
{
    return send(Verb::Get, u"/api/v2/alerts"_s, {}).then([](const Reply &reply) {
        return reply.errorKind != ErrorKind::None ? transportFailure<AlertsResult>(reply)
                                                  : parseAlerts(reply.body, reply.httpStatus);
    });
}

QFuture<SilencesResult> AlertmanagerClient::silences()
{
    return send(Verb::Get, u"/api/v2/silences"_s, {}).then([](const Reply &reply) {
        return reply.errorKind != ErrorKind::None ? transportFailure<SilencesResult>(reply)
                                                  : parseSilences(reply.body, reply.httpStatus);
    });
}

QFuture<SilenceIdResult> AlertmanagerClient::createSilence(const SilenceRequest &request)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (const QString invalid = request.validate(now); !invalid.isEmpty())
        return refusedSilenceCall(invalid);
    return send(Verb::Post, u"/api/v2/silences"_s, request.toJson(now)).then([](const Reply &reply) {
        return reply.errorKind != ErrorKind::None ? transportFailure<SilenceIdResult>(reply)
                                                  : parseSilenceCreated(reply.body, reply.httpStatus);
    });
}

QFuture<SilenceIdResult> AlertmanagerClient::expireSilence(const QString &id)
{
    static const QRegularExpression uuid(u"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\z"_s);
    if (!uuid.match(id).hasMatch())
        return refusedSilenceCall(u"\"%1\" is not a silence id (a UUID, as `strata silence list` shows)"_s.arg(id));
    return send(Verb::Delete, u"/api/v2/silence/"_s + id, {}).then([id](const Reply &reply) {
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

QFuture<AlertmanagerClient::Reply> AlertmanagerClient::send(Verb verb, const QString &path, const QByteArray &body)
{
    if (!m_http->configError().isEmpty()) {
        Reply r;
        r.error = m_http->configError();
        r.errorKind = ErrorKind::InvalidRequest;
        return ready(r);
    }
    auto promise = std::make_shared<QPromise<Reply>>();
    promise->start();
    QFuture<Reply> future = promise->future();
    const auto onFinished = [promise](const HttpApiClient::Reply &reply) {
        Reply r;
        r.httpStatus = reply.httpStatus;
        r.body = reply.body;
        r.error = reply.error;
        r.errorKind = HttpApiClient::errorKindOf(reply.failure);
        promise->addResult(std::move(r));
        promise->finish();
    };
    const QUrl url = m_http->endpoint(path);
    switch (verb) {
    case Verb::Post:
        m_http->post(url, QByteArrayLiteral("application/json"), body, onFinished);
        break;
    case Verb::Delete:
        m_http->deleteResource(url, onFinished);
        break;
    case Verb::Get:
        m_http->get(url, onFinished);
        break;
    }
    return future;
}

} // namespace strata
