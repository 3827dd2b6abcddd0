#pragma once

#include "finding.h"
#include "job.h"
#include "node.h"
#include "orchestrator_kind.h"
#include "partition.h"
#include "queue.h"
#include "source_status.h"

#include <QDateTime>
#include <QHash>
#include <QLocale>
#include <QMap>
#include <QStringList>
#include <QVector>

#include <memory>
#include <optional>

namespace strata {

// Instances of one type in the cluster (the bottom layer of the stack).
struct InstanceGroup
{
    QString instanceType;  // "p5.48xlarge", or "unknown"
    QString gpuModel;      // its GPUs' model, or MixedGpuModel's "H100+H200" when they differ
    QMap<QString, int> gpusByModel; // catalog model (Gpu::model) -> GPUs: per-model figures sum over it
    int nodeCount = 0;
    int gpuCount = 0;
};

// The running and pending jobs of one framework (the top layer of the stack): what runs inside
// the jobs, from WorkloadDetector's reading of their commands.
struct WorkloadGroup
{
    QString framework;     // Job::framework, or "unrecognised"
    QStringList kinds;     // the jobs' kinds, sorted, without repeats ("pre-training", "serving")
    int jobsRunning = 0;
    int jobsPending = 0;
    int gpusHeld = 0;      // by its running jobs
    std::optional<double> tokensPerSecond; // summed over its running jobs that report it (Job::app)

    static QString unrecognised() { return QStringLiteral("unrecognised"); }
};

// The whole layered stack at one moment: instances -> nodes/GPUs -> partitions -> jobs,
// plus metrics and findings. Built once, then never changed: share it as
// std::shared_ptr<const ClusterSnapshot> across threads.
struct ClusterSnapshot
{
    QString clusterName;
    OrchestratorKind orchestrator = OrchestratorKind::Slurm;
    QDateTime takenAt;     // UTC
    QVector<Node> nodes;       // sorted by name
    QVector<Partition> partitions;
    QVector<Queue> queues;     // Kubernetes with Kueue (OrchestratorPart::queues); empty otherwise
    QVector<Job> jobs;         // as the scheduler lists them
    QVector<Finding> findings;
    QVector<SourceStatus> sources;
    bool metricsAvailable = false;
    // Kubernetes: pods bound to nodes, "pod" and "namespace/pod" -> node (from the orchestrator
    // part; the metrics join maps an exporter pod named in `Hostname` to its node with it).
    QHash<QString, QString> podNodes;

    // Derived in finalize(): lookups, the instance layer and the workload layer.
    QHash<QString, int> nodeIndexByName;
    QHash<QString, int> jobIndexById; // job ids, and each Kubernetes workload's pods ("ns/pod")
    QVector<InstanceGroup> instanceGroups;
    QVector<WorkloadGroup> workloadGroups; // by framework, running or pending jobs only

    // Fills the derived fields; call once after the parts are merged.
    void finalize();
    // workloadGroups again, after the jobs' application metrics changed (MetricsJoin).
    void summarizeWorkloads();

    const Node *node(const QString &name) const;
    const Job *job(const QString &id) const;
    const SourceStatus *source(SourceKind kind) const;

    // GPUs by GpuCapacity's one rule (busy + idle + starting + launchable + unavailable = gpus);
    // jobsStarting: CONFIGURING (waiting for their nodes to launch or boot).
    struct Totals
    {
        int nodes = 0, gpus = 0, gpusBusy = 0, gpusIdle = 0, gpusStarting = 0, gpusLaunchable = 0, gpusUnavailable = 0;
        int jobsRunning = 0, jobsStarting = 0, jobsPending = 0, jobsOther = 0;
        int findingsCritical = 0, findingsWarning = 0;

        // The one vocabulary every surface (status bar, overview, heatmap, CLI text) writes the
        // split in: "12 busy, 4 idle, 16 starting, 32 launchable, 2 unavailable" (starting and
        // launchable only when there are any), numbers in `locale`.
        QString gpuSplitText(const QLocale &locale) const;
        // "3 running, 1 starting, 7 pending" (starting only when there are any).
        QString jobSplitText(const QLocale &locale) const;
    };
    Totals totals() const;
};

using SnapshotPtr = std::shared_ptr<const ClusterSnapshot>;

} // namespace strata
