#include "snapshot_text_printer.h"

#include "cli/text_table.h"
#include "model/gpu_catalog.h"

#include <algorithm>

namespace strata {

namespace {

QString number(const std::optional<double> &v, int decimals = 0)
{
    return v ? QString::number(*v, 'f', decimals) : QStringLiteral("-");
}

QString duration(qint64 seconds)
{
    if (seconds < 0)
        return QStringLiteral("-");
    const qint64 d = seconds / 86400, h = (seconds % 86400) / 3600, m = (seconds % 3600) / 60, s = seconds % 60;
    QString clock = QStringLiteral("%1:%2:%3").arg(h, 2, 10, QLatin1Char('0')).arg(m, 2, 10, QLatin1Char('0')).arg(s, 2, 10, QLatin1Char('0'));
    return d > 0 ? QStringLiteral("%1-%2").arg(d).arg(clock) : clock;
}

// Slurm writes an unlimited time limit as 0 here.
QString limit(qint64 seconds)
{
    return seconds == 0 ? QStringLiteral("unlimited") : duration(seconds);
}

QString gpuPlacement(const Job &job)
{
    QStringList parts;
    for (auto it = job.gpus.constBegin(); it != job.gpus.constEnd(); ++it) {
        QStringList indices;
        for (int i : it.value())
            indices << QString::number(i);
        parts << it.key() + QLatin1Char(':') + indices.join(QLatin1Char(','));
    }
    return parts.isEmpty() ? (job.gpusRequested > 0 ? QStringLiteral("(%1 requested)").arg(job.gpusRequested) : QStringLiteral("-"))
                           : parts.join(QLatin1Char(' '));
}

// Names may hold control characters (newlines, tabs): shown escaped, one line per job.
QString printable(const QString &text)
{
    return TextTable::printable(text);
}

} // namespace

QString SnapshotTextPrinter::print(const ClusterSnapshot &s)
{
    QString out;
    const ClusterSnapshot::Totals t = s.totals();
    out += QStringLiteral("Cluster %1 (%2) at %3\n").arg(s.clusterName, orchestratorKindName(s.orchestrator), s.takenAt.toString(Qt::ISODate));
    QStringList sources;
    for (const SourceStatus &st : s.sources) {
        QString line = sourceKindName(st.source) + QLatin1Char(' ') + (st.ok ? QStringLiteral("ok") : QStringLiteral("FAILED"));
        if (st.stale)
            line += QStringLiteral(" (stale)");
        if (!st.via.isEmpty())
            line += QStringLiteral(" (read from %1)").arg(st.via);
        if (!st.error.isEmpty())
            line += QStringLiteral(": ") + st.error;
        sources << line;
    }
    out += QStringLiteral("Sources: %1\n").arg(sources.join(QLatin1String("; ")));
    const QLocale c = QLocale::c();
    out += QStringLiteral("Totals: %1 nodes, %2 GPUs (%3), jobs %4\n\n")
               .arg(t.nodes).arg(t.gpus).arg(t.gpuSplitText(c), t.jobSplitText(c));

    TextTable instances({QStringLiteral("INSTANCE TYPE"), QStringLiteral("NODES"), QStringLiteral("GPUS"),
                         QStringLiteral("GPU"), QStringLiteral("BF16 PFLOPS/GPU"), QStringLiteral("HBM")});
    for (const InstanceGroup &g : s.instanceGroups) {
        const GpuSpec *spec = GpuCatalog::builtIn().gpu(g.gpuModel);
        instances.addRow({g.instanceType, QString::number(g.nodeCount), QString::number(g.gpuCount),
                          g.gpuModel.isEmpty() ? QStringLiteral("-") : g.gpuModel,
                          spec && spec->bf16PetaFlops > 0 ? QString::number(spec->bf16PetaFlops, 'f', 3) : QStringLiteral("-"),
                          spec && spec->hbmGiB > 0 ? QStringLiteral("%1 GB %2, %3 TB/s").arg(spec->hbmGiB).arg(spec->hbmType).arg(spec->hbmTBps)
                                                   : QStringLiteral("-")});
    }
    out += QStringLiteral("INSTANCES\n") + instances.render() + QLatin1Char('\n');

    TextTable nodes({QStringLiteral("NODE"), QStringLiteral("STATE"), QStringLiteral("POWER"), QStringLiteral("INSTANCE"), QStringLiteral("PARTITIONS"),
                     QStringLiteral("GPU"), QStringLiteral("GPUS ALLOC/TOTAL"), QStringLiteral("ALLOCATED IDX"), QStringLiteral("REASON")});
    for (const Node &n : s.nodes) {
        QStringList idx;
        for (int i : n.gpuIndicesAllocated)
            idx << QString::number(i);
        nodes.addRow({n.name, n.state, powerStateName(n.power), n.instanceType.isEmpty() ? QStringLiteral("-") : n.instanceType,
                      n.partitions.join(QLatin1Char(',')), n.gpuModel.isEmpty() ? QStringLiteral("-") : n.gpuModel,
                      !n.gpuCountKnown() ? QStringLiteral("?/?") // refused: a finding names what it said
                      : n.gpuSharing.isShared()
                          ? QStringLiteral("%1/%2 (%3)").arg(n.gpusAllocated).arg(n.gpuCount).arg(n.gpuSharing.summary())
                          : QStringLiteral("%1/%2").arg(n.gpusAllocated).arg(n.gpuCount),
                      idx.isEmpty() ? QStringLiteral("-") : idx.join(QLatin1Char(',')), printable(n.reason)});
    }
    out += QStringLiteral("NODES\n") + nodes.render() + QLatin1Char('\n');

    if (s.metricsAvailable) {
        TextTable gpus({QStringLiteral("NODE"), QStringLiteral("GPU"), QStringLiteral("JOB"), QStringLiteral("UTIL%"),
                        QStringLiteral("MEM MiB"), QStringLiteral("TEMP C"), QStringLiteral("POWER W"), QStringLiteral("XID")});
        for (const Node &n : s.nodes)
            for (const Gpu &g : n.gpus)
                gpus.addRow({n.name, QString::number(g.index), g.jobId.isEmpty() ? QStringLiteral("-") : g.jobId,
                             number(g.metrics.utilPercent), number(g.metrics.memUsedMiB), number(g.metrics.tempC),
                             number(g.metrics.powerW), number(g.metrics.xid)});
        out += QStringLiteral("GPUS\n") + gpus.render() + QLatin1Char('\n');
    }

    TextTable partitions({QStringLiteral("PARTITION"), QStringLiteral("STATE"), QStringLiteral("DEFAULT"),
                          QStringLiteral("NODES"), QStringLiteral("GPUS"), QStringLiteral("MAX TIME")});
    for (const Partition &p : s.partitions)
        partitions.addRow({p.name, p.state, p.isDefault ? QStringLiteral("yes") : QStringLiteral("no"),
                           QString::number(p.nodes.size()), QString::number(p.totalGpus), limit(p.maxTimeSeconds)});
    out += QStringLiteral("PARTITIONS\n") + partitions.render() + QLatin1Char('\n');

    // Kubernetes with Kueue: its queues, the counterpart of partitions (`strata queues` says more).
    if (!s.queues.isEmpty()) {
        TextTable queues({QStringLiteral("QUEUE"), QStringLiteral("KIND"), QStringLiteral("CLUSTERQUEUE"),
                          QStringLiteral("GPUS USED/QUOTA"), QStringLiteral("PENDING"), QStringLiteral("ADMITTED"),
                          QStringLiteral("STATE")});
        for (const Queue &q : s.queues)
            queues.addRow({q.id(), q.kind == Queue::Kind::Cluster ? QStringLiteral("ClusterQueue") : QStringLiteral("LocalQueue"),
                           q.clusterQueue,
                           q.kind == Queue::Kind::Cluster ? QStringLiteral("%1/%2").arg(q.gpusUsed()).arg(q.gpuQuota())
                                                          : QString::number(q.gpusUsed()),
                           QString::number(q.pendingWorkloads), QString::number(q.admittedWorkloads),
                           q.isActive() ? QStringLiteral("active") : QStringLiteral("inactive")});
        out += QStringLiteral("QUEUES\n") + queues.render() + QLatin1Char('\n');
    }

    // Kubernetes: each workload's kind (PyTorchJob, Deployment, Job, Pod, ...) after its id.
    const bool kinds = std::any_of(s.jobs.cbegin(), s.jobs.cend(), [](const Job &j) { return !j.workloadKind.isEmpty(); });
    QStringList header{QStringLiteral("JOB"), QStringLiteral("NAME"), QStringLiteral("USER"), QStringLiteral("STATE"),
                       QStringLiteral("PARTITION"), QStringLiteral("TIME"), QStringLiteral("LIMIT"),
                       QStringLiteral("GPUS (node:idx)"), QStringLiteral("UTIL%"), QStringLiteral("REASON")};
    if (kinds)
        header.insert(1, QStringLiteral("KIND"));
    TextTable jobs(header);
    for (const Job &j : s.jobs) {
        QStringList row{j.id, printable(j.name), j.user, j.state, j.partition, duration(j.timeUsedSeconds),
                        limit(j.timeLimitSeconds), gpuPlacement(j), number(j.gpuUtilMean), printable(j.reason)};
        if (kinds)
            row.insert(1, j.workloadKind.isEmpty() ? QStringLiteral("-") : j.workloadKind);
        jobs.addRow(row);
    }
    out += QStringLiteral("JOBS\n") + jobs.render();

    if (!s.findings.isEmpty()) {
        TextTable findings({QStringLiteral("SEVERITY"), QStringLiteral("NODE"), QStringLiteral("GPU"), QStringLiteral("JOBS"),
                            QStringLiteral("CODE"), QStringLiteral("MESSAGE")});
        for (const Finding &f : s.findings) {
            const QStringList affected = f.jobs.isEmpty() && !f.job.isEmpty() ? QStringList{f.job} : f.jobs;
            findings.addRow({Finding::severityName(f.severity), f.node, f.gpu < 0 ? QStringLiteral("-") : QString::number(f.gpu),
                             affected.isEmpty() ? QStringLiteral("-") : printable(affected.join(QLatin1Char(','))), f.code, f.message});
        }
        out += QStringLiteral("\nFINDINGS\n") + findings.render();
    }
    return out;
}

} // namespace strata
