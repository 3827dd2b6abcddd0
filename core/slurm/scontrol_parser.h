#pragma once

#include "model/partition.h"

#include <QByteArray>
#include <QHash>
#include <QMap>
#include <QString>
#include <QVector>

namespace strata {

// Per-job GPU placement from `scontrol show job -d -o`: which GPU indices the job holds on
// each node (the "Nodes=X CPU_IDs=... GRES=gpu:h100:2(IDX:0-1)" detail entries).
struct JobGpuPlacement
{
    QString jobId;                        // "1234", or "1230_4" for an array task
    QMap<QString, QVector<int>> gpus;     // node -> indices
    QString command;
    QString workDir;
    QString stdoutPath;
    QString comment;                      // --comment (runs to the next Key=)
};

struct ScontrolJobsParseResult
{
    QHash<QString, JobGpuPlacement> jobs; // by job id as squeue prints it (%i)
    int malformedRecords = 0;
    QString error;
};

struct ScontrolPartitionsParseResult
{
    QVector<Partition> partitions;
    QString error;
};

// Parsers for scontrol's one-line (-o) Key=Value output. scontrol has no --json in 22.05.
// Values of user-controlled keys (JobName, Comment, paths) may contain spaces and '=': the
// job parser therefore skips the name by its known text (from squeue, same refresh) and reads
// placement only from the detail entries, which come before any path.
namespace ScontrolParser {
// About 1.5 KB a job in `show job -d -o`: 50,000 jobs are 75 MB.
constexpr qsizetype maxInputBytes = qsizetype(512) * 1024 * 1024;
// Every parser below refuses more than maxInputBytes or UTF-16 text as a whole, and reads an
// output that does not end with a newline (cut short) up to its last complete line, saying so.

ScontrolPartitionsParseResult parsePartitions(const QByteArray &output);
// knownNames: job id -> name, as squeue reported them; jobs it lacks are parsed best-effort.
ScontrolJobsParseResult parseJobDetails(const QByteArray &output, const QHash<QString, QString> &knownNames);
// The same for one `scontrol show job -d -o ID` per job, each output preceded by a line
// "MARKER ID" (marker random per refresh): a record can then never run into another, and a
// chunk yields only the job it was asked for.
ScontrolJobsParseResult parseJobDetailChunks(const QByteArray &output, const QByteArray &marker,
                                             const QHash<QString, QString> &knownNames);
// "No jobs in the system" and similar empty answers are not errors.
bool isEmptyAnswer(const QByteArray &output);

} // namespace ScontrolParser
} // namespace strata
