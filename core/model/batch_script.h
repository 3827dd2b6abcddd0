#pragma once

#include "job_fabric.h"

#include <QByteArray>
#include <QHash>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

// What a job's batch script says, read as text and never run: its `#SBATCH` header, the
// variables it sets (and exports) and the commands it runs, in order. Filled by
// BatchScript::parse, once per job (SlurmSource caches it by job id); the commands are resolved
// against the job's allocation later (BatchScript::commands), since a pending job's nodes and
// GPUs are not known yet when its script is read.
struct BatchScriptContent
{
    // One line of the script that does something, continuations (backslash-newline) joined,
    // comments dropped, split at ; && || | and a trailing &.
    struct Statement
    {
        enum class Kind { Assignment, Command };
        Kind kind = Kind::Command;
        QString name;    // Assignment: the variable
        QString value;   // Assignment: its value as written (quotes kept; expanded later)
        bool exported = false;
        // Assignment: the value is set from elsewhere and not known here (a Kubernetes env
        // entry's valueFrom: a secret, a config map, a field of the pod); `value` says from what.
        bool valueUnknown = false;
        QString text;    // Command: the command line as written
    };

    // `#SBATCH` options before the first command, long names without dashes ("nodes",
    // "ntasks-per-node", "gres", "job-name"); short ones under their long names (-N nodes,
    // -n ntasks, -G gpus, -J job-name, -p partition, -t time, -c cpus-per-task). Later wins.
    QVector<QPair<QString, QString>> sbatchOptions;
    QVector<Statement> statements;
    JobFabric fabric;          // from the NCCL_* / FI_* variables the script sets
    bool truncated = false;    // the script was longer than kMaxBytes: only its first part was read
    int skippedLines = 0;      // lines longer than kMaxLineChars, not read

    QString sbatchOption(const QString &name) const;
};

// The allocation a script's $SLURM_* variables stand for; 0: unknown.
struct BatchScriptAllocation
{
    int nodes = 0;
    int gpusPerNode = 0;
    int tasks = 0;
    int tasksPerNode = 0;
};

// One command of a script, resolved (BatchScript::commandsWithEnvironment).
struct BatchScriptCommand
{
    QStringList words;
    QHash<QString, QString> environment; // of the names asked for: exported and known here
};

namespace BatchScript {

// A script larger than this is read up to here (truncated); lines longer than kMaxLineChars
// (a generated one-liner, an embedded blob) are skipped.
constexpr qsizetype kMaxBytes = 1024 * 1024;
constexpr qsizetype kMaxLineChars = 64 * 1024;

// Pure; any bytes (NULs and other control bytes are read as blanks, invalid UTF-8 replaced).
BatchScriptContent parse(const QByteArray &content);
// The same, with `environment` (assignments, exported) in effect before its first line: what a
// container's env gives a `sh -c` script. Their NCCL_* / FI_* count for the fabric.
BatchScriptContent parse(const QByteArray &content, const QVector<BatchScriptContent::Statement> &environment);

// The allocation from the job's own (nodes, GPUs per node; 0 unknown) completed from the
// script's header (--nodes, --ntasks(-per-node), --gpus-per-node, --gres=gpu:N, --gpus).
BatchScriptAllocation allocation(const BatchScriptContent &script, int jobNodes, int jobGpusPerNode);

// Every command of the script split into words, after resolving the variables it set before
// it and Slurm's own ($SLURM_NNODES, $SLURM_JOB_NUM_NODES, $SLURM_GPUS_ON_NODE,
// $SLURM_GPUS_PER_NODE, $SLURM_NTASKS, $SLURM_NPROCS, $SLURM_NTASKS_PER_NODE) from the
// allocation: $V, ${V}, ${V:-default}, ${V:=default} and integer $(( a * b + c )). What
// cannot be resolved ($(hostname), a variable of the login environment) stays as written.
QVector<QStringList> commands(const BatchScriptContent &script, const BatchScriptAllocation &allocation);
// The same, each with the values of `environmentNames` its process is given (exported
// variables the script or its environment set, known at that point): what a launcher reads
// from its environment (torchrun's PET_NNODES).
QVector<BatchScriptCommand> commandsWithEnvironment(const BatchScriptContent &script,
                                                    const BatchScriptAllocation &allocation,
                                                    const QStringList &environmentNames);

} // namespace BatchScript
} // namespace strata
