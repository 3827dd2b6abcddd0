#pragma once

#include "gpu_holder_provider.h"

#include <QProcess>
#include <QString>

namespace strata::lab {

// GPU holders from the real Slurm: runs `scontrol show job -d -o` against the lab's slurm.conf
// and maps each RUNNING job's GRES indices to its GPUs. Lives on the main thread; the process
// runs asynchronously and is killed if it takes longer than the timeout.
class SlurmGpuHolderProvider : public GpuHolderProvider
{
    Q_OBJECT

public:
    SlurmGpuHolderProvider(QString scontrol, QString slurmConf, bool hpcJobLabel,
                           QObject *parent = nullptr);
    ~SlurmGpuHolderProvider() override;

    void refresh() override;

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);

    QString m_scontrol;
    QString m_slurmConf;
    bool m_hpcJobLabel;
    QProcess *m_process = nullptr;
};

} // namespace strata::lab
