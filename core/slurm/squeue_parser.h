#pragma once

#include "model/job.h"

#include <QByteArray>
#include <QString>
#include <QVector>

namespace strata {

class StringInterner;

// The job list from squeue, in a delimited format Strata asks for explicitly (the same on
// Slurm 22.05 .. 25.11):
//   squeue -h -a -r --states=all -O 'JobArrayID:\x1f,...,tres-per-job:\x1f,...,Name:MARKER'
// -O, not -o, because the GPU requests of --gpus, --gpus-per-task and --gpus-per-socket
// (tres-per-job/-task/-socket) have no -o letter; %b (tres-per-node) is N/A for them. Fields are
// separated by \x1f (unit separator); the job name, the only field users control, comes last,
// followed by a per-refresh random MARKER and squeue's newline, so a name may hold any bytes
// (delimiters and newlines included) and is still read back exactly: a record ends only at
// MARKER + "\n". gpusRequested is the largest of per-node x nodes, per-job, per-task x tasks and
// per-socket x sockets x nodes.
struct SqueueParseResult
{
    QVector<Job> jobs;
    int malformedRecords = 0;
    QString error; // first malformed record, described; empty when all parsed
};

namespace SqueueParser {
// About 300 bytes a job: 50,000 jobs are 15 MB.
constexpr qsizetype maxInputBytes = qsizetype(256) * 1024 * 1024;

// The -o argument for squeue with this marker.
QString formatArgument(const QByteArray &recordMarker);
SqueueParseResult parse(const QByteArray &output, const QByteArray &recordMarker);
// The same, sharing the strings jobs repeat (user, state, reason, partition, node names, array
// ids, array tasks' names) through strings: pass one seeded with the node names, and a job's nodes are the
// node list's own strings.
SqueueParseResult parse(const QByteArray &output, const QByteArray &recordMarker, StringInterner &strings);

} // namespace SqueueParser
} // namespace strata
