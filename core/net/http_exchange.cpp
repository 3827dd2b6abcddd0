#include "http_exchange.h"

namespace strata {

using namespace Qt::StringLiterals;

HttpExchange::HttpExchange(const std::optional<TlsClientConfig> &tls, Request request,
                           std::function<void(const QByteArray &)> onBody)
    : m_tls(tls ? std::make_unique<TlsClient>(*tls) : nullptr), m_request(std::move(request)), m_onBody(std::move(onBody))
{
    m_clock.start();
}

QByteArray HttpExchange::takeOutgoing()
{
    if (!m_requestSent) {
        QByteArray head = m_request.method + ' ' + m_request.target + " HTTP/1.1\r\nHost: " + m_request.host + "\r\n";
        for (const auto &[name, value] : std::as_const(m_request.headers))
            head += name + ": " + value + "\r\n";
        head += "Connection: close\r\n\r\n";
        m_requestSent = true;
        if (!m_tls)
            return head;
        m_tls->writePlaintext(head);
    }
    if (!m_tls)
        return {};
    m_tls->advance();
    return m_tls->takeCiphertext();
}

void HttpExchange::deliverBody()
{
    QByteArray body = m_reader.takeBody();
    if (body.isEmpty())
        return;
    const bool success = m_reader.statusCode() >= 200 && m_reader.statusCode() < 300;
    if (success && m_onBody)
        m_onBody(body);
    else
        m_body.append(body);
}

void HttpExchange::received(const QByteArray &data)
{
    if (!m_tls) {
        m_reader.feed(data);
        deliverBody();
        return;
    }
    m_tls->feedCiphertext(data);
    m_tls->advance();
    const QByteArray plaintext = m_tls->takePlaintext();
    if (!plaintext.isEmpty())
        m_reader.feed(plaintext);
    if (m_tls->closedByServer())
        m_reader.endOfInput();
    deliverBody();
}

void HttpExchange::remoteClosed()
{
    m_closed = true;
    m_reader.endOfInput();
    deliverBody();
}

bool HttpExchange::isFinished() const
{
    return (m_tls && m_tls->failed()) || m_reader.isComplete() || m_reader.hasError() || m_closed
        || (m_request.timeoutMs > 0 && m_clock.elapsed() > m_request.timeoutMs);
}

CommandResult HttpExchange::result() const
{
    CommandResult out;
    if ((m_tls && m_tls->failed()) || m_reader.hasError()) {
        // The tunnel worked and the service failed: as a command that ran and failed.
        out.exitStatus = 1;
        out.stderrData = (m_tls && m_tls->failed() ? m_tls->error() : m_reader.error()).toUtf8();
    } else if (!m_reader.isComplete() && !m_closed) {
        out = CommandResult::transportFailure(ErrorKind::Timeout,
                                              u"the server did not answer within %1 s"_s.arg(m_request.timeoutMs / 1000));
        out.mayHaveRun = m_requestSent;
    } else {
        out.exitStatus = m_reader.statusCode() >= 200 && m_reader.statusCode() < 300 ? 0 : 1;
        out.stdoutData = m_body;
        if (out.exitStatus != 0)
            out.stderrData = "HTTP " + QByteArray::number(m_reader.statusCode()) + ' ' + m_reader.reasonPhrase();
    }
    out.durationMs = m_clock.elapsed();
    return out;
}

} // namespace strata
