#include "squeue_iteration_splitter.h"

#include "squeue_parser.h"

namespace strata {

namespace {

// "<<strata:" + 16 lower-case hex digits + ">>", as the follower's script draws it.
bool isMarker(QByteArrayView line)
{
    static constexpr QByteArrayView prefix("<<strata:");
    static constexpr QByteArrayView suffix(">>");
    if (line.size() != prefix.size() + 16 + suffix.size() || !line.startsWith(prefix) || !line.endsWith(suffix))
        return false;
    for (char c : line.sliced(prefix.size(), 16))
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    return true;
}

} // namespace

bool SqueueIterationSplitter::readMarkerLine()
{
    const qsizetype newline = m_buffer.indexOf('\n');
    if (newline < 0) {
        if (m_buffer.size() > 4096)
            m_error = QStringLiteral("squeue --iterate: the stream did not start with its record marker");
        return false;
    }
    const QByteArrayView line = QByteArrayView(m_buffer).first(newline);
    if (!isMarker(line)) {
        const QString said = QString::fromUtf8(m_buffer.left(qMin<qsizetype>(m_buffer.size(), 300))).trimmed();
        m_error = said.isEmpty() ? QStringLiteral("squeue --iterate: the stream did not start with its record marker")
                                 : said;
        return false;
    }
    m_marker = line.toByteArray();
    m_buffer.remove(0, newline + 1);
    return true;
}

QByteArray SqueueIterationSplitter::unfinishedMessages() const
{
    QByteArray said = m_messages;
    if (!m_inRecords)
        said += QByteArrayView(m_buffer).sliced(m_pos);
    return said.left(1024);
}

QVector<SqueueIteration> SqueueIterationSplitter::feed(QByteArrayView chunk)
{
    QVector<SqueueIteration> done;
    if (!m_error.isEmpty())
        return done;
    m_buffer.append(chunk);
    if (m_marker.isEmpty() && !readMarkerLine())
        return done;
    const QByteArray end = m_marker + "\n\n";
    for (;;) {
        if (!m_inRecords) {
            const qsizetype newline = m_buffer.indexOf('\n', m_pos);
            if (newline < 0)
                break;
            if (newline == m_pos) { // an empty line where a listing starts: no records
                done.append({QByteArray(), std::exchange(m_messages, {})});
                m_buffer.remove(0, newline + 1);
                m_pos = 0;
                continue;
            }
            const char first = m_buffer.at(m_pos);
            if (first >= '0' && first <= '9') {
                m_inRecords = true;
                m_searchFrom = m_pos;
                continue;
            }
            m_messages.append(QByteArrayView(m_buffer).sliced(m_pos, newline + 1 - m_pos));
            m_pos = newline + 1;
            continue;
        }
        const qsizetype at = m_buffer.indexOf(end, m_searchFrom);
        if (at < 0) {
            m_searchFrom = qMax(m_pos, m_buffer.size() - end.size() + 1);
            break;
        }
        // The listing leaves in the buffer it was read into (no copy of its megabytes); what
        // follows its empty line starts the next buffer.
        const qsizetype recordsEnd = at + m_marker.size() + 1; // through the last record's newline
        QByteArray rest = m_buffer.sliced(recordsEnd + 1);
        m_buffer.truncate(recordsEnd);
        m_buffer.remove(0, m_pos);
        done.append({std::exchange(m_buffer, std::move(rest)), std::exchange(m_messages, {})});
        m_pos = 0;
        m_inRecords = false;
    }
    if (m_buffer.size() > SqueueParser::maxInputBytes) {
        m_error = QStringLiteral("squeue --iterate: a listing grew past %1 MB without its end")
                      .arg(SqueueParser::maxInputBytes / (1024 * 1024));
        m_buffer.clear();
    }
    return done;
}

} // namespace strata
