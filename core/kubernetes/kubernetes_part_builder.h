#pragma once

#include "kube_job.h"
#include "kube_pod.h"
#include "kube_workload.h"
#include "model/orchestrator_part.h"

#include <QVector>

namespace strata {

// Joins parsed nodes, pods and Jobs into the orchestrator part Strata shows. Pure.
//  - Node: gpusAllocated / cpusAllocated sum the requests of the pods that hold it (bound, not
//    finished); on a node whose GPUs are shared (Node::gpuSharing), pods' shares and MIG devices
//    are counted there and gpusAllocated is the GPUs known to hold one (at least); gpus has one
//    entry per physical GPU; where a pod's GPU indices are known (the lab's
//    strata.lab/gpu-indices annotation) gpuIndicesAllocated and Gpu::jobId ("namespace/pod") say
//    which. Real clusters do not publish indices: then only the counts are filled and the DCGM
//    exporter's pod labels name the holder of each GPU later, in the metrics join.
//  - Job: one per workload, every pod under the top of its ownerReferences chain (KubeOwnerChain):
//    a batch/v1 Job (id "namespace/name"), a workload kind Strata reads (a Deployment, PyTorchJob,
//    JobSet, LeaderWorkerSet, RayJob, ...: id "namespace/KIND/name"; its state from its own
//    status, KubeWorkloadReaders, shown even with no pods), an owner Strata does not list (id
//    "namespace/KIND/name", state from its pods) and a bare pod (id "namespace/pod"), the last two
//    only when they request GPUs. workloadKind/ApiVersion, pods, restarts, roles and the Kueue
//    queue label (kueue.x-k8s.io/queue-name) are filled; a suspended workload with a queue is
//    PENDING (Kueue has not admitted it), without one SUSPENDED.
//    state RUNNING (a pod runs), PENDING (reason: the scheduler's message),
//    SUCCEEDED, FAILED (reason: the condition), SUSPENDED, TERMINATING. user: the annotation
//    strata.io/submitted-by, else the namespace; partition: the namespace. gpus: node -> indices
//    only where the indices are known (never made up); gpusRequested: GPUs of the pods that run at
//    once (active pods, else per pod x parallelism).
//  - Partition: one per node pool (Node::partitions), state UP while any node is ready.
class KubernetesPartBuilder
{
public:
    static OrchestratorPart build(QVector<Node> nodes, const QVector<KubePod> &pods,
                                  const QVector<KubeJob> &jobs, const QVector<KubeWorkload> &workloads,
                                  qint64 nowSeconds);
    static OrchestratorPart build(QVector<Node> nodes, const QVector<KubePod> &pods,
                                  const QVector<KubeJob> &jobs, qint64 nowSeconds);
    static QLatin1StringView submittedByAnnotation() { return QLatin1StringView("strata.io/submitted-by"); }
};

} // namespace strata
