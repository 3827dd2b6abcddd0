#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace strata {

// Reads one HTTP/1.1 response as its bytes arrive, in any pieces (RFC 9112): the status line,
// the header fields, then the body framed by Transfer-Encoding: chunked, Content-Length, or the
// end of the connection. Pure: no I/O. The body is handed out decoded (chunk framing removed) as
// it comes, so a Kubernetes watch (one chunked response that never ends) streams through it.
class HttpResponseReader
{
public:
    // The header, and the trailer after a chunked body, each at most this (all lines together).
    static constexpr qsizetype kMaxHeaderBytes = 64 * 1024;
    // A chunk-size line (a hex number and extensions Strata ignores) at most this.
    static constexpr qsizetype kMaxChunkSizeLineBytes = 1024;

    void feed(const QByteArray &data);
    // The connection ended: a body read to the end of the connection is complete; anything
    // else unfinished is an error (a truncated answer).
    void endOfInput();
    // Body bytes decoded since the last call.
    QByteArray takeBody();

    bool headersComplete() const { return m_state > State::Headers; }
    bool isComplete() const { return m_state == State::Done; }
    bool hasError() const { return m_state == State::Failed; }
    QString error() const { return m_error; }
    int statusCode() const { return m_statusCode; }
    QByteArray reasonPhrase() const { return m_reason; }
    // The first field of that name (case-insensitive), trimmed; empty when absent.
    QByteArray header(const QByteArray &name) const;

private:
    enum class State { StatusLine, Headers, Body, ChunkSize, ChunkData, ChunkDataEnd, Trailers, UntilClose, Done, Failed };
    void fail(const QString &why);
    bool readLine(QByteArray *line); // a CRLF (or LF) line from m_buffer, without its end
    bool parseStatusLine(const QByteArray &line);
    bool parseHeaderLine(const QByteArray &line);
    void startBody();
    void process();

    State m_state = State::StatusLine;
    QByteArray m_buffer;
    qsizetype m_consumed = 0; // of m_buffer
    QByteArray m_body;
    QString m_error;
    int m_statusCode = 0;
    QByteArray m_reason;
    QList<QPair<QByteArray, QByteArray>> m_headers;
    qsizetype m_headerBytes = 0;
    qsizetype m_trailerBytes = 0;
    qint64 m_remaining = 0; // of the Content-Length body, or of the current chunk
};

} // namespace strata
