#include "http_reply_guard.h"

#include "http_origin.h"

#include <QNetworkReply>
#include <QNetworkRequest>

namespace strata {

namespace {

// Enough for a proxy's path rewrite or a trailing slash, far from a loop.
constexpr int kMaxRedirects = 5;

QString mebibytes(qint64 bytes)
{
    return QString::number(double(bytes) / (1024 * 1024), 'g', 4);
}

} // namespace

void HttpReplyGuard::prepare(QNetworkRequest &request, const QString &bearerToken, const QString &user,
                             const QString &password)
{
    // Qt's own policies follow a redirect to any host with every header, Authorization included;
    // this one leaves each redirect to onRedirected.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::UserVerifiedRedirectPolicy);
    request.setMaximumRedirectsAllowed(kMaxRedirects);
    if (!bearerToken.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + bearerToken.toUtf8());
    else if (!user.isEmpty())
        request.setRawHeader("Authorization", "Basic " + (user + QLatin1Char(':') + password).toUtf8().toBase64());
}

QString HttpReplyGuard::credentialsProblem(QStringView service, const QString &bearerToken)
{
    for (qsizetype i = 0; i < bearerToken.size(); ++i) {
        const char16_t c = bearerToken.at(i).unicode();
        if (c <= 0x20 || c == 0x7f)
            return QStringLiteral("the %1 token holds a control character or a space (character %2, code %3): "
                                  "not sent, since it would change the request's headers; copy the token again")
                .arg(service)
                .arg(i + 1)
                .arg(int(c));
    }
    return {};
}

QString HttpReplyGuard::credentialsName(const QString &bearerToken, const QString &user)
{
    if (!bearerToken.isEmpty())
        return QStringLiteral("token");
    if (!user.isEmpty())
        return QStringLiteral("user and password");
    return {};
}

HttpReplyGuard::HttpReplyGuard(QNetworkReply *reply, Limits limits)
    : QObject(reply), m_reply(reply), m_limits(limits), m_origin(reply->url())
{
    m_deadline.setSingleShot(true);
    m_deadline.setTimerType(Qt::PreciseTimer); // a coarse timer may fire 5% early
    connect(&m_deadline, &QTimer::timeout, this, [this] { stopWith(Stop::Deadline); });
    m_deadline.start(m_limits.deadlineMs);
    connect(reply, &QNetworkReply::metaDataChanged, this, &HttpReplyGuard::onMetaDataChanged);
    connect(reply, &QNetworkReply::readyRead, this, &HttpReplyGuard::onReadyRead);
    connect(reply, &QNetworkReply::redirected, this, &HttpReplyGuard::onRedirected);
    connect(reply, &QNetworkReply::finished, this, [this] { m_deadline.stop(); });
}

const HttpReplyGuard *HttpReplyGuard::of(const QNetworkReply *reply)
{
    return reply ? reply->findChild<HttpReplyGuard *>(QString(), Qt::FindDirectChildrenOnly) : nullptr;
}

void HttpReplyGuard::onMetaDataChanged()
{
    m_status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (m_status >= 300 && m_status < 400)
        return; // a redirect's own body is never read
    bool known = false;
    const qint64 announced = m_reply->header(QNetworkRequest::ContentLengthHeader).toLongLong(&known);
    if (known && announced > m_limits.maxBytes) {
        m_announcedBytes = announced;
        stopWith(Stop::TooLarge);
    }
}

void HttpReplyGuard::onReadyRead()
{
    // The clients read only once the reply has finished, so what is available is all that came.
    m_receivedBytes = m_reply->bytesAvailable();
    if (m_receivedBytes > m_limits.maxBytes)
        stopWith(Stop::TooLarge);
}

void HttpReplyGuard::onRedirected(const QUrl &target)
{
    if (HttpOrigin::same(m_origin, target)) {
        Q_EMIT m_reply->redirectAllowed();
        return;
    }
    m_redirectTarget = target;
    stopWith(Stop::Redirect);
}

void HttpReplyGuard::stopWith(Stop stop)
{
    if (m_stop != Stop::None || m_reply->isFinished())
        return;
    m_stop = stop;
    m_receivedBytes = qMax(m_receivedBytes, m_reply->bytesAvailable());
    m_deadline.stop();
    m_reply->abort();
}

QString HttpReplyGuard::describe(QStringView service, const QString &where) const
{
    switch (m_stop) {
    case Stop::None:
        return {};
    case Stop::Deadline:
        if (m_status == 0)
            return QStringLiteral("%1 at %2 did not answer within %3 s").arg(service, where).arg(m_limits.deadlineMs / 1000.0);
        return QStringLiteral("%1 at %2 did not answer in full within %3 s (HTTP %4, %5 bytes came): "
                              "the limit holds for the whole request, however slowly the answer comes")
            .arg(service, where)
            .arg(m_limits.deadlineMs / 1000.0)
            .arg(m_status)
            .arg(m_receivedBytes);
    case Stop::TooLarge:
        if (m_announcedBytes >= 0)
            return QStringLiteral("%1 at %2 announced an answer of %3 bytes (HTTP %4), more than the %5 MiB Strata "
                                  "reads: not read")
                .arg(service, where)
                .arg(m_announcedBytes)
                .arg(m_status)
                .arg(mebibytes(m_limits.maxBytes));
        return QStringLiteral("%1 at %2 sent more than the %3 MiB Strata reads (HTTP %4): the answer was cut off "
                              "and not read")
            .arg(service, where, mebibytes(m_limits.maxBytes))
            .arg(m_status);
    case Stop::Redirect:
        return QStringLiteral("%1 at %2 redirected the request to %3, another origin (scheme, host or port): "
                              "not followed, so the profile's credentials were not sent there. Put the address "
                              "%1 answers on in the profile; a login page there means a proxy wants credentials "
                              "it accepts")
            .arg(service, where, HttpOrigin::display(m_redirectTarget));
    }
    return {};
}

} // namespace strata
