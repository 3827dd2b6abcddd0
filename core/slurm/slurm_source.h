#pragma once

#include "job_time_used_guard.h"
#include "model/orchestrator_source.h"
#include "scontrol_parser.h"
#include "slurm_version.h"
#include "ssh/command_result.h"

#include <QElapsedTimer>
#include <QHash>
#include <QThreadPool>

#include <atomic>
#include <memory>

namespace strata {

class GpuCatalog;
class RemoteShell;
class SqueueFollower;

// Slurm over a RemoteShell (SSH to a login node). The release is learnt once per connection
// (`scontrol version`, again after a transport failure) and picks the node list: 22.05
// `sinfo --json`, 23.02+ `scontrol --json show nodes` (SlurmVersion); the first refresh reads
// both in one remote command (VersionedNodeList). One refresh costs, at 2,000 nodes and 50,000
// jobs: the node list (~3 MB), scontrol show partition (tiny), squeue in a delimited format
// (~3 MB, not --json's 168 MB), and, after the job list, the placements of running jobs whose
// GPU placement is not cached yet (placements do not change while a job runs): up to 32 in one
// remote script that starts their scontrol side by side (JobPlacementReader), more from
// `scontrol show job -d -o` filtered on the login node. The independent reads are sent at once,
// so they run side by side on channels of the one SSH connection (SshRemoteShell). Every Slurm
// client start costs the login node a parse of slurm.conf (~1 s with 2,048 node lines), so a
// refresh starts as few as its data allows (docs/PERF.md, "Fewer client starts per refresh").
//
// Each new running, configuring or pending job's batch script is read once (up to 50 a refresh,
// in one remote script: BatchScriptReader), for WorkloadDetector; another user's script is
// quietly "not readable".
//
// Work runs on a private one-thread pool, so refreshes and actions never overlap and never
// block the caller; the placement cache is touched only there.
class SlurmSource : public OrchestratorSource
{
public:
    SlurmSource(std::shared_ptr<RemoteShell> shell, const GpuCatalog &catalog);
    ~SlurmSource() override;

    OrchestratorKind kind() const override { return OrchestratorKind::Slurm; }
    QFuture<OrchestratorPart> refresh() override;
    StagedRefresh refreshStaged() override;
    // Polling: the job list comes from one squeue --iterate at this interval (SqueueFollower)
    // instead of a squeue per refresh, where the shell can stream and the login node runs it.
    void setPolling(int intervalSeconds) override;
    // `scontrol ping` (parseScontrolPing): one light RPC to the controller, no slurm.conf-sized
    // answer, on the same worker as refreshes.
    QFuture<OrchestratorProbe> probe() override;
    QFuture<ActionResult> submit(const JobSubmission &submission) override;
    QFuture<ActionResult> cancel(const QString &jobId) override;
    QFuture<ActionResult> drain(const QStringList &nodes, const QString &reason) override;
    QFuture<ActionResult> resume(const QStringList &nodes) override;
    QFuture<ActionResult> reconcile(const ActionResult &unknown) override;
    // The job's stdout file (Job::stdoutPath) polled over this source's shell by a
    // JobOutputFollower; nullptr for a job without one.
    std::unique_ptr<OutputFollower> followOutput(const Job &job) override;
    // One sacct of every user's allocations over the period (SacctParser: its format and why);
    // on the global pool, not this source's own worker, so a month's accounting (seconds at
    // 50,000 jobs) never holds up a refresh. NoAccounting on a cluster without slurmdbd.
    QFuture<AccountingAnswer> readJobRecords(const HistoryPeriod &period) override;

    // Number of job-detail fetches so far (for tests and benchmarks of the cache).
    int detailFetches() const { return m_detailFetches.loadRelaxed(); }
    // Number of refreshes that read the pending jobs too (for tests and benchmarks).
    int pendingReads() const { return m_pendingReads.loadRelaxed(); }
    // Number of batch-script reads so far (for tests of the cache).
    int scriptReads() const { return m_scriptReads.loadRelaxed(); }
    // Number of refreshes whose job list was a listing of the running squeue --iterate.
    int followedRefreshes() const { return m_followedRefreshes.loadRelaxed(); }

    // Without polling, the pending backlog (48,000 of 50,000 jobs on a busy cluster) is read at
    // most this often; the refreshes between read only the other states and keep the pending
    // jobs last read. A submit or cancel of this source's own has the next refresh read them at
    // once. (While polling, squeue --iterate lists every state: the controller answers it
    // cheaply while nothing changed, and no backlog is kept.)
    static constexpr qint64 kPendingReadIntervalMs = 30000;

    // One refresh's step for failed launches: fills Node::jobsAwaitingLaunch of the nodes whose
    // launch failed from `previous` (node -> CONFIGURING jobs waiting for it, as the last refresh
    // saw them) and returns the same map for the next refresh. Pure: a test drives it phase by phase.
    static QHash<QString, QStringList> carryJobsAwaitingLaunch(QVector<Node> &nodes, const QVector<Job> &jobs,
                                                               const QHash<QString, QStringList> &previous);

private:
    OrchestratorPart refreshBlocking(QPromise<OrchestratorPart> *early);
    OrchestratorPart refreshOnce(QPromise<OrchestratorPart> *early);
    void noteOwnJobChange(); // pool thread: after this source's own submit or cancel
    // Reads the batch scripts of new running, configuring and pending jobs (BatchScriptReader,
    // at most a bound a refresh), caches them by job and sets Job::script; returns the bytes read.
    qint64 readBatchScripts(OrchestratorPart &part);
    // Learns the release from the first refresh's VersionedNodeList answer (marked by marker)
    // and leaves in `read` the node command's own answer; false with the part's error set.
    bool learnVersion(OrchestratorPart &part, CommandResult &read, const QByteArray &marker);
    ActionResult runAction(ActionKind action, const QString &target, const QStringList &argv,
                           const QByteArray &stdinData = {});

    std::shared_ptr<RemoteShell> m_shell;
    const GpuCatalog &m_catalog;
    QThreadPool m_pool;
    QHash<QString, JobGpuPlacement> m_placementCache; // pool thread only
    JobTimeUsedGuard m_timeUsed;                      // pool thread only
    // Pool thread only: each listed job's batch script as read once (by job id, or array id for
    // an array's tasks), read or not readable; dropped when the job is no longer listed.
    QHash<QString, std::shared_ptr<const JobScript>> m_scriptCache;
    QAtomicInt m_scriptReads;
    // Node -> the CONFIGURING jobs that waited for it to launch, as last seen (pool thread only):
    // when the launch fails Slurm requeues them and keeps no trace of the node on the job, so the
    // failed-launch finding names them from here (Node::jobsAwaitingLaunch).
    QHash<QString, QStringList> m_jobsAwaitingLaunch;
    SlurmVersion m_version;                           // pool thread only; learnt once per connection
    bool m_nodeListFailed = false;                    // pool thread only
    // Pool thread only: every running job's placement was read once (the first refresh reads
    // them all, alongside the other reads; later ones only new jobs').
    QAtomicInt m_detailFetches;
    QAtomicInt m_followedRefreshes;
    std::atomic_int m_followSeconds{0};        // any thread: setPolling
    std::unique_ptr<SqueueFollower> m_follower; // pool thread only
    // Pool thread only: squeue --iterate could not run on this login node (no stdbuf, say);
    // learnt again with the release after a transport failure.
    bool m_followUnusable = false;
    QAtomicInt m_pendingReads;
    // Pool thread only: the pending jobs of the last refresh that read them, and when.
    QVector<Job> m_pendingJobs;
    QElapsedTimer m_pendingReadClock;
    bool m_pendingDue = true;
};

// Fills Node::gpus (one Gpu per expected index; those the parser made keep their own model) and
// the jobs' GPU maps from the placements.
void applyPlacements(QVector<Node> &nodes, QVector<Job> &jobs, const QHash<QString, JobGpuPlacement> &placements);

} // namespace strata
