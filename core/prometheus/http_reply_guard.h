#pragma once

#include <QByteArray>
#include <QObject>
#include <QStringView>
#include <QTimer>
#include <QUrl>

class QNetworkReply;
class QNetworkRequest;

namespace strata {

// The limits every request of HttpApiClient (for PrometheusClient and AlertmanagerClient) keeps, whatever the
// server does (issue 23): one deadline for the whole request, however slowly the bytes come
// (QNetworkRequest::setTransferTimeout only fires while nothing arrives); a size cap checked
// on Content-Length before the body and on the bytes held as they arrive (decompressed, as
// Qt delivers them), not after the whole answer is in memory; and redirects followed only
// within the origin the credentials were configured for (HttpOrigin::same): a redirect to
// another scheme, host or port ends the request, so neither the token nor the password ever
// reaches another origin, and https never falls back to http.
//
// A child of the reply it guards (created right after get/post), so it lives on the client's
// thread and goes with the reply. When it stops a reply it aborts it: the client's finished()
// handler then asks stop() before anything else and reports describe().
class HttpReplyGuard : public QObject
{
    Q_OBJECT
public:
    enum class Stop { None, Deadline, TooLarge, Redirect };
    struct Limits
    {
        int deadlineMs = 20000;
        qint64 maxBytes = 0;
    };

    // Sets the redirect policy the guard needs and the credentials: "Authorization: Bearer
    // token" when a token is set, else basic auth when a user is.
    static void prepare(QNetworkRequest &request, const QString &bearerToken, const QString &user,
                        const QString &password);
    // Empty, or why these credentials cannot go into a header: a token holding a control
    // character or a space (CR/LF would add header lines of the token writer's choosing; RFC
    // 6750's token has neither). The request is then never sent. `service`: "Prometheus".
    static QString credentialsProblem(QStringView service, const QString &bearerToken);
    // "token", "user and password" or empty, for HttpOrigin::clearTextCredentialsWarning.
    static QString credentialsName(const QString &bearerToken, const QString &user);

    HttpReplyGuard(QNetworkReply *reply, Limits limits);
    // The guard of a reply, or nullptr.
    static const HttpReplyGuard *of(const QNetworkReply *reply);

    Stop stop() const { return m_stop; }
    // One sentence for a reply this guard stopped, "<service> at <where> ...": empty when
    // stop() is None.
    QString describe(QStringView service, const QString &where) const;

private:
    void onMetaDataChanged();
    void onReadyRead();
    void onRedirected(const QUrl &target);
    void stopWith(Stop stop);

    QNetworkReply *m_reply;
    Limits m_limits;
    QUrl m_origin;
    QTimer m_deadline;
    Stop m_stop = Stop::None;
    int m_status = 0;
    qint64 m_announcedBytes = -1; // Content-Length, when it alone decided
    qint64 m_receivedBytes = 0;
    QUrl m_redirectTarget;
};

} // namespace strata
