#pragma once

#include <QString>
#include <QStringView>
#include <QUrl>

namespace strata {

// Where an HTTP request's credentials may go, for the Prometheus and Alertmanager clients
// (HttpReplyGuard). An origin is scheme, host and port, as browsers define it: the token or
// password configured for one origin is never sent to another. Pure.
namespace HttpOrigin {

// Same scheme, host (case-insensitive) and port (the scheme's default when absent). So
// https -> http on the same host is another origin: a redirect there is a downgrade.
bool same(const QUrl &a, const QUrl &b);

// 127.0.0.0/8, ::1, "localhost" and names under .localhost (RFC 6761): traffic that never
// leaves the machine (or an SSH tunnel's near end).
bool isLoopback(const QUrl &url);

// The URL as messages may show it: no user info (a password), no query (a login page's
// state), no fragment.
QString display(const QUrl &url);

// Empty unless `credentials` ("token", "user and password"; empty: none) would go in clear:
// plain http to a host that is not loopback. Then one sentence naming the service and host.
QString clearTextCredentialsWarning(QStringView service, const QUrl &url, QStringView credentials);

} // namespace HttpOrigin

} // namespace strata
