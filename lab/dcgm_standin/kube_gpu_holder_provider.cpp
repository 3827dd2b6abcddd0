#include "kube_gpu_holder_provider.h"

#include "kube_gpu_allocation_parser.h"

#include <QDateTime>
#include <QFile>
#include <QTextStream>

namespace strata::lab {

KubeGpuHolderProvider::KubeGpuHolderProvider(QString allocationsFile, QObject *parent)
    : GpuHolderProvider(parent), m_file(std::move(allocationsFile))
{
}

void KubeGpuHolderProvider::refresh()
{
    QFile file(m_file);
    if (!file.exists()) {
        Q_EMIT refreshed({});
        return;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        Q_EMIT failed(QStringLiteral("cannot read %1: %2").arg(m_file, file.errorString()));
        return;
    }
    KubeGpuAllocations allocations = parseKubeGpuAllocations(file.readAll());
    if (!allocations.error.isEmpty()) {
        Q_EMIT failed(QStringLiteral("%1: %2").arg(m_file, allocations.error));
        return;
    }
    if (allocations.skipped != m_lastSkipped && allocations.skipped > 0)
        QTextStream(stderr) << QDateTime::currentDateTime().toString(Qt::ISODate) << " dcgm-standin: " << m_file
                            << ": " << allocations.skipped
                            << " allocation(s) without node, pod or GPU index 0..63 skipped" << Qt::endl;
    m_lastSkipped = allocations.skipped;
    Q_EMIT refreshed(allocations.holders);
}

} // namespace strata::lab
