#pragma once

#include "http_response_reader.h"
#include "http_result.h"
#include "ssh/tunnel_conversation.h"
#include "tls_client.h"

#include <QElapsedTimer>
#include <QList>
#include <QPair>

#include <functional>
#include <memory>
#include <optional>

namespace strata {

// One HTTP/1.1 request over TLS (or in plain text to a loopback `kubectl proxy`), as a
// TunnelConversation (the tunnel carries the bytes): GET with the given header fields and
// `Connection: close`. Its outcome is an HttpResult (httpResult(), read once isFinished()): a
// 2xx answer's body is kept there, or handed to onBody as it arrives (a watch: one chunked
// answer that lasts minutes); any other status is HttpErrorKind::Status (Unauthorized for 401)
// with the body capped (a Kubernetes Status in JSON, read by the caller); a TLS failure (an
// untrusted certificate, an answer over TLS that ends without close_notify before its framing
// said it was complete), an unreadable answer, a kept body over kMaxKeptBodyBytes and the time
// limit each have their kind. A request whose line or header fields hold a control character
// (a CR/LF would add header fields or a second request) is never sent (NotSent).
// As a TunnelConversation, result() says only that the tunnel carried it: the HTTP outcome is
// never dressed as a shell command's; the caller converts where its own interface needs one.
class HttpExchange : public TunnelConversation
{
public:
    // A kept body (a list page of 500 objects is a few MB; 500 large nodes some 25 MB) at most
    // this; a failure's body (read for its Status message) at most kMaxFailureBodyBytes.
    static constexpr qsizetype kMaxKeptBodyBytes = qsizetype(256) * 1024 * 1024;
    static constexpr qsizetype kMaxFailureBodyBytes = 64 * 1024;

    struct Request
    {
        QByteArray method = "GET";
        QByteArray target;    // origin-form: /api/v1/pods?limit=500
        QByteArray host;      // the Host field: host[:port] as the server is addressed
        QList<QPair<QByteArray, QByteArray>> headers; // Authorization, Accept, User-Agent
        int timeoutMs = 0;    // the whole exchange; 0: none (a watch ended by its owner)
        qsizetype maxBodyBytes = kMaxKeptBodyBytes; // of a kept 2xx body
    };

    // tls empty: plain HTTP.
    HttpExchange(const std::optional<TlsClientConfig> &tls, Request request,
                 std::function<void(const QByteArray &)> onBody = {});

    QByteArray takeOutgoing() override;
    void received(const QByteArray &data) override;
    void remoteClosed() override;
    bool isFinished() const override;
    // The tunnel's part: it carried the conversation to its end (exit status 0, no output).
    CommandResult result() const override;
    // The exchange's outcome; meaningful once isFinished().
    HttpResult httpResult() const;

    int statusCode() const { return m_reader.statusCode(); }

    // Empty when every byte of the request line and header fields may go on the wire (RFC 9110:
    // no control character but HTAB inside a value, none at all in a target or name); else
    // which part holds what, without the value (it may be a token).
    static QString requestProblem(const Request &request);

private:
    void deliverBody();

    std::unique_ptr<TlsClient> m_tls; // null: plain text
    Request m_request;
    std::function<void(const QByteArray &)> m_onBody;
    HttpResponseReader m_reader;
    QByteArray m_body;       // kept body (2xx without onBody) or the failure's body
    QString m_refusal;       // the request was not sent: requestProblem's words
    QString m_error;         // the answer failed here (too large, truncated)
    bool m_requestSent = false;
    bool m_closed = false;
    QElapsedTimer m_clock;
};

} // namespace strata
