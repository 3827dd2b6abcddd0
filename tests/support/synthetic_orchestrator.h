#pragma once

#include "model/cluster_snapshot.h"
#include "model/orchestrator_source.h"

#include <QPromise>
#include <QString>

#include <memory>
#include <vector>

namespace strata {

// An OrchestratorSource over a synthetic cluster, for window tests without a lab: refresh
// hands out the current state, and submit/cancel/drain/resume change it the way Slurm would
// (a new pending job, a job gone, a node drained with its reason, a node back). Answers are
// immediate (ready futures). Can pretend the host key is unknown until told otherwise.
// Lives on the thread that uses it.
class SyntheticOrchestrator : public OrchestratorSource
{
public:
    explicit SyntheticOrchestrator(ClusterSnapshot state);

    OrchestratorKind kind() const override { return OrchestratorKind::Slurm; }
    QFuture<OrchestratorPart> refresh() override;
    QFuture<ActionResult> submit(const JobSubmission &submission) override;
    QFuture<ActionResult> cancel(const QString &jobId) override;
    QFuture<ActionResult> drain(const QStringList &nodes, const QString &reason) override;
    QFuture<ActionResult> resume(const QStringList &nodes) override;
    // Its actions never lose their answer; an unknown outcome handed in stays unknown.
    QFuture<ActionResult> reconcile(const ActionResult &unknown) override;

    // While set, every refresh fails as an unknown host key offering this fingerprint.
    void setUnknownHostKey(const QString &fingerprint) { m_unknownHostKey = fingerprint; }
    // While set (kind not None), every refresh fails in the transport with this kind and
    // message (a changed host key, a key that needs its passphrase).
    void setTransportFailure(ErrorKind kind, const QString &error)
    {
        m_transportFailureKind = kind;
        m_transportFailure = error;
    }
    // While set, the login node answers but the scheduler fails with this message (slurmctld
    // down): the source "slurm" fails (CommandFailed), "ssh" stays up.
    void setSchedulerFailure(const QString &error) { m_schedulerFailure = error; }
    // While held, refreshes get no answer (a slow first connect); release() answers them.
    void hold() { m_held = true; }
    void release();
    int refreshCount() const { return m_refreshes; }
    const ClusterSnapshot &state() const { return m_state; }

private:
    OrchestratorPart answer() const;

    ClusterSnapshot m_state;
    bool m_held = false;
    std::vector<std::shared_ptr<QPromise<OrchestratorPart>>> m_waiting;
    QString m_unknownHostKey;
    ErrorKind m_transportFailureKind = ErrorKind::None;
    QString m_transportFailure;
    QString m_schedulerFailure;
    int m_refreshes = 0;
    int m_nextJobId = 0;
};

} // namespace strata
