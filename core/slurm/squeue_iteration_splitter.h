#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QVector>

namespace strata {

// One listing of a running `squeue --iterate`: its records (each ending with the record marker
// and a newline, as SqueueParser::parse reads them) and what squeue said instead of or before
// them ("slurm_load_jobs error: Unable to contact slurm controller (connect failure)"; its
// stderr runs into the same stream).
struct SqueueIteration
{
    QByteArray records;
    QByteArray messages;
};

// Cuts the output of SqueueFollower's command into listings. The stream starts with one line,
// the record marker the login node drew for this command ("<<strata:" 16 hex digits ">>"); then
// squeue prints, every interval, its records followed by one empty line. A record ends only at
// MARKER + "\n" (no job name can hold the marker: it was drawn after the names were set and is
// never on a command line), so a listing ends only at MARKER + "\n\n", or at an empty line where
// a listing starts (no records: an empty queue, or only an error message). Lines before the
// first record are messages; a record starts with its job id, a digit. Pure: no I/O.
class SqueueIterationSplitter
{
public:
    // Listings completed by this chunk, in order. Nothing more once error() is set.
    QVector<SqueueIteration> feed(QByteArrayView chunk);
    // The marker of this stream; empty until its first line has arrived.
    const QByteArray &marker() const { return m_marker; }
    // Why the stream cannot be read on: its first line is not a marker (the command failed
    // before squeue ran: its message), or a listing grew past SqueueParser::maxInputBytes.
    const QString &error() const { return m_error; }
    // No byte of the next listing has arrived yet (the last one ended with the last chunk).
    bool atListingStart() const { return !m_marker.isEmpty() && m_buffer.isEmpty() && m_messages.isEmpty(); }
    // What arrived after the last complete listing that is not records (a message with no
    // empty line after it yet: what a command that ended early said last), at most 1 KB.
    QByteArray unfinishedMessages() const;

private:
    bool readMarkerLine();
    QByteArray m_buffer;    // from the start of the listing being read
    qsizetype m_pos = 0;    // messages end here; records start here once m_inRecords
    qsizetype m_searchFrom = 0;
    bool m_inRecords = false;
    QByteArray m_messages;
    QByteArray m_marker;
    QString m_error;
};

} // namespace strata
