#pragma once

#include "kube_workload.h"

#include <QJsonObject>

namespace strata {

// Each workload kind's own status and spec, read by its project's documented shape, into a
// KubeWorkload's phase, reason, roles (counts in pods), GPUs at full size, framework and world
// size, and its main template's launch (image, command). Pure; fields a kind does not write stay
// as they are. Shapes:
//  - apps/v1 Deployment, ReplicaSet, StatefulSet: spec.replicas (1 when absent), status.replicas,
//    readyReplicas; one role "replicas"; 0 replicas is Suspended ("scaled to 0").
//  - kubeflow.org/v1 PyTorchJob, MPIJob (v2beta1 and v1): spec.{pytorch,mpi}ReplicaSpecs
//    {Master|Launcher|Worker: replicas, template}, status.replicaStatuses {active, succeeded,
//    failed}, the last true condition of Created/Running/Restarting/Succeeded/Failed/Suspended.
//    PyTorchJob: torch.distributed, world = replicas x nprocPerNode (elasticPolicy.nProcPerNode;
//    "gpu", or "auto" and absent, the operator's default: the pod's GPUs). MPIJob: workers x
//    slotsPerWorker (1 when absent).
//  - trainer.kubeflow.org/v1alpha1 TrainJob: spec.trainer {image, command, args, numNodes,
//    numProcPerNode, resourcesPerNode}, the runtime's name for the framework; conditions
//    Complete/Failed/Suspended.
//  - jobset.x-k8s.io/v1alpha2 JobSet: spec.replicatedJobs {name, replicas, template.spec
//    .parallelism}, status.replicatedJobsStatus (counts of Jobs, each its parallelism pods),
//    terminalState, conditions, spec.suspend.
//  - ray.io/v1 RayCluster: head + spec.workerGroupSpecs {groupName, replicas x numOfHosts},
//    status.state ready/suspended/failed, readyWorkerReplicas. RayJob: its rayClusterSpec the
//    same way, spec.entrypoint as its command, status.jobDeploymentStatus and jobStatus.
//  - leaderworkerset.x-k8s.io/v1 LeaderWorkerSet: spec.replicas groups of leaderWorkerTemplate
//    .size pods; roles "leaders" and "workers"; world size = one group's GPUs (a serving replica).
//  - sagemaker.amazonaws.com/v1 HyperPodPyTorchJob: spec.replicaSpecs [{name, replicas,
//    template}], spec.nprocPerNode, conditions.
namespace KubeWorkloadReaders {
void readReplicated(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload);
void readKubeflowJob(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload);
void readTrainJob(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload);
void readHyperPodJob(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload);
void readJobSet(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload);
void readRayCluster(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload);
void readRayJob(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload);
void readLeaderWorkerSet(const QJsonObject &spec, const QJsonObject &status, KubeWorkload &workload);
} // namespace KubeWorkloadReaders

} // namespace strata
