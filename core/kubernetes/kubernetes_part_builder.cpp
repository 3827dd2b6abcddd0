#include "kubernetes_part_builder.h"

#include "kube_gpu_labels.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace strata {

namespace {

using namespace Qt::StringLiterals;

QString pendingReason(const QVector<const KubePod *> &pods)
{
    for (const KubePod *pod : pods)
        if (pod->reason == QLatin1String("Unschedulable") && !pod->message.isEmpty())
            return pod->message;
    for (const KubePod *pod : pods)
        if (!pod->status.isEmpty() && pod->status != QLatin1String("Pending"))
            return pod->message.isEmpty() ? pod->status : u"%1: %2"_s.arg(pod->status, pod->message);
    return {};
}

void fillFromPods(Job &job, const QVector<const KubePod *> &pods, bool finished)
{
    QVector<const KubePod *> active;
    for (const KubePod *pod : pods)
        if (!pod->isTerminated())
            active << pod;
    const QVector<const KubePod *> &placed = finished || active.isEmpty() ? pods : active;
    QSet<QString> seen;
    for (const KubePod *pod : placed)
        if (!pod->nodeName.isEmpty() && !seen.contains(pod->nodeName)) {
            seen.insert(pod->nodeName);
            job.nodes << pod->nodeName;
        }
    std::sort(job.nodes.begin(), job.nodes.end());
    if (finished)
        return;
    for (const KubePod *pod : active) {
        job.gpusRequested += pod->gpus;
        if (!pod->nodeName.isEmpty() && !pod->gpuIndices.isEmpty()) {
            QVector<int> &indices = job.gpus[pod->nodeName];
            indices += pod->gpuIndices;
            std::sort(indices.begin(), indices.end());
        }
    }
    bool running = false;
    for (const KubePod *pod : active)
        running = running || pod->phase == QLatin1String("Running");
    if (!running && !active.isEmpty() && job.stateKind == JobState::Running) {
        job.setState(u"PENDING"_s);
        job.reason = pendingReason(active);
    }
}

// A pod's GPU requests against its node: whole GPUs, shares of time-sliced or MPS GPUs, MIG
// devices (their own resources under "mixed", nvidia.com/gpu under "single").
void countGpuRequests(Node &node, const KubePod &pod)
{
    GpuSharing &sharing = node.gpuSharing;
    for (auto it = pod.gpuResources.constBegin(); it != pod.gpuResources.constEnd(); ++it) {
        const QString &resource = it.key();
        const int amount = it.value();
        if (resource.startsWith(KubeGpuLabels::migResourcePrefix())) {
            sharing.migDevicesAllocated[resource.mid(KubeGpuLabels::migResourcePrefix().size())] += amount;
        } else if (sharing.isMig() && resource == sharing.resource) {
            if (!sharing.migDevices.isEmpty())
                sharing.migDevicesAllocated[sharing.migDevices.firstKey()] += amount;
        } else if (!sharing.isMig() && sharing.isShared() && resource == sharing.resource) {
            sharing.sharesAllocated += amount;
        } else if (resource == KubeGpuLabels::gpuResource()) {
            node.gpusAllocated += amount;
        }
    }
}

Job jobFromKubeJob(const KubeJob &kube, const QVector<const KubePod *> &pods, qint64 now)
{
    Job job;
    job.id = kube.key();
    job.name = kube.name;
    job.user = kube.annotations.value(KubernetesPartBuilder::submittedByAnnotation(), kube.namespaceName);
    job.partition = kube.namespaceName;
    job.submitTime = kube.createdAt;
    job.startTime = kube.startedAt;
    job.timeLimitSeconds = kube.activeDeadlineSeconds > 0 ? kube.activeDeadlineSeconds : 0;
    job.command = kube.command;
    job.image = kube.image;
    job.script = kube.script;
    job.kindLabel = kube.labels.value(u"strata.io/workload-kind"_s);
    job.workDir = kube.workDir;
    bool finished = true;
    if (kube.finishedCondition == QLatin1String("Complete")) {
        job.setState(u"SUCCEEDED"_s);
    } else if (kube.finishedCondition == QLatin1String("Failed")) {
        job.setState(u"FAILED"_s);
        job.reason = kube.finishedMessage.isEmpty() ? kube.finishedReason
                                                    : u"%1: %2"_s.arg(kube.finishedReason, kube.finishedMessage);
    } else if (kube.deleting) {
        job.setState(u"TERMINATING"_s);
    } else if (kube.suspended) {
        job.setState(u"SUSPENDED"_s);
    } else {
        job.setState(u"RUNNING"_s); // demoted to PENDING below unless a pod runs
        finished = false;
    }
    if (job.startTime > 0) {
        const qint64 end = finished && kube.finishedAt > 0 ? kube.finishedAt : now;
        job.timeUsedSeconds = std::max<qint64>(0, end - job.startTime);
    }
    fillFromPods(job, pods, finished);
    if (!finished && job.stateKind == JobState::Running && pods.isEmpty()) {
        job.setState(u"PENDING"_s);
        job.reason = u"no pods yet"_s;
    }
    if (job.gpusRequested == 0) {
        const int atOnce = kube.completions ? std::min(kube.parallelism, *kube.completions) : kube.parallelism;
        job.gpusRequested = kube.gpusPerPod * std::max(1, atOnce);
    }
    return job;
}

Job jobFromBarePod(const KubePod &pod, qint64 now)
{
    Job job;
    job.id = pod.key();
    job.name = pod.name;
    job.user = pod.namespaceName;
    job.partition = pod.namespaceName;
    job.submitTime = pod.createdAt;
    job.startTime = pod.startedAt;
    job.timeLimitSeconds = 0;
    job.command = pod.command;
    job.image = pod.image;
    job.script = pod.script;
    job.kindLabel = pod.labels.value(u"strata.io/workload-kind"_s);
    job.workDir = pod.workDir;
    bool finished = true;
    if (pod.phase == QLatin1String("Succeeded")) {
        job.setState(u"SUCCEEDED"_s);
    } else if (pod.phase == QLatin1String("Failed")) {
        job.setState(u"FAILED"_s);
        job.reason = pod.message.isEmpty() ? pod.status : u"%1: %2"_s.arg(pod.reason, pod.message);
    } else if (pod.deleting) {
        job.setState(u"TERMINATING"_s);
    } else {
        job.setState(u"RUNNING"_s);
        finished = false;
    }
    if (job.startTime > 0)
        job.timeUsedSeconds = std::max<qint64>(0, (finished && pod.finishedAt > 0 ? pod.finishedAt : now) - job.startTime);
    fillFromPods(job, {&pod}, finished);
    if (job.gpusRequested == 0)
        job.gpusRequested = pod.gpus;
    return job;
}

} // namespace

OrchestratorPart KubernetesPartBuilder::build(QVector<Node> nodes, const QVector<KubePod> &pods,
                                              const QVector<KubeJob> &jobs, qint64 nowSeconds)
{
    OrchestratorPart part;
    QHash<QString, int> nodeIndex;
    nodeIndex.reserve(nodes.size());
    for (int i = 0; i < nodes.size(); ++i) {
        Node &node = nodes[i];
        nodeIndex.insert(node.name, i);
        node.gpus.resize(node.gpuCount);
        for (int g = 0; g < node.gpuCount; ++g) {
            node.gpus[g].index = g;
            node.gpus[g].model = node.gpuModel;
        }
    }
    QVector<double> cpus(nodes.size(), 0.0);
    QHash<QString, QVector<const KubePod *>> podsByJobUid;
    QVector<const KubePod *> barePods;
    for (const KubePod &pod : pods) {
        if (pod.ownerKind == QLatin1String("Job"))
            podsByJobUid[pod.ownerUid] << &pod;
        else if (pod.gpus > 0)
            barePods << &pod;
        if (!pod.holdsNode())
            continue;
        part.podNodes.insert(pod.key(), pod.nodeName);
        // By bare name too (what an exporter puts in `Hostname`); a name two namespaces use on
        // different nodes maps to nothing rather than a guess.
        if (const auto named = part.podNodes.find(pod.name); named == part.podNodes.end())
            part.podNodes.insert(pod.name, pod.nodeName);
        else if (*named != pod.nodeName)
            named->clear();
        const auto it = nodeIndex.constFind(pod.nodeName);
        if (it == nodeIndex.constEnd())
            continue;
        Node &node = nodes[*it];
        countGpuRequests(node, pod);
        cpus[*it] += pod.cpus;
        if (node.gpuSharing.isShared())
            continue; // indices of shares or MIG devices are not GPU indices
        for (int index : pod.gpuIndices) {
            node.gpuIndicesAllocated << index;
            if (index >= 0 && index < node.gpus.size())
                node.gpus[index].jobId = pod.key();
        }
    }
    for (int i = 0; i < nodes.size(); ++i) {
        // Summed requests of hostile pods can pass any int; more than int holds is "all of them".
        nodes[i].cpusAllocated = int(std::min(std::ceil(cpus[i] - 1e-9), double(std::numeric_limits<int>::max())));
        if (nodes[i].gpuSharing.isShared())
            nodes[i].gpusAllocated += nodes[i].gpuSharing.gpusInUseAtLeast(nodes[i].gpuCount - nodes[i].gpusAllocated);
        std::sort(nodes[i].gpuIndicesAllocated.begin(), nodes[i].gpuIndicesAllocated.end());
    }

    part.jobs.reserve(jobs.size() + barePods.size());
    for (const KubeJob &kube : jobs)
        part.jobs << jobFromKubeJob(kube, podsByJobUid.value(kube.uid), nowSeconds);
    for (const KubePod *pod : std::as_const(barePods))
        part.jobs << jobFromBarePod(*pod, nowSeconds);

    QMap<QString, Partition> pools;
    for (const Node &node : std::as_const(nodes)) {
        for (const QString &name : node.partitions) {
            Partition &pool = pools[name];
            pool.name = name;
            pool.nodes << node.name;
            pool.totalCpus += node.cpus;
            pool.totalGpus += node.gpuCount;
            if (!node.isDown()) // a Kubernetes node is down only when not Ready
                pool.state = u"UP"_s;
        }
    }
    for (Partition &pool : pools) {
        if (pool.state.isEmpty())
            pool.state = u"DOWN"_s;
        pool.maxTimeSeconds = 0;
        part.partitions << pool;
    }
    part.nodes = std::move(nodes);
    return part;
}

} // namespace strata
