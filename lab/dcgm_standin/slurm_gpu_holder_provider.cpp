#include "slurm_gpu_holder_provider.h"

#include "slurm_job_gpu_parser.h"

#include <QProcessEnvironment>
#include <QTimer>

namespace strata::lab {

namespace {
constexpr int kTimeoutMs = 10000;
}

SlurmGpuHolderProvider::SlurmGpuHolderProvider(QString scontrol, QString slurmConf,
                                               bool hpcJobLabel, QObject *parent)
    : GpuHolderProvider(parent), m_scontrol(std::move(scontrol)),
      m_slurmConf(std::move(slurmConf)), m_hpcJobLabel(hpcJobLabel)
{
}

SlurmGpuHolderProvider::~SlurmGpuHolderProvider()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

void SlurmGpuHolderProvider::refresh()
{
    if (m_process)
        return;
    m_process = new QProcess(this);
    if (!m_slurmConf.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURM_CONF"), m_slurmConf);
        m_process->setProcessEnvironment(env);
    }
    connect(m_process, &QProcess::finished, this, &SlurmGpuHolderProvider::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &SlurmGpuHolderProvider::onError);
    QProcess *started = m_process;
    QTimer::singleShot(kTimeoutMs, started, [started] { started->kill(); });
    m_process->start(m_scontrol, {QStringLiteral("show"), QStringLiteral("job"),
                                  QStringLiteral("-d"), QStringLiteral("-o")});
}

void SlurmGpuHolderProvider::onFinished(int exitCode, QProcess::ExitStatus status)
{
    QProcess *process = m_process;
    m_process = nullptr;
    process->deleteLater();
    const QByteArray out = process->readAllStandardOutput();
    if (status != QProcess::NormalExit || exitCode != 0) {
        const QString err = QString::fromUtf8(process->readAllStandardError()).trimmed();
        Q_EMIT failed(QStringLiteral("%1 show job -d -o %2: %3")
                          .arg(m_scontrol,
                               status == QProcess::NormalExit
                                   ? QStringLiteral("exited with %1").arg(exitCode)
                                   : QStringLiteral("was killed (timeout %1 ms?)").arg(kTimeoutMs),
                               err.isEmpty() ? QStringLiteral("no error output") : err));
        return;
    }
    GpuHolders holders;
    for (const JobGpuAllocation &a : parseRunningJobGpus(out)) {
        for (int index : a.gpuIndices) {
            GpuHolder holder;
            holder.jobId = a.jobId.toStdString();
            holder.utilPercent = a.utilPercent;
            if (m_hpcJobLabel)
                holder.labels.emplace_back("hpc_job", a.jobId.toStdString());
            holders[GpuKey{a.node, index}] = std::move(holder);
        }
    }
    Q_EMIT refreshed(holders);
}

void SlurmGpuHolderProvider::onError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart)
        return; // finished() follows and reports it
    const QString message = m_process->errorString();
    m_process->deleteLater();
    m_process = nullptr;
    Q_EMIT failed(QStringLiteral("cannot run %1: %2").arg(m_scontrol, message));
}

} // namespace strata::lab
