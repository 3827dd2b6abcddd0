#pragma once

#include "model/orchestrator_source.h"
#include "scontrol_parser.h"

#include <QHash>
#include <QThreadPool>

#include <memory>

namespace strata {

class GpuCatalog;
class RemoteShell;

// Slurm over a RemoteShell (SSH to a login node). One refresh costs, at 2,000 nodes and
// 50,000 jobs: sinfo --json (~3 MB), scontrol show partition (tiny), squeue in a delimited
// format (~3 MB, not --json's 168 MB), and `scontrol show job -d -o` filtered on the remote side
// to running jobs, fetched only when a running job appears whose GPU placement is not cached yet
// (placements do not change while a job runs).
//
// Work runs on a private one-thread pool, so refreshes and actions never overlap and never
// block the caller; the placement cache is touched only there.
class SlurmSource : public OrchestratorSource
{
public:
    SlurmSource(std::shared_ptr<RemoteShell> shell, const GpuCatalog &catalog);
    ~SlurmSource() override;

    QString kind() const override { return QStringLiteral("slurm"); }
    QFuture<OrchestratorPart> refresh() override;
    QFuture<ActionResult> submit(const JobSubmission &submission) override;
    QFuture<ActionResult> cancel(const QString &jobId) override;
    QFuture<ActionResult> drain(const QStringList &nodes, const QString &reason) override;
    QFuture<ActionResult> resume(const QStringList &nodes) override;

    // Number of job-detail fetches so far (for tests and benchmarks of the cache).
    int detailFetches() const { return m_detailFetches.loadRelaxed(); }

private:
    OrchestratorPart refreshBlocking();
    ActionResult runAction(const QString &action, const QString &target, const QStringList &argv,
                           const QByteArray &stdinData = {});

    std::shared_ptr<RemoteShell> m_shell;
    const GpuCatalog &m_catalog;
    QThreadPool m_pool;
    QHash<QString, JobGpuPlacement> m_placementCache; // pool thread only
    QAtomicInt m_detailFetches;
};

// Fills Node::gpus (one Gpu per expected index) and the jobs' GPU maps from the placements.
void applyPlacements(QVector<Node> &nodes, QVector<Job> &jobs, const QHash<QString, JobGpuPlacement> &placements);

} // namespace strata
