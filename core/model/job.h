#pragma once

#include "app_metrics.h"
#include "job_fabric.h"
#include "job_script.h"
#include "job_state.h"
#include "workload_role.h"

#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>
#include <optional>

namespace strata {

// One workload: a Slurm job (or array task) or a Kubernetes Job/pod.
struct Job
{
    QString id;            // "1234", "1234_7" for an array task, "ns/name" for Kubernetes
    QString arrayJobId;    // Slurm array parent id, empty otherwise
    QString arrayTaskId;
    QString name;          // exactly as submitted, any bytes
    QString user;
    QString state;         // upper-case as the orchestrator says: RUNNING, PENDING, ... (for display)
    JobState stateKind = JobState::Other; // `state` read once (setState): what code decides on
    QString reason;        // pending reason, failure reason
    QString partition;     // partition or namespace
    QStringList nodes;     // expanded host names
    qint64 timeUsedSeconds = -1;   // -1 unknown
    qint64 timeLimitSeconds = -1;  // -1 unknown, 0 unlimited
    qint64 submitTime = 0;         // seconds since epoch, 0 unknown
    qint64 startTime = 0;
    int gpusRequested = 0;         // total over all nodes
    QMap<QString, QVector<int>> gpus; // node -> GPU indices held there
    QString command;       // Slurm: the batch script's path and arguments (empty for --wrap and
                           // scripts given on standard input, which Slurm lists as "(null)");
                           // Kubernetes: the first container's command + args, shell-quoted
    QString workDir;
    QString stdoutPath;
    QString comment;       // Slurm --comment
    QString image;         // Kubernetes: the first container's image
    QString kindLabel;     // Kubernetes: the `strata.io/workload-kind` label
    // Kubernetes: the object at the top of its pods' ownerReferences chain, which Strata shows as
    // one workload (a PyTorchJob, a JobSet, a Deployment, a batch Job, a bare pod): its kind and
    // apiVersion as the API server names them ("PyTorchJob", "kubeflow.org/v1"); empty for Slurm.
    QString workloadKind;
    QString workloadApiVersion;
    QStringList pods;          // Kubernetes: "namespace/name" of the pods it owns now, any depth
    QVector<WorkloadRole> roles; // Kubernetes: replicas by role, as its controller reports them
    int restarts = 0;          // Kubernetes: container restarts summed over its pods
    // Kubernetes with Kueue: the LocalQueue it was submitted to and, while it waits for quota,
    // its place in the ClusterQueue's pending list (0 = next) when Kueue says.
    QString queueName;
    std::optional<int> queuePosition;

    // What runs inside, from command, name and image (WorkloadDetector; see README "Workloads").
    QString framework;     // "torch.distributed", "deepspeed", "vllm", ...; empty: not recognised
    std::optional<int> worldSize; // processes (training) or GPUs per replica (serving) when the command says
    QString kind;          // "pre-training", "fine-tuning", "serving", "evaluation", "interactive"; empty: unknown
    QString kindSource;    // "comment", "label" (the user's override) or "detected"; empty with kind
    QString launcher;      // the launchers on the line that starts the work: "srun > torchrun"; empty: none seen
    std::optional<int> tensorParallel; // serving: GPUs one model is split over (--tensor-parallel-size, --tp, --num-shard)
    JobFabric fabric;      // the fabric settings the job's script sets (EFA, NCCL_*)
    // The batch script as read (Slurm), shared: null when not read (not asked for yet, not a
    // batch job, or a source that has none). Read or not, the detector falls back to `command`.
    std::shared_ptr<const JobScript> script;

    // Filled from metrics when available.
    std::optional<double> gpuUtilMean;
    std::optional<double> gpuUtilMin;
    std::optional<double> gpuMemUsedMeanMiB;
    // What gpuUtilMean/Min/gpuMemUsedMeanMiB are based on: "window" (the usage history since the
    // job started), "current" (the GPUs' latest readings: the job started after the history
    // was read, or no history could be read), empty when there is no value.
    QString gpuUtilBasis;
    QString efficiencyVerdict;
    // What the application inside reports of its work (AppMetricsQuery): requests, tokens/s and
    // latencies of a server, step time, throughput and loss of a training run. Null: none (a
    // pointer: 50,000 jobs, a few of which report).
    std::shared_ptr<const AppMetrics> app;

    // The orchestrator's word and the state it names, together: parsers set a job's state here.
    void setState(const QString &word)
    {
        state = word;
        stateKind = parseJobState(word);
    }
    bool isRunning() const { return stateKind == JobState::Running; }
    bool isPending() const { return stateKind == JobState::Pending; }
    bool hasEnded() const { return strata::hasEnded(stateKind); }
    int gpuCountHeld() const;
};

} // namespace strata
