#pragma once

#include <QMap>
#include <QString>
#include <QStringList>

namespace strata {

// What an operator asks to run. Slurm: a batch script; Kubernetes: a Job (image + command).
struct JobSubmission
{
    QString name;
    QString partition;        // Slurm partition, or Kubernetes namespace
    int nodes = 1;
    QStringList nodeList;     // pin to these nodes (Slurm --nodelist, Kubernetes hostname)
    int gpusPerNode = 0;
    qint64 timeLimitMinutes = 0; // 0: the partition's default
    QString script;           // Slurm batch script body (starts with #!)
    bool exclusive = false;
    QString outputPath;       // Slurm --output, empty for the default
    QStringList extraArguments; // passed to sbatch verbatim (quoted)
    // Kubernetes
    QString image;
    QStringList command;
    QMap<QString, QString> nodeSelector;
};

// The outcome of an action (submit, cancel, drain, resume), with the orchestrator's own words.
struct ActionResult
{
    bool ok = false;
    QString action;     // "submit", "cancel", "drain", "resume"
    QString target;     // job id or node list
    QString message;    // on success what happened (e.g. "Submitted batch job 42"), else the error
    QString jobId;      // for submit
};

} // namespace strata
