#pragma once

#include "burnin_event.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QVector>

namespace strata {

// Parses the agent's JSON lines as they stream in: feed() any chunk of bytes and get the events
// of the lines it completed; a partial line waits for the rest. A malformed line becomes a
// BurninParseError with its line number, and parsing goes on, except after a line of another
// protocol version or encoding (UTF-16): that one error ends the stream, so an agent of another
// version is one clear error, not one per line. Pure: no I/O, no QObject. One instance per
// stream (per node); not thread-safe.
class BurninProtocolParser
{
public:
    static constexpr int supportedVersion = 1;
    // A line longer than this is dropped as an error rather than buffered without end.
    static constexpr qsizetype maxLineBytes = 4 * 1024 * 1024;

    QVector<BurninEvent> feed(QByteArrayView bytes);
    // The stream ended: a last line without a newline is parsed too.
    QVector<BurninEvent> finish();

    qint64 lineCount() const { return m_line; }

    // One line (without its newline). Empty and blank lines are the caller's to skip.
    static BurninEvent parseLine(QByteArrayView line, qint64 lineNumber);

    // A whole captured output at once.
    static QVector<BurninEvent> parseAll(QByteArrayView bytes);

private:
    void takeLine(QByteArrayView line, QVector<BurninEvent> &events);

    QByteArray m_pending;
    qint64 m_line = 0;
    bool m_discarding = false; // inside an over-long line, until its newline
    bool m_ended = false;      // a line ended the stream (endsStream)
};

} // namespace strata
