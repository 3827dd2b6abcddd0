#include "http_origin.h"

#include <QHostAddress>

namespace strata::HttpOrigin {

namespace {

int portOf(const QUrl &url)
{
    const QString scheme = url.scheme().toLower();
    return url.port(scheme == QLatin1String("https") ? 443 : scheme == QLatin1String("http") ? 80 : -1);
}

} // namespace

bool same(const QUrl &a, const QUrl &b)
{
    return a.scheme().compare(b.scheme(), Qt::CaseInsensitive) == 0
        && a.host().compare(b.host(), Qt::CaseInsensitive) == 0 && portOf(a) == portOf(b);
}

bool isLoopback(const QUrl &url)
{
    const QString host = url.host().toLower();
    if (host == QLatin1String("localhost") || host.endsWith(QLatin1String(".localhost")))
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

QString display(const QUrl &url)
{
    return url.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment | QUrl::StripTrailingSlash);
}

QString clearTextCredentialsWarning(QStringView service, const QUrl &url, QStringView credentials)
{
    if (credentials.isEmpty() || url.scheme().compare(QLatin1String("http"), Qt::CaseInsensitive) != 0
        || isLoopback(url))
        return {};
    return QStringLiteral("the %1 credentials (%2) go unencrypted over plain http to %3:%4, where anyone on the "
                          "network path can read and reuse them: use an https URL (or an SSH tunnel to 127.0.0.1)")
        .arg(service, credentials, url.host())
        .arg(portOf(url));
}

} // namespace strata::HttpOrigin
