#pragma once

#include "model/job.h"

#include <QByteArray>
#include <QString>
#include <QVector>

namespace strata {

// The job list from squeue, in a delimited format Strata asks for explicitly:
//   squeue -h -a -r --states=all -o MARKER%i\x1f%A\x1f...\x1f%j
// Each record starts with a per-refresh random MARKER, fields are separated by \x1f (unit
// separator), and the job name, the only field users control, comes last, so a name may hold
// any bytes (delimiters and newlines included) and is still read back exactly: a record ends
// only where "\n" + MARKER begins the next.
struct SqueueParseResult
{
    QVector<Job> jobs;
    int malformedRecords = 0;
    QString error; // first malformed record, described; empty when all parsed
};

namespace SqueueParser {

// The -o argument for squeue with this marker.
QString formatArgument(const QByteArray &recordMarker);
SqueueParseResult parse(const QByteArray &output, const QByteArray &recordMarker);

} // namespace SqueueParser
} // namespace strata
