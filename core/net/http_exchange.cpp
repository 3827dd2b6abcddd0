#include "http_exchange.h"

#include <algorithm>

namespace strata {

using namespace Qt::StringLiterals;

HttpExchange::HttpExchange(const std::optional<TlsClientConfig> &tls, Request request,
                           std::function<void(const QByteArray &)> onBody)
    : m_tls(tls ? std::make_unique<TlsClient>(*tls) : nullptr), m_request(std::move(request)), m_onBody(std::move(onBody))
{
    m_refusal = requestProblem(m_request);
    m_clock.start();
}

namespace {

// A control character (CR, LF, NUL...) anywhere; HTAB allowed where a field value has it.
bool hasControl(const QByteArray &bytes, bool tabAllowed)
{
    return std::any_of(bytes.begin(), bytes.end(),
                       [tabAllowed](char c) { return (uchar(c) < 0x20 && !(tabAllowed && c == '\t')) || uchar(c) == 0x7f; });
}

} // namespace

QString HttpExchange::requestProblem(const Request &request)
{
    if (request.method.isEmpty() || hasControl(request.method, false) || request.method.contains(' '))
        return u"the request's method is not a token"_s;
    if (request.target.isEmpty() || hasControl(request.target, false) || request.target.contains(' '))
        return u"the request's target %1 holds a space or a control character"_s.arg(
            QString::fromLatin1(request.target.left(200).toPercentEncoding("/?&=:;,")));
    if (request.host.isEmpty() || hasControl(request.host, false) || request.host.contains(' '))
        return u"the request's Host %1 holds a space or a control character"_s.arg(
            QString::fromLatin1(request.host.left(200).toPercentEncoding("[]:.")));
    for (const auto &[name, value] : request.headers) {
        if (name.isEmpty() || hasControl(name, false) || name.contains(' ') || name.contains(':'))
            return u"a header field name of the request is not a token"_s;
        if (hasControl(value, true))
            return u"the request's %1 header value holds a control character (CR, LF or another below 0x20), "
                   "which would end the field and add others"_s.arg(QString::fromLatin1(name));
    }
    return {};
}

QByteArray HttpExchange::takeOutgoing()
{
    if (!m_refusal.isEmpty())
        return {};
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
    if (body.isEmpty() || !m_error.isEmpty())
        return;
    const bool success = m_reader.statusCode() >= 200 && m_reader.statusCode() < 300;
    if (success && m_onBody) {
        m_onBody(body);
        return;
    }
    // Counted as it streams in: the answer is refused before it is all in memory.
    const qsizetype limit = success ? m_request.maxBodyBytes : kMaxFailureBodyBytes;
    if (success && m_body.size() + body.size() > limit) {
        m_error = u"the server's answer is larger than %1 MiB; Strata stopped reading it"_s.arg(limit / (1024 * 1024));
        m_body.clear();
        return;
    }
    // A failure's body is only read for its message: the rest is dropped.
    m_body.append(body.left(qMax<qsizetype>(0, limit - m_body.size())));
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
    // Over TLS, only close_notify says the server ended its answer; a TCP close without it
    // before the framing said "complete" may be an attacker cutting the answer short.
    if (m_tls && !m_reader.isComplete() && !m_reader.hasError())
        m_tls->transportClosed();
    m_reader.endOfInput();
    deliverBody();
}

bool HttpExchange::isFinished() const
{
    return !m_refusal.isEmpty() || !m_error.isEmpty() || (m_tls && m_tls->failed()) || m_reader.isComplete()
        || m_reader.hasError() || m_closed || (m_request.timeoutMs > 0 && m_clock.elapsed() > m_request.timeoutMs);
}

CommandResult HttpExchange::result() const
{
    CommandResult carried;
    carried.exitStatus = 0;
    carried.durationMs = m_clock.elapsed();
    return carried;
}

HttpResult HttpExchange::httpResult() const
{
    HttpResult out;
    out.requestSent = m_requestSent;
    out.statusCode = m_reader.statusCode();
    out.reasonPhrase = m_reader.reasonPhrase();
    if (!m_refusal.isEmpty()) {
        out.error = HttpErrorKind::NotSent;
        out.message = u"the request was not sent: "_s + m_refusal;
    } else if (!m_error.isEmpty()) {
        out.error = HttpErrorKind::TooLarge;
        out.message = m_error;
    } else if (m_tls && m_tls->failed()) {
        out.error = HttpErrorKind::Tls;
        out.message = m_tls->error();
    } else if (m_reader.hasError()) {
        out.error = HttpErrorKind::Malformed;
        out.message = m_reader.error();
    } else if (!m_reader.isComplete() && !m_closed) {
        out.error = HttpErrorKind::Timeout;
        out.message = u"the server did not answer within %1 s"_s.arg(m_request.timeoutMs / 1000);
    } else {
        out.body = m_body;
        const int status = m_reader.statusCode();
        if (status < 200 || status >= 300) {
            out.error = status == 401 ? HttpErrorKind::Unauthorized : HttpErrorKind::Status;
            out.message = u"HTTP %1 %2"_s.arg(status).arg(QString::fromLatin1(m_reader.reasonPhrase()));
        }
    }
    out.durationMs = m_clock.elapsed();
    return out;
}

} // namespace strata
