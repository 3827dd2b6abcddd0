#include "finding_jobs.h"

namespace strata::FindingJobs {

namespace {

bool holdsNodes(const Job &job)
{
    switch (job.stateKind) {
    case JobState::Running:
    case JobState::Configuring:
    case JobState::Completing:
    case JobState::Suspended:
        return true;
    default:
        return false;
    }
}

QStringList jobsOfGpu(const Gpu &gpu)
{
    QStringList out;
    if (!gpu.jobId.isEmpty())
        out << gpu.jobId;
    for (const MigInstance &instance : gpu.migInstances)
        if (!instance.jobId.isEmpty() && !out.contains(instance.jobId))
            out << instance.jobId;
    return out;
}

} // namespace

void attach(QVector<Finding> &findings, const QVector<Node> &nodes, const QVector<Job> &jobs,
            const QHash<QString, int> &nodeIndexByName)
{
    // Node -> its jobs, built only when a node-wide finding needs it (50,000 jobs otherwise
    // untouched).
    QHash<QString, QStringList> jobsByNode;
    bool jobsByNodeBuilt = false;
    for (qsizetype i = 0; i < findings.size(); ++i) {
        const Finding &f = std::as_const(findings)[i];
        if (f.node.isEmpty() || !f.job.isEmpty() || !f.jobs.isEmpty())
            continue;
        const auto at = nodeIndexByName.constFind(f.node);
        if (at == nodeIndexByName.constEnd())
            continue;
        const Node &node = nodes[*at];
        QStringList affected;
        if (f.gpu >= 0) {
            for (const Gpu &gpu : node.gpus)
                if (gpu.index == f.gpu)
                    affected = jobsOfGpu(gpu);
        } else {
            if (!jobsByNodeBuilt) {
                for (const Job &job : jobs)
                    if (holdsNodes(job))
                        for (const QString &name : job.nodes)
                            jobsByNode[name] << job.id;
                jobsByNodeBuilt = true;
            }
            affected = jobsByNode.value(f.node);
            for (const Gpu &gpu : node.gpus) // a Kubernetes pod is placed through its GPUs
                for (const QString &id : jobsOfGpu(gpu))
                    if (!affected.contains(id))
                        affected << id;
        }
        if (affected.isEmpty())
            continue;
        Finding &changed = findings[i];
        changed.jobs = affected;
        changed.job = affected.first();
    }
}

} // namespace strata::FindingJobs
