#include "http_response_reader.h"

#include <algorithm>
#include <cctype>

namespace strata {

using namespace Qt::StringLiterals;

void HttpResponseReader::fail(const QString &why)
{
    m_state = State::Failed;
    m_error = why;
    m_buffer.clear();
    m_consumed = 0;
}

QByteArray HttpResponseReader::header(const QByteArray &name) const
{
    for (const auto &[field, value] : m_headers)
        if (field.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    return {};
}

bool HttpResponseReader::readLine(QByteArray *line)
{
    const qsizetype newline = m_buffer.indexOf('\n', m_consumed);
    if (newline < 0)
        return false;
    qsizetype end = newline;
    if (end > m_consumed && m_buffer.at(end - 1) == '\r')
        --end;
    *line = m_buffer.mid(m_consumed, end - m_consumed);
    m_consumed = newline + 1;
    return true;
}

bool HttpResponseReader::parseStatusLine(const QByteArray &line)
{
    // HTTP/1.1 200 OK
    if (!line.startsWith("HTTP/1.")) {
        fail(u"the server did not answer with HTTP/1.x (%1)"_s.arg(QString::fromLatin1(line.left(40).toPercentEncoding(" /.:"))));
        return false;
    }
    const QList<QByteArray> parts = line.split(' ');
    bool ok = false;
    const int code = parts.size() >= 2 && parts.at(1).size() == 3 ? parts.at(1).toInt(&ok) : 0;
    if (!ok || code < 100) {
        fail(u"the server's status line has no status code"_s);
        return false;
    }
    m_statusCode = code;
    m_reason = line.mid(line.indexOf(' ', line.indexOf(' ') + 1) + 1);
    if (parts.size() < 3)
        m_reason.clear();
    return true;
}

bool HttpResponseReader::parseHeaderLine(const QByteArray &line)
{
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0 || line.at(0) == ' ' || line.at(0) == '\t') {
        fail(u"the server sent a header line that is not a field"_s);
        return false;
    }
    m_headers.append({line.left(colon).trimmed(), line.mid(colon + 1).trimmed()});
    return true;
}

void HttpResponseReader::startBody()
{
    // Interim answers (100 Continue) are not final: the status line comes again.
    if (m_statusCode >= 100 && m_statusCode < 200) {
        m_headers.clear();
        m_state = State::StatusLine;
        return;
    }
    if (m_statusCode == 204 || m_statusCode == 304) {
        m_state = State::Done;
        return;
    }
    const QByteArray encoding = header("Transfer-Encoding").toLower();
    if (!encoding.isEmpty()) {
        if (!encoding.endsWith("chunked")) {
            fail(u"the server sent a body in a transfer coding Strata does not read (%1)"_s.arg(QString::fromLatin1(encoding)));
            return;
        }
        m_state = State::ChunkSize;
        return;
    }
    const QByteArray length = header("Content-Length");
    if (!length.isEmpty()) {
        bool ok = false;
        m_remaining = length.toLongLong(&ok);
        if (!ok || m_remaining < 0) {
            fail(u"the server sent an invalid Content-Length"_s);
            return;
        }
        m_state = m_remaining == 0 ? State::Done : State::Body;
        return;
    }
    m_state = State::UntilClose;
}

void HttpResponseReader::feed(const QByteArray &data)
{
    if (m_state == State::Failed || m_state == State::Done)
        return;
    m_buffer.append(data);
    process();
    // Keep only what is not read yet.
    if (m_consumed > 0) {
        m_buffer.remove(0, m_consumed);
        m_consumed = 0;
    }
}

void HttpResponseReader::process()
{
    QByteArray line;
    for (;;) {
        switch (m_state) {
        case State::StatusLine:
        case State::Headers: {
            const qsizetype before = m_consumed;
            if (!readLine(&line)) {
                if (m_headerBytes + (m_buffer.size() - m_consumed) > kMaxHeaderBytes)
                    fail(u"the server's header is larger than %1 KiB"_s.arg(kMaxHeaderBytes / 1024));
                return;
            }
            m_headerBytes += m_consumed - before;
            if (m_headerBytes > kMaxHeaderBytes) {
                fail(u"the server's header is larger than %1 KiB"_s.arg(kMaxHeaderBytes / 1024));
                return;
            }
            if (m_state == State::StatusLine) {
                if (!parseStatusLine(line))
                    return;
                m_state = State::Headers;
            } else if (line.isEmpty()) {
                startBody();
            } else if (!parseHeaderLine(line)) {
                return;
            }
            break;
        }
        case State::Body:
        case State::ChunkData: {
            const qint64 available = m_buffer.size() - m_consumed;
            if (available == 0)
                return;
            const qint64 take = qMin(available, m_remaining);
            m_body.append(m_buffer.constData() + m_consumed, take);
            m_consumed += take;
            m_remaining -= take;
            if (m_remaining == 0)
                m_state = m_state == State::Body ? State::Done : State::ChunkDataEnd;
            break;
        }
        case State::ChunkSize: {
            // Every line state is bounded: a server that never ends a line must not grow the
            // buffer without end (a watch runs for minutes).
            const bool complete = readLine(&line);
            if ((complete ? line.size() : m_buffer.size() - m_consumed) > kMaxChunkSizeLineBytes) {
                fail(u"the server sent a chunk size line longer than %1 KiB"_s.arg(kMaxChunkSizeLineBytes / 1024));
                return;
            }
            if (!complete)
                return;
            const qsizetype extension = line.indexOf(';'); // chunk extensions are ignored
            const QByteArray size = (extension < 0 ? line : line.left(extension)).trimmed();
            bool ok = false;
            m_remaining = size.toLongLong(&ok, 16);
            // toLongLong would take "0x10" and "+10"; the grammar (RFC 9112 7.1) is HEXDIG only.
            const bool hexDigitsOnly = std::all_of(size.begin(), size.end(), [](char c) { return std::isxdigit(uchar(c)); });
            if (!ok || m_remaining < 0 || size.isEmpty() || !hexDigitsOnly) {
                fail(u"the server sent an invalid chunk size"_s);
                return;
            }
            m_state = m_remaining == 0 ? State::Trailers : State::ChunkData;
            break;
        }
        case State::ChunkDataEnd: {
            // Only CRLF (or LF) may follow a chunk's data: any other byte is an error at once,
            // not after a line that may never end.
            const qsizetype waiting = m_buffer.size() - m_consumed;
            const bool onlyCr = waiting == 1 && m_buffer.at(m_consumed) == '\r';
            if (!readLine(&line)) {
                if (waiting > 0 && !onlyCr)
                    fail(u"the server's chunk is longer than its size says"_s);
                return;
            }
            if (!line.isEmpty()) {
                fail(u"the server's chunk is longer than its size says"_s);
                return;
            }
            m_state = State::ChunkSize;
            break;
        }
        case State::Trailers: {
            const qsizetype before = m_consumed;
            const bool complete = readLine(&line);
            if (m_trailerBytes + (complete ? m_consumed - before : m_buffer.size() - m_consumed) > kMaxHeaderBytes) {
                fail(u"the server's trailer is larger than %1 KiB"_s.arg(kMaxHeaderBytes / 1024));
                return;
            }
            if (!complete)
                return;
            m_trailerBytes += m_consumed - before;
            if (line.isEmpty())
                m_state = State::Done;
            break;
        }
        case State::UntilClose:
            m_body.append(m_buffer.constData() + m_consumed, m_buffer.size() - m_consumed);
            m_consumed = m_buffer.size();
            return;
        case State::Done:
        case State::Failed:
            return;
        }
    }
}

void HttpResponseReader::endOfInput()
{
    switch (m_state) {
    case State::UntilClose:
        m_state = State::Done;
        break;
    case State::Done:
    case State::Failed:
        break;
    case State::StatusLine:
        fail(m_headerBytes == 0 && m_buffer.isEmpty() ? u"the server closed the connection without answering"_s
                                                       : u"the server closed the connection in its status line"_s);
        break;
    default:
        fail(u"the server closed the connection before its answer was complete"_s);
        break;
    }
}

QByteArray HttpResponseReader::takeBody()
{
    return std::exchange(m_body, {});
}

} // namespace strata
