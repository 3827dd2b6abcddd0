#pragma once

#include "action_kind.h"
#include "error_kind.h"

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
    // Tolerate the cordon (taint node.kubernetes.io/unschedulable:NoSchedule): a burn-in must
    // run on nodes that are cordoned (by an earlier burn-in's drain, or to keep work off them).
    bool tolerateCordon = false;
    // A unique tag the job carries (Slurm: its comment; Kubernetes: label strata.io/submission),
    // so that a submit whose answer was lost can be found, or known absent, by reading the
    // cluster back. Set by the source when empty; never reused.
    QString tag;
};

// Whether an action took effect. Unknown: the request reached the cluster but its answer never
// came back (the connection dropped or timed out after it was sent). Such an action is never
// resent; OrchestratorSource::reconcile reads the cluster back to decide Done or Failed.
enum class ActionOutcome { Done, Failed, Unknown };

// The outcome of an action (submit, cancel, drain, resume), with the orchestrator's own words.
struct ActionResult
{
    bool ok = false;
    ActionKind action = ActionKind::Submit;
    QString target;     // job id or node list
    QString message;    // on success what happened (e.g. "Submitted batch job 42"), else the error
    ErrorKind errorKind = ErrorKind::None; // on failure: why (InvalidRequest, CommandFailed, ...)
    QString jobId;      // for submit
    bool outcomeUnknown = false; // see ActionOutcome::Unknown; ok is then false
    bool reconciled = false;     // the outcome was read back from the cluster after it was unknown
    // What reconcile needs: the submission's tag, the drain reason.
    QString tag;
    QString reason;

    ActionOutcome outcome() const
    {
        return ok ? ActionOutcome::Done : outcomeUnknown ? ActionOutcome::Unknown : ActionOutcome::Failed;
    }
};

} // namespace strata
