#pragma once

#include "accounting_answer.h"
#include "history_period.h"
#include "job_submission.h"
#include "orchestrator_kind.h"
#include "orchestrator_part.h"
#include "orchestrator_probe.h"
#include "output_follower.h"

#include <QFuture>
#include <QPromise>
#include <QStringList>

#include <memory>

namespace strata {

// One scheduler backend (Slurm, Kubernetes) behind the same small interface, as nvtop puts
// each GPU vendor behind one. Calls return at once; futures finish on the backend's worker.
class OrchestratorSource
{
public:
    virtual ~OrchestratorSource() = default;
    virtual OrchestratorKind kind() const = 0;
    virtual QFuture<OrchestratorPart> refresh() = 0;
    // A refresh that hands over what arrives first: `early` finishes with the nodes and
    // partitions (no jobs) as soon as they are read, `full` with the whole part as refresh()
    // would. `early` finishes without a result when the source has nothing to show early (the
    // default) or the refresh failed before; it always finishes before `full`.
    struct StagedRefresh
    {
        QFuture<OrchestratorPart> early;
        QFuture<OrchestratorPart> full;
    };
    virtual StagedRefresh refreshStaged()
    {
        QPromise<OrchestratorPart> none;
        none.start();
        none.finish();
        return {none.future(), refresh()};
    }
    // Whether the scheduler answers now, asked cheaply while refreshes fail with the login node
    // up (see OrchestratorProbe). Finishes on the backend's worker; CannotTell by default, and
    // the session then keeps its backoff.
    virtual QFuture<OrchestratorProbe> probe()
    {
        QPromise<OrchestratorProbe> none;
        none.start();
        none.addResult(OrchestratorProbe{OrchestratorProbe::Answer::CannotTell, QStringLiteral("this scheduler has no probe")});
        none.finish();
        return none.future();
    }
    // The session refreshes every intervalSeconds from now on (0: it stopped polling; a single
    // refresh, as the CLI's, never calls this). A source may then keep a listing open on the
    // remote side between refreshes (Slurm: one squeue --iterate). Any thread.
    virtual void setPolling(int intervalSeconds) { Q_UNUSED(intervalSeconds); }
    // While polling: changes arrived (a watch's events) that no refresh has taken yet, so a
    // refresh now would show something new. Any thread; false for sources that cannot tell.
    virtual bool hasChangesWaiting() const { return false; }
    virtual QFuture<ActionResult> submit(const JobSubmission &submission) = 0;
    virtual QFuture<ActionResult> cancel(const QString &jobId) = 0;
    // Slurm: drain with reason; Kubernetes: cordon and annotate with the reason.
    virtual QFuture<ActionResult> drain(const QStringList &nodes, const QString &reason) = 0;
    virtual QFuture<ActionResult> resume(const QStringList &nodes) = 0;
    // Reads the cluster back for an action whose outcome was unknown (never resends it): the
    // submit's tagged job exists or not, the job is gone or still there, the nodes are drained
    // or not. The result has reconciled set, or is still unknown if the cluster cannot be read.
    virtual QFuture<ActionResult> reconcile(const ActionResult &unknown) = 0;

    // Where jobs are API objects (Kubernetes): what kind of object a job id of the last refresh
    // names ("pod" for a bare pod, else "job"), for its log and a shell in it. Empty where jobs
    // are not (Slurm: output is a file, Job::stdoutPath; a shell is srun --overlap). Any thread.
    virtual QString jobObjectKind(const QString &jobId) const
    {
        Q_UNUSED(jobId);
        return {};
    }
    // A job's output followed as it grows, over this source's own connection (Slurm: the job's
    // stdout file, Job::stdoutPath; Kubernetes: `kubectl logs -f` of the pod or the Job's pods),
    // so the window never holds a shell. Not started yet; the caller owns it, and it lives on
    // the caller's thread. nullptr where the job has nothing to follow: no output path, an id
    // that names no pod or Job, a source that cannot follow output (the default).
    virtual std::unique_ptr<OutputFollower> followOutput(const Job &job)
    {
        Q_UNUSED(job);
        return nullptr;
    }
    // The jobs the scheduler's accounting recorded over the period (Slurm: sacct of every user,
    // allocations only), finished or not. Finishes on the backend's worker; the default answers
    // SourceUnsupported, as an orchestrator without accounting that Strata reads.
    virtual QFuture<AccountingAnswer> readJobRecords(const HistoryPeriod &period)
    {
        Q_UNUSED(period);
        AccountingAnswer answer;
        answer.error = QStringLiteral("reading finished jobs is not supported on this orchestrator");
        answer.errorKind = ErrorKind::SourceUnsupported;
        QPromise<AccountingAnswer> promise;
        promise.start();
        promise.addResult(answer);
        promise.finish();
        return promise.future();
    }
};

} // namespace strata
