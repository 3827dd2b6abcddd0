#include "cluster_snapshot.h"

#include "finding_jobs.h"
#include "gpu_capacity.h"
#include "gpu_count.h"
#include "mixed_gpu_model.h"
#include "power_findings.h"

#include <algorithm>

#include <QMap>

#include <utility>

namespace strata {

void ClusterSnapshot::finalize()
{
    // Read only (std::as_const): the jobs and nodes are shared with the orchestrator part the
    // session keeps, and a non-const access would copy all 50,000 jobs.
    nodeIndexByName.clear();
    nodeIndexByName.reserve(nodes.size());
    for (int i = 0; i < nodes.size(); ++i)
        nodeIndexByName.insert(std::as_const(nodes)[i].name, i);
    jobIndexById.clear();
    jobIndexById.reserve(jobs.size());
    for (int i = 0; i < jobs.size(); ++i)
        jobIndexById.insert(std::as_const(jobs)[i].id, i);
    // A Kubernetes workload's pods lead to it too: a GPU's holder is a pod (Gpu::jobId, the DCGM
    // exporter's pod label), the workload is what the Jobs table lists.
    for (int i = 0; i < jobs.size(); ++i)
        for (const QString &pod : std::as_const(jobs)[i].pods)
            jobIndexById.insert(pod, i);

    QMap<QString, InstanceGroup> groups;
    for (const Node &n : std::as_const(nodes)) {
        const QString type = n.instanceType.isEmpty() ? QStringLiteral("unknown") : n.instanceType;
        InstanceGroup &g = groups[type];
        g.instanceType = type;
        if (g.gpuModel.isEmpty())
            g.gpuModel = n.gpuModel;
        ++g.nodeCount;
        g.gpuCount += n.gpuCount;
        // Per GPU: a node may hold several models (Slurm GRES of two types), a group several.
        if (n.gpus.isEmpty() && n.gpuCount > 0 && !n.gpuModel.isEmpty())
            g.gpusByModel[n.gpuModel] += n.gpuCount;
        for (const Gpu &gpu : n.gpus)
            if (!gpu.model.isEmpty())
                ++g.gpusByModel[gpu.model];
    }
    for (InstanceGroup &g : groups)
        if (g.gpusByModel.size() > 1)
            g.gpuModel = MixedGpuModel::name(g.gpusByModel.keys());
    instanceGroups = QVector<InstanceGroup>(groups.begin(), groups.end());
    summarizeWorkloads();
    // A node whose GPU count was refused says so here, whichever source read it; once, however
    // often this runs.
    // So does a cloud node whose launch failed, naming the jobs that waited for it.
    findings.erase(std::remove_if(findings.begin(), findings.end(),
                                  [](const Finding &f) {
                                      return f.code == GpuCount::refusedFindingCode() || f.code == PowerFindings::launchFailedCode();
                                  }),
                   findings.end());
    findings << GpuCount::findings(nodes);
    findings << PowerFindings::findings(nodes, jobs);
    FindingJobs::attach(findings, nodes, jobs, nodeIndexByName);
}

void ClusterSnapshot::summarizeWorkloads()
{
    QMap<QString, WorkloadGroup> workloads;
    for (const Job &j : std::as_const(jobs)) {
        const bool running = j.isRunning();
        if (!running && !j.isPending())
            continue;
        const QString framework = j.framework.isEmpty() ? WorkloadGroup::unrecognised() : j.framework;
        WorkloadGroup &g = workloads[framework];
        g.framework = framework;
        if (!j.kind.isEmpty() && !g.kinds.contains(j.kind))
            g.kinds << j.kind;
        if (!running) {
            ++g.jobsPending;
            continue;
        }
        ++g.jobsRunning;
        g.gpusHeld += j.gpuCountHeld();
        if (j.app && j.app->tokensPerSecond)
            g.tokensPerSecond = g.tokensPerSecond.value_or(0) + *j.app->tokensPerSecond;
    }
    workloadGroups.clear();
    workloadGroups.reserve(workloads.size());
    for (WorkloadGroup &g : workloads) {
        g.kinds.sort();
        workloadGroups << g;
    }
}

const Node *ClusterSnapshot::node(const QString &name) const
{
    const auto it = nodeIndexByName.constFind(name);
    return it == nodeIndexByName.constEnd() ? nullptr : &nodes[*it];
}

const Job *ClusterSnapshot::job(const QString &id) const
{
    const auto it = jobIndexById.constFind(id);
    return it == jobIndexById.constEnd() ? nullptr : &jobs[*it];
}

const SourceStatus *ClusterSnapshot::source(SourceKind kind) const
{
    for (const SourceStatus &s : sources)
        if (s.source == kind)
            return &s;
    return nullptr;
}

ClusterSnapshot::Totals ClusterSnapshot::totals() const
{
    Totals t;
    t.nodes = int(nodes.size());
    GpuCapacity gpus;
    for (const Node &n : nodes)
        gpus += GpuCapacity::of(n);
    t.gpus = gpus.total();
    t.gpusBusy = gpus.busy;
    t.gpusIdle = gpus.idle;
    t.gpusStarting = gpus.starting;
    t.gpusLaunchable = gpus.launchable;
    t.gpusUnavailable = gpus.unavailable;
    for (const Job &j : jobs) {
        if (j.isRunning())
            ++t.jobsRunning;
        else if (j.stateKind == JobState::Configuring)
            ++t.jobsStarting;
        else if (j.isPending())
            ++t.jobsPending;
        else
            ++t.jobsOther;
    }
    for (const Finding &f : findings) {
        if (f.severity == Finding::Severity::Critical)
            ++t.findingsCritical;
        else if (f.severity == Finding::Severity::Warning)
            ++t.findingsWarning;
    }
    return t;
}

QString ClusterSnapshot::Totals::gpuSplitText(const QLocale &locale) const
{
    QStringList parts{locale.toString(gpusBusy) + QLatin1String(" busy"), locale.toString(gpusIdle) + QLatin1String(" idle")};
    if (gpusStarting > 0)
        parts << locale.toString(gpusStarting) + QLatin1String(" starting");
    if (gpusLaunchable > 0)
        parts << locale.toString(gpusLaunchable) + QLatin1String(" launchable");
    parts << locale.toString(gpusUnavailable) + QLatin1String(" unavailable");
    return parts.join(QLatin1String(", "));
}

QString ClusterSnapshot::Totals::jobSplitText(const QLocale &locale) const
{
    QStringList parts{locale.toString(jobsRunning) + QLatin1String(" running")};
    if (jobsStarting > 0)
        parts << locale.toString(jobsStarting) + QLatin1String(" starting");
    parts << locale.toString(jobsPending) + QLatin1String(" pending");
    return parts.join(QLatin1String(", "));
}

} // namespace strata
