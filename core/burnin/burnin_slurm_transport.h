#pragma once

#include "burnin_file_transport.h"

namespace strata {

// A burn-in as one exclusive Slurm job: sbatch with the nodes, srun starts one agent per node
// (BurninJobScript), squeue says when it ended. A lost sbatch answer is settled by looking for
// the job by its comment, never by submitting again. Re-attaches to a running job by its id.
// Thread: as BurninTransport.
class BurninSlurmTransport : public BurninFileTransport
{
    Q_OBJECT
public:
    explicit BurninSlurmTransport(std::shared_ptr<RemoteShell> shell, QObject *parent = nullptr);

    BurninTransportKind kind() const override { return BurninTransportKind::Slurm; }
    void attach(const QString &jobId, const BurninRequest &request) override;
    void cancel() override;

protected:
    void submit() override;
    QString stateScript() const override;

private:
    void adoptJob(const QString &jobId);
    // sbatch was sent and its answer lost: look for the job by its comment (a few tries).
    void findLaunchedJob(const QString &lostError, int attempt);
};

} // namespace strata
