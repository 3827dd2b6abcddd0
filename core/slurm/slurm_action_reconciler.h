#pragma once

#include "model/job_submission.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

namespace strata {

class RemoteShell;

// Reads Slurm back for an action whose answer was lost (ActionResult::outcomeUnknown), instead
// of sending it again: a submit is looked up by the comment it carries ("strata:TAG"), a cancel
// by the job's state, a drain or resume by the nodes' states. The argv builders and readers are
// pure; reconcile() runs them over a RemoteShell and blocks (SlurmSource calls it on its pool).
// The dispatch on the action's kind and the shape of the results are ActionReconciler's.
//
// A job that ended more than MinJobAge (default 300 s) before the read is gone from squeue:
// "not submitted" then means "no job in squeue carries the tag", which is why reconcile runs on
// the first refresh that reaches the cluster again.
namespace SlurmActionReconciler {

// squeue over all jobs, one "ARRAY_JOB_ID|COMMENT" line each.
QStringList submissionQuery();
// The job ids (each once, in order) whose comment is exactly `comment`.
QStringList jobsWithComment(const QByteArray &squeueOutput, const QString &comment);
// squeue of one job's state ("RUNNING", "CANCELLED", ...); empty argv for an invalid id.
QStringList jobStateQuery(const QString &jobId);
// sinfo of the nodes' states, one "NODE|STATE" line each ("drained", "draining", "idle*").
QStringList nodeStateQuery(const QStringList &nodes);
QHash<QString, QString> nodeStates(const QByteArray &sinfoOutput);
bool isDrainState(const QString &sinfoState);

ActionResult reconcile(RemoteShell &shell, const ActionResult &unknown);

} // namespace SlurmActionReconciler
} // namespace strata
