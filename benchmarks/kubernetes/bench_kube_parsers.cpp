// Parses kubectl `-o json` output of a large synthetic cluster (2,000 GPU nodes, 50,000 pods,
// 25,000 Jobs by default; shapes like the lab stand-in's captures plus the service-account
// volume real pods carry) and prints wall time, bytes and peak RSS per step.
// Usage: bench_kube_parsers [NODES PODS JOBS]
#include "peak_rss.h"
#include "kubernetes/kube_job_parser.h"
#include "kubernetes/kube_node_parser.h"
#include "kubernetes/kube_pod_parser.h"
#include "kubernetes/kubernetes_part_builder.h"
#include "model/gpu_catalog.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>

using namespace strata;
using strata::bench::peakRssMiB;

namespace {

QByteArray nodeName(int i)
{
    return "gpu-" + QByteArray::number(i).rightJustified(5, '0');
}

QByteArray nodesJson(int count)
{
    QByteArray out = R"({"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[)";
    for (int i = 0; i < count; ++i) {
        const bool h200 = i % 2;
        const QByteArray type = h200 ? "p5en.48xlarge" : "p5.48xlarge";
        const QByteArray product = h200 ? "NVIDIA-H200" : "NVIDIA-H100-80GB-HBM3";
        if (i)
            out += ',';
        out += R"({"apiVersion":"v1","kind":"Node","metadata":{"annotations":{"node.alpha.kubernetes.io/ttl":"0","volumes.kubernetes.io/controller-managed-attach-detach":"true"},"creationTimestamp":"2026-11-01T10:00:00Z","labels":{"beta.kubernetes.io/arch":"amd64","beta.kubernetes.io/instance-type":")"
               + type + R"(","beta.kubernetes.io/os":"linux","eks.amazonaws.com/capacityType":"ON_DEMAND","eks.amazonaws.com/nodegroup":"pool-)"
               + QByteArray::number(i % 16) + R"(","kubernetes.io/arch":"amd64","kubernetes.io/hostname":")" + nodeName(i)
               + R"(","kubernetes.io/os":"linux","node.kubernetes.io/instance-type":")" + type
               + R"(","nvidia.com/gpu.count":"8","nvidia.com/gpu.present":"true","nvidia.com/gpu.product":")" + product
               + R"(","sagemaker.amazonaws.com/node-health-status":"Schedulable","topology.kubernetes.io/zone":"zone-a"},"name":")"
               + nodeName(i) + R"(","resourceVersion":"1234","uid":"00000000-0000-4000-8000-)" + QByteArray::number(i).rightJustified(12, '0')
               + R"("},"spec":{"providerID":"aws:///zone-a/i-0123","taints":[{"effect":"NoSchedule","key":"nvidia.com/gpu"}]},"status":{"addresses":[{"address":"192.0.2.1","type":"InternalIP"},{"address":")"
               + nodeName(i) + R"(","type":"Hostname"}],"allocatable":{"cpu":"191450m","ephemeral-storage":"3454792176768","hugepages-1Gi":"0","memory":"2070762616Ki","nvidia.com/gpu":"8","pods":"100","vpc.amazonaws.com/efa":"32"},"capacity":{"cpu":"192","ephemeral-storage":"3748905368Ki","hugepages-1Gi":"0","memory":"2097027192Ki","nvidia.com/gpu":"8","pods":"100","vpc.amazonaws.com/efa":"32"},"conditions":[{"lastHeartbeatTime":"2026-12-01T10:00:00Z","lastTransitionTime":"2026-11-01T10:00:00Z","message":"kubelet has sufficient memory available","reason":"KubeletHasSufficientMemory","status":"False","type":"MemoryPressure"},{"lastHeartbeatTime":"2026-12-01T10:00:00Z","lastTransitionTime":"2026-11-01T10:00:00Z","message":"kubelet has no disk pressure","reason":"KubeletHasNoDiskPressure","status":"False","type":"DiskPressure"},{"lastHeartbeatTime":"2026-12-01T10:00:00Z","lastTransitionTime":"2026-11-01T10:00:00Z","message":"kubelet has sufficient PID available","reason":"KubeletHasSufficientPID","status":"False","type":"PIDPressure"},{"lastHeartbeatTime":"2026-12-01T10:00:00Z","lastTransitionTime":"2026-11-01T10:00:00Z","message":"kubelet is posting ready status","reason":"KubeletReady","status":"True","type":"Ready"}],"daemonEndpoints":{"kubeletEndpoint":{"Port":10250}},"nodeInfo":{"architecture":"amd64","bootID":"b","containerRuntimeVersion":"containerd://1.7.27","kernelVersion":"6.1.134","kubeProxyVersion":"v1.31.4-eks","kubeletVersion":"v1.31.4-eks","machineID":"m","operatingSystem":"linux","osImage":"Amazon Linux 2023","systemUUID":"s"}}})";
    }
    return out + "]}";
}

QByteArray podsJson(int count, int nodes, int jobs)
{
    QByteArray out = R"({"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[)";
    for (int i = 0; i < count; ++i) {
        const int job = i % jobs;
        const QByteArray jobName = "job-" + QByteArray::number(job);
        const QByteArray uid = "22222222-0000-4000-8000-" + QByteArray::number(job).rightJustified(12, '0');
        const bool running = i % 10 != 0;
        const QByteArray gpus = QByteArray::number(1 + i % 2);
        if (i)
            out += ',';
        out += R"({"apiVersion":"v1","kind":"Pod","metadata":{"creationTimestamp":"2026-12-01T10:00:00Z","finalizers":["batch.kubernetes.io/job-tracking"],"generateName":")"
               + jobName + R"(-","labels":{"batch.kubernetes.io/controller-uid":")" + uid + R"(","batch.kubernetes.io/job-name":")" + jobName
               + R"(","controller-uid":")" + uid + R"(","job-name":")" + jobName + R"("},"name":")" + jobName + "-p" + QByteArray::number(i)
               + R"(","namespace":"team-)" + QByteArray::number(job % 40) + R"(","ownerReferences":[{"apiVersion":"batch/v1","blockOwnerDeletion":true,"controller":true,"kind":"Job","name":")"
               + jobName + R"(","uid":")" + uid + R"("}],"resourceVersion":"5555","uid":"11111111-0000-4000-8000-)" + QByteArray::number(i).rightJustified(12, '0')
               + R"("},"spec":{"containers":[{"command":["sh","-c","python train.py --config /etc/cfg.yaml"],"env":[{"name":"NODE_NAME","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"spec.nodeName"}}}],"image":"nvcr.io/nvidia/pytorch:24.10-py3","imagePullPolicy":"IfNotPresent","name":"main","resources":{"limits":{"cpu":"8","memory":"64Gi","nvidia.com/gpu":")"
               + gpus + R"("},"requests":{"cpu":"8","memory":"64Gi","nvidia.com/gpu":")" + gpus
               + R"("}},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-x","readOnly":true}]}],"dnsPolicy":"ClusterFirst","enableServiceLinks":true,)"
               + (running ? R"("nodeName":")" + nodeName(i % nodes) + R"(",)" : QByteArray())
               + R"("preemptionPolicy":"PreemptLowerPriority","priority":0,"restartPolicy":"Never","schedulerName":"default-scheduler","securityContext":{},"serviceAccount":"default","serviceAccountName":"default","terminationGracePeriodSeconds":30,"tolerations":[{"effect":"NoSchedule","key":"nvidia.com/gpu","operator":"Exists"},{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}],"volumes":[{"name":"kube-api-access-x","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}}]},"status":)";
        if (running)
            out += R"({"conditions":[{"lastProbeTime":null,"lastTransitionTime":"2026-12-01T10:00:01Z","status":"True","type":"PodReadyToStartContainers"},{"lastProbeTime":null,"lastTransitionTime":"2026-12-01T10:00:00Z","status":"True","type":"Initialized"},{"lastProbeTime":null,"lastTransitionTime":"2026-12-01T10:00:01Z","status":"True","type":"Ready"},{"lastProbeTime":null,"lastTransitionTime":"2026-12-01T10:00:01Z","status":"True","type":"ContainersReady"},{"lastProbeTime":null,"lastTransitionTime":"2026-12-01T10:00:00Z","status":"True","type":"PodScheduled"}],"containerStatuses":[{"containerID":"containerd://30abc3e06204e0110947da68fd2014f2e30a1f103ae473080ae93ca8d5efad03","image":"nvcr.io/nvidia/pytorch:24.10-py3","imageID":"nvcr.io/nvidia/pytorch@sha256:cdb4176ec5a099a47b27224741595e8c444ee411c56b7ff61eb55a0fbddfbfae","lastState":{},"name":"main","ready":true,"restartCount":0,"started":true,"state":{"running":{"startedAt":"2026-12-01T10:00:01Z"}}}],"hostIP":"192.0.2.1","hostIPs":[{"ip":"192.0.2.1"}],"phase":"Running","podIP":"10.1.2.3","podIPs":[{"ip":"10.1.2.3"}],"qosClass":"Guaranteed","startTime":"2026-12-01T10:00:00Z"}})";
        else
            out += R"({"conditions":[{"lastProbeTime":null,"lastTransitionTime":"2026-12-01T10:00:00Z","message":"0/2000 nodes are available: 2000 Insufficient nvidia.com/gpu. preemption: 0/2000 nodes are available: 2000 No preemption victims found for incoming pod.","reason":"Unschedulable","status":"False","type":"PodScheduled"}],"phase":"Pending","qosClass":"Guaranteed"}})";
    }
    return out + "]}";
}

QByteArray jobsJson(int count)
{
    QByteArray out = R"({"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[)";
    for (int i = 0; i < count; ++i) {
        const QByteArray name = "job-" + QByteArray::number(i);
        const QByteArray uid = "22222222-0000-4000-8000-" + QByteArray::number(i).rightJustified(12, '0');
        if (i)
            out += ',';
        out += R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"creationTimestamp":"2026-12-01T10:00:00Z","generation":1,"labels":{"batch.kubernetes.io/controller-uid":")"
               + uid + R"(","batch.kubernetes.io/job-name":")" + name + R"(","controller-uid":")" + uid + R"(","job-name":")" + name
               + R"("},"name":")" + name + R"(","namespace":"team-)" + QByteArray::number(i % 40) + R"(","resourceVersion":"7777","uid":")" + uid
               + R"("},"spec":{"backoffLimit":0,"completionMode":"NonIndexed","completions":2,"manualSelector":false,"parallelism":2,"podReplacementPolicy":"TerminatingOrFailed","selector":{"matchLabels":{"batch.kubernetes.io/controller-uid":")"
               + uid + R"("}},"suspend":false,"template":{"metadata":{"labels":{"batch.kubernetes.io/controller-uid":")" + uid + R"(","job-name":")" + name
               + R"("}},"spec":{"containers":[{"command":["sh","-c","python train.py"],"image":"nvcr.io/nvidia/pytorch:24.10-py3","imagePullPolicy":"IfNotPresent","name":"main","resources":{"limits":{"nvidia.com/gpu":"1"}},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Never","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}},"status":{"active":2,"ready":2,"startTime":"2026-12-01T10:00:00Z","terminating":0,"uncountedTerminatedPods":{}}})";
    }
    return out + "]}";
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int nodes = argc > 1 ? atoi(argv[1]) : 2000;
    const int pods = argc > 2 ? atoi(argv[2]) : 50000;
    const int jobs = argc > 3 ? atoi(argv[3]) : 25000;
    QElapsedTimer t;
    t.start();
    const QByteArray nodeBytes = nodesJson(nodes);
    const QByteArray podBytes = podsJson(pods, nodes, jobs);
    const QByteArray jobBytes = jobsJson(jobs);
    std::printf("generated %d nodes (%.1f MB), %d pods (%.1f MB), %d jobs (%.1f MB) in %lld ms; RSS %ld MiB\n", nodes,
                nodeBytes.size() / 1e6, pods, podBytes.size() / 1e6, jobs, jobBytes.size() / 1e6, t.elapsed(), peakRssMiB());

    t.restart();
    KubeNodeParseResult n = KubeNodeParser::parse(nodeBytes, GpuCatalog::builtIn());
    const qint64 nodeMs = t.elapsed();
    std::printf("nodes: %lld ms, %lld parsed, peak RSS %ld MiB\n", nodeMs, qint64(n.nodes.size()), peakRssMiB());
    t.restart();
    KubePodParseResult p = KubePodParser::parse(podBytes);
    const qint64 podMs = t.elapsed();
    std::printf("pods:  %lld ms, %lld parsed, peak RSS %ld MiB\n", podMs, qint64(p.pods.size()), peakRssMiB());
    t.restart();
    KubeJobParseResult j = KubeJobParser::parse(jobBytes);
    const qint64 jobMs = t.elapsed();
    std::printf("jobs:  %lld ms, %lld parsed, peak RSS %ld MiB\n", jobMs, qint64(j.jobs.size()), peakRssMiB());
    t.restart();
    const OrchestratorPart part = KubernetesPartBuilder::build(std::move(n.nodes), p.pods, j.jobs, 1796230000);
    const qint64 buildMs = t.elapsed();
    int allocated = 0;
    for (const Node &node : part.nodes)
        allocated += node.gpusAllocated;
    std::printf("join:  %lld ms, %lld jobs, %d GPUs allocated, peak RSS %ld MiB\n", buildMs, qint64(part.jobs.size()),
                allocated, peakRssMiB());
    std::printf("total parse+join: %lld ms for %.1f MB\n", nodeMs + podMs + jobMs + buildMs,
                (nodeBytes.size() + podBytes.size() + jobBytes.size()) / 1e6);
    return p.error.isEmpty() && j.error.isEmpty() && !part.nodes.isEmpty() ? 0 : 1;
}
