#pragma once

#include "error_kind.h"
#include "job_record.h"

#include <QString>
#include <QVector>

namespace strata {

// What one read of the scheduler's accounting over a period produced
// (OrchestratorSource::readJobRecords). error non-empty: the read failed (errorKind says how,
// NoAccounting when the cluster keeps no accounting) and records is empty.
struct AccountingAnswer
{
    QVector<JobRecord> records;
    QString error;
    ErrorKind errorKind = ErrorKind::None;
    int skippedRows = 0;  // rows that could not be read, counted, never guessed at
    QStringList warnings; // what the skipped rows were, a few named
    QString command;      // what ran, for a person ("sacct -X -a ...")
    qint64 bytes = 0;     // the answer's size
    qint64 durationMs = 0;
};

} // namespace strata
