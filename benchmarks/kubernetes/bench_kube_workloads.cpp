// Strata's own cost of Kubernetes workloads at scale, without a cluster: a synthetic cluster of
// 2,000 GPU nodes and 50,000 pods owned by 2,000 workloads (by default; a quarter each
// PyTorchJob -> pods, Deployment -> ReplicaSet -> pods, JobSet -> batch Job -> pods,
// LeaderWorkerSet -> leader StatefulSet -> leader pod -> worker StatefulSet -> pods, with the
// ownerReferences their controllers write) as the API lists them; parses each list and groups
// every pod under its workload (KubernetesPartBuilder), printing wall time and peak RSS per step.
// Usage: bench_kube_workloads [NODES PODS WORKLOADS]
#include "peak_rss.h"
#include "kubernetes/kube_job_parser.h"
#include "kubernetes/kube_pod_parser.h"
#include "kubernetes/kube_workload_parser.h"
#include "kubernetes/kubernetes_part_builder.h"
#include "model/node.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHash>

#include <cstdio>

using namespace strata;
using strata::bench::peakRssMiB;

namespace {

QByteArray uid(char kind, int i)
{
    return QByteArray(8, kind) + "-0000-4000-8000-" + QByteArray::number(i).rightJustified(12, '0');
}

QByteArray ownerRef(const QByteArray &apiVersion, const QByteArray &kind, const QByteArray &name, const QByteArray &ownerUid)
{
    return R"("ownerReferences":[{"apiVersion":")" + apiVersion + R"(","blockOwnerDeletion":true,"controller":true,"kind":")" + kind
           + R"(","name":")" + name + R"(","uid":")" + ownerUid + R"("}],)";
}

QByteArray metadata(const QByteArray &name, const QByteArray &objectUid, const QByteArray &owner = {})
{
    return R"("metadata":{"creationTimestamp":"2026-12-01T10:00:00Z","generation":1,"labels":{"app":")" + name + R"("},"name":")" + name
           + R"(","namespace":"scale",)" + owner + R"("resourceVersion":"5","uid":")" + objectUid + R"("})";
}

const QByteArray kTemplate = R"({"metadata":{"labels":{"app":"x"}},"spec":{"containers":[{"name":"main","image":"nvcr.io/nvidia/pytorch:24.10-py3","command":["torchrun","--nnodes=4","--nproc_per_node=8","train.py"],"resources":{"limits":{"nvidia.com/gpu":"1"}}}],"restartPolicy":"Never"}})";

struct Lists
{
    QHash<QByteArray, QByteArray> byResource; // "pods" -> its list
    void add(const QByteArray &resource, const QByteArray &object)
    {
        QByteArray &list = byResource[resource];
        list += list.isEmpty() ? QByteArray(R"({"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":"9"},"items":[)") : ",";
        list += object;
    }
};

QByteArray pod(int i, int nodes, const QByteArray &name, const QByteArray &owner)
{
    return R"({"apiVersion":"v1","kind":"Pod",)" + metadata(name, uid('1', i), owner)
           + R"(,"spec":{"containers":[{"name":"main","image":"nvcr.io/nvidia/pytorch:24.10-py3","command":["torchrun","train.py"],"resources":{"limits":{"cpu":"8","nvidia.com/gpu":"1"},"requests":{"cpu":"8","nvidia.com/gpu":"1"}}}],"nodeName":"gpu-)"
           + QByteArray::number(i % nodes).rightJustified(5, '0')
           + R"(","restartPolicy":"Never"},"status":{"containerStatuses":[{"name":"main","ready":true,"restartCount":0,"started":true,"state":{"running":{"startedAt":"2026-12-01T10:00:01Z"}}}],"phase":"Running","startTime":"2026-12-01T10:00:00Z"}})";
}

Lists cluster(int nodes, int pods, int workloads)
{
    Lists lists;
    const int per = std::max(1, pods / workloads);
    int p = 0;
    for (int w = 0; w < workloads && p < pods; ++w) {
        const QByteArray name = "w-" + QByteArray::number(w);
        const int count = w == workloads - 1 ? pods - p : std::min(per, pods - p);
        const QByteArray wUid = uid('2', w);
        switch (w % 4) {
        case 0: // PyTorchJob -> pods
            lists.add("pytorchjobs", R"({"apiVersion":"kubeflow.org/v1","kind":"PyTorchJob",)" + metadata(name, wUid)
                                        + R"(,"spec":{"nprocPerNode":"1","pytorchReplicaSpecs":{"Master":{"replicas":1,"template":)" + kTemplate
                                        + R"(},"Worker":{"replicas":)" + QByteArray::number(count - 1) + R"(,"template":)" + kTemplate
                                        + R"(}}},"status":{"conditions":[{"type":"Running","status":"True"}],"replicaStatuses":{"Master":{"active":1},"Worker":{"active":)"
                                        + QByteArray::number(count - 1) + "}}}}");
            for (int i = 0; i < count; ++i, ++p)
                lists.add("pods", pod(p, nodes, name + "-worker-" + QByteArray::number(i),
                                      ownerRef("kubeflow.org/v1", "PyTorchJob", name, wUid)));
            break;
        case 1: { // Deployment -> ReplicaSet -> pods
            const QByteArray rsUid = uid('3', w);
            lists.add("deployments", R"({"apiVersion":"apps/v1","kind":"Deployment",)" + metadata(name, wUid) + R"(,"spec":{"replicas":)"
                                         + QByteArray::number(count) + R"(,"template":)" + kTemplate + R"(},"status":{"replicas":)"
                                         + QByteArray::number(count) + R"(,"readyReplicas":)" + QByteArray::number(count) + "}}");
            lists.add("replicasets", R"({"apiVersion":"apps/v1","kind":"ReplicaSet",)"
                                         + metadata(name + "-5d8f", rsUid, ownerRef("apps/v1", "Deployment", name, wUid))
                                         + R"(,"spec":{"replicas":)" + QByteArray::number(count) + R"(,"template":)" + kTemplate + "}}");
            for (int i = 0; i < count; ++i, ++p)
                lists.add("pods", pod(p, nodes, name + "-5d8f-" + QByteArray::number(i), ownerRef("apps/v1", "ReplicaSet", name + "-5d8f", rsUid)));
            break;
        }
        case 2: { // JobSet -> Job -> pods
            const QByteArray jobUid = uid('4', w);
            lists.add("jobsets", R"({"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet",)" + metadata(name, wUid)
                                     + R"(,"spec":{"replicatedJobs":[{"name":"workers","replicas":1,"template":{"spec":{"parallelism":)"
                                     + QByteArray::number(count) + R"(,"template":)" + kTemplate
                                     + R"(}}}]},"status":{"replicatedJobsStatus":[{"name":"workers","active":1,"ready":1}]}})");
            lists.add("jobs", R"({"apiVersion":"batch/v1","kind":"Job",)"
                                  + metadata(name + "-workers-0", jobUid, ownerRef("jobset.x-k8s.io/v1alpha2", "JobSet", name, wUid))
                                  + R"(,"spec":{"parallelism":)" + QByteArray::number(count) + R"(,"template":)" + kTemplate
                                  + R"(},"status":{"active":)" + QByteArray::number(count) + "}}");
            for (int i = 0; i < count; ++i, ++p)
                lists.add("pods", pod(p, nodes, name + "-workers-0-" + QByteArray::number(i),
                                      ownerRef("batch/v1", "Job", name + "-workers-0", jobUid)));
            break;
        }
        default: { // LeaderWorkerSet -> leader StatefulSet -> leader pod -> worker StatefulSet -> pods
            const QByteArray leaderSts = uid('5', w), workerSts = uid('6', w);
            lists.add("leaderworkersets", R"({"apiVersion":"leaderworkerset.x-k8s.io/v1","kind":"LeaderWorkerSet",)" + metadata(name, wUid)
                                              + R"(,"spec":{"replicas":1,"leaderWorkerTemplate":{"size":)" + QByteArray::number(count)
                                              + R"(,"workerTemplate":)" + kTemplate + R"(}},"status":{"replicas":1,"readyReplicas":1}})");
            lists.add("statefulsets", R"({"apiVersion":"apps/v1","kind":"StatefulSet",)"
                                          + metadata(name, leaderSts, ownerRef("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", name, wUid))
                                          + R"(,"spec":{"replicas":1,"template":)" + kTemplate + "}}");
            const QByteArray leaderUid = uid('1', p);
            lists.add("pods", pod(p++, nodes, name + "-0", ownerRef("apps/v1", "StatefulSet", name, leaderSts)));
            lists.add("statefulsets", R"({"apiVersion":"apps/v1","kind":"StatefulSet",)"
                                          + metadata(name + "-0", workerSts, ownerRef("v1", "Pod", name + "-0", leaderUid))
                                          + R"(,"spec":{"replicas":)" + QByteArray::number(count - 1) + R"(,"template":)" + kTemplate + "}}");
            for (int i = 1; i < count; ++i, ++p)
                lists.add("pods", pod(p, nodes, name + "-0-" + QByteArray::number(i), ownerRef("apps/v1", "StatefulSet", name + "-0", workerSts)));
        }
        }
    }
    for (QByteArray &list : lists.byResource)
        list += "]}";
    return lists;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int nodeCount = argc > 1 ? atoi(argv[1]) : 2000;
    const int podCount = argc > 2 ? atoi(argv[2]) : 50000;
    const int workloadCount = argc > 3 ? atoi(argv[3]) : 2000;
    QElapsedTimer t;
    t.start();
    const Lists lists = cluster(nodeCount, podCount, std::max(1, workloadCount));
    qint64 bytes = 0;
    for (const QByteArray &list : lists.byResource)
        bytes += list.size();
    std::printf("generated %d pods of %d workloads (%.1f MB of lists) in %lld ms\n", podCount, workloadCount, bytes / 1e6,
                t.elapsed());

    t.restart();
    KubePodParseResult pods = KubePodParser::parse(lists.byResource.value("pods"));
    const qint64 podMs = t.elapsed();
    t.restart();
    KubeJobParseResult jobs = KubeJobParser::parse(lists.byResource.value("jobs"));
    QVector<KubeWorkload> workloads;
    const struct
    {
        const char *resource, *kind, *apiVersion;
    } kinds[] = {{"pytorchjobs", "PyTorchJob", "kubeflow.org/v1"}, {"deployments", "Deployment", "apps/v1"},
                 {"replicasets", "ReplicaSet", "apps/v1"}, {"statefulsets", "StatefulSet", "apps/v1"},
                 {"jobsets", "JobSet", "jobset.x-k8s.io/v1alpha2"}, {"leaderworkersets", "LeaderWorkerSet", "leaderworkerset.x-k8s.io/v1"}};
    for (const auto &k : kinds) {
        const QByteArray list = lists.byResource.value(k.resource);
        if (list.isEmpty())
            continue;
        KubeWorkloadParseResult parsed = KubeWorkloadParser::parse(list, QLatin1StringView(k.kind), QString::fromLatin1(k.apiVersion));
        if (!parsed.error.isEmpty()) {
            std::printf("%s: %s\n", k.resource, qPrintable(parsed.error));
            return 1;
        }
        workloads += parsed.workloads;
    }
    const qint64 objectMs = t.elapsed();
    std::printf("parse: pods %lld ms; Jobs and %lld workload objects %lld ms; peak RSS %ld MiB\n", podMs,
                qint64(workloads.size()), objectMs, peakRssMiB());

    QVector<Node> nodes(nodeCount);
    for (int i = 0; i < nodeCount; ++i) {
        nodes[i].name = QStringLiteral("gpu-%1").arg(i, 5, 10, QLatin1Char('0'));
        nodes[i].gpuCount = 8;
    }
    qint64 best = -1;
    OrchestratorPart part;
    for (int run = 0; run < 3; ++run) { // a window rebuilds the part on every refresh
        t.restart();
        part = KubernetesPartBuilder::build(nodes, pods.pods, jobs.jobs, workloads, 1796230000);
        best = best < 0 ? t.elapsed() : std::min(best, t.elapsed());
    }
    qint64 grouped = 0;
    for (const Job &job : part.jobs)
        grouped += job.pods.size();
    std::printf("group + join: %lld ms (best of 3), %lld workloads holding %lld pods; peak RSS %ld MiB\n", best,
                qint64(part.jobs.size()), grouped, peakRssMiB());
    return part.jobs.size() == workloadCount && grouped == podCount ? 0 : 1;
}
