#include "node_summary.h"

namespace strata {

QVector<NodeSummary> NodeSummary::build(const ClusterSnapshot &snapshot)
{
    QVector<NodeSummary> summaries(snapshot.nodes.size());
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        NodeSummary &s = summaries[i];
        double utilSum = 0;
        int utilCount = 0;
        for (const Gpu &gpu : snapshot.nodes[i].gpus) {
            const GpuMetrics &m = gpu.metrics;
            if (m.utilPercent || m.tempC || m.powerW || m.memUsedMiB)
                ++s.gpusReporting;
            if (m.utilPercent) {
                utilSum += *m.utilPercent;
                ++utilCount;
            }
            if (m.tempC)
                s.tempMax = qMax(s.tempMax.value_or(*m.tempC), *m.tempC);
            if (m.powerW)
                s.powerSum = s.powerSum.value_or(0) + *m.powerW;
            if (m.memUsedMiB)
                s.memUsedMiB = s.memUsedMiB.value_or(0) + *m.memUsedMiB;
        }
        if (utilCount > 0)
            s.utilMean = utilSum / utilCount;
    }
    for (const Finding &f : snapshot.findings) {
        const auto it = snapshot.nodeIndexByName.constFind(f.node);
        if (it == snapshot.nodeIndexByName.constEnd())
            continue;
        ++summaries[*it].findings;
        if (f.severity == Finding::Severity::Critical)
            ++summaries[*it].criticalFindings;
    }
    for (const Job &job : snapshot.jobs) {
        if (!job.isRunning())
            continue;
        for (const QString &node : job.nodes) {
            const auto it = snapshot.nodeIndexByName.constFind(node);
            if (it != snapshot.nodeIndexByName.constEnd())
                ++summaries[*it].jobs;
        }
    }
    return summaries;
}

} // namespace strata
