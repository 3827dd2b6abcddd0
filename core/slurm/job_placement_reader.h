#pragma once

#include "scontrol_parser.h"
#include "side_by_side_script.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

namespace strata {

// Reading new running jobs' GPU placements from a login node in one go: `scontrol show job -d
// -o ID` for each job, kSideBySide at a time (SideBySideScript), each job's output
// after a marker line "MARKER ID" and followed by "\nMARKER END STATUS STDERR" (the marker random
// per refresh, so no job name can end its own record early or pass one for another job). Pure
// functions; SlurmSource sends the script and parses the answer on its pool thread.
namespace JobPlacementReader {

// Slurm clients started at once on the login node.
constexpr int kSideBySide = SideBySideScript::kWidth;

// The sh script for `sh -s` that prints each job's record; ids are shell-quoted.
QByteArray remoteScript(const QStringList &ids, const QByteArray &marker);

struct Result
{
    // Job id -> its placement. Jobs without a whole record (the answer was cut) are in neither
    // map: asked again next refresh.
    QHash<QString, JobGpuPlacement> placements;
    // Job id -> why scontrol gave no placement, in its words ("slurm_load_jobs error: Invalid
    // job id specified": the job ended after the job list was read). Asked again next refresh
    // while still listed running.
    QHash<QString, QString> unanswered;
    int malformedRecords = 0;
    // The answer did not have the expected shape, or held a record for a job not asked for (or
    // twice); such records are dropped.
    QString error;
};

// knownNames: job id -> name, as squeue listed them (ScontrolParser::parseJobDetails).
Result parse(const QByteArray &output, const QByteArray &marker, const QStringList &askedFor,
             const QHash<QString, QString> &knownNames);

} // namespace JobPlacementReader
} // namespace strata
