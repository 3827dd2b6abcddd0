#pragma once

#include "http_response_reader.h"
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
// TunnelConversation (the tunnel carries the bytes):
// GET with the given header fields and `Connection: close`. A successful (2xx) answer's body is
// kept for result().stdoutData, or handed to onBody as it arrives (a watch: one chunked answer
// that lasts minutes). Any other status is a command that "ran" and failed: exit status 1,
// stderrData "HTTP 401 Unauthorized", stdoutData the body (a Kubernetes Status in JSON, read
// by the caller). A TLS failure (an untrusted certificate) or a truncated or unreadable answer is
// the same, with the reason in stderrData: the tunnel carried it, the service failed. Only the
// time limit is a transport failure (ErrorKind::Timeout; the request may have been acted on).
class HttpExchange : public TunnelConversation
{
public:
    struct Request
    {
        QByteArray method = "GET";
        QByteArray target;    // origin-form: /api/v1/pods?limit=500
        QByteArray host;      // the Host field: host[:port] as the server is addressed
        QList<QPair<QByteArray, QByteArray>> headers; // Authorization, Accept, User-Agent
        int timeoutMs = 0;    // the whole exchange; 0: none (a watch ended by its owner)
    };

    // tls empty: plain HTTP.
    HttpExchange(const std::optional<TlsClientConfig> &tls, Request request,
                 std::function<void(const QByteArray &)> onBody = {});

    QByteArray takeOutgoing() override;
    void received(const QByteArray &data) override;
    void remoteClosed() override;
    bool isFinished() const override;
    CommandResult result() const override;

    int statusCode() const { return m_reader.statusCode(); }

private:
    void deliverBody();

    std::unique_ptr<TlsClient> m_tls; // null: plain text
    Request m_request;
    std::function<void(const QByteArray &)> m_onBody;
    HttpResponseReader m_reader;
    QByteArray m_body;       // kept body (2xx without onBody) or the failure's body
    bool m_requestSent = false;
    bool m_closed = false;
    QElapsedTimer m_clock;
};

} // namespace strata
