#pragma once

#include <QByteArray>
#include <QString>

namespace strata {

// How one HTTP exchange went, in HTTP's own terms (not a shell command's): what a caller
// decides on is `error`, never the text.
enum class HttpErrorKind {
    None,        // a 2xx answer, read whole (or streamed to the caller)
    NotSent,     // refused here before anything went on the wire (a control character in a field)
    Status,      // the server answered with a status other than 2xx (body: its words, capped)
    Unauthorized, // 401: the credential was refused (expired or revoked)
    Tls,         // the TLS session failed: an untrusted certificate, a cut without close_notify
    Malformed,   // the answer could not be read as HTTP (framing, limits on its head)
    TooLarge,    // the 2xx body passed the exchange's cap; reading stopped there
    Timeout,     // no whole answer within the exchange's time; the request may have been acted on
};

struct HttpResult
{
    HttpErrorKind error = HttpErrorKind::None;
    int statusCode = 0;        // 0 when no status line arrived
    QByteArray reasonPhrase;   // as the server wrote it ("Unauthorized")
    QByteArray body;           // a 2xx body not streamed, or a failure's body (capped)
    QString message;           // what went wrong, for a person; empty with None
    bool requestSent = false;  // the request went on the wire (a timeout may then have acted)
    qint64 durationMs = 0;

    bool ok() const { return error == HttpErrorKind::None; }
};

} // namespace strata
