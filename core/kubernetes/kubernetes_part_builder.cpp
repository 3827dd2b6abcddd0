#include "kubernetes_part_builder.h"

#include "kube_gpu_labels.h"
#include "kube_owner_chain.h"

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

QLatin1StringView queueLabel()
{
    return QLatin1StringView("kueue.x-k8s.io/queue-name");
}

// Kueue holds a workload suspended until its ClusterQueue admits it: that is waiting, not paused.
void setSuspended(Job &job, const QString &why)
{
    if (!job.queueName.isEmpty()) {
        job.setState(u"PENDING"_s);
        job.reason = u"waiting for Kueue to admit it (queue %1)"_s.arg(job.queueName);
    } else {
        job.setState(u"SUSPENDED"_s);
        job.reason = why;
    }
}

// What every workload carries from its pods: their ids and container restarts.
void fillPodFacts(Job &job, const QVector<const KubePod *> &pods)
{
    job.pods.reserve(pods.size());
    for (const KubePod *pod : pods) {
        job.pods << pod->key();
        job.restarts += pod->restarts;
    }
    std::sort(job.pods.begin(), job.pods.end());
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
    job.workloadKind = u"Job"_s;
    job.workloadApiVersion = u"batch/v1"_s;
    job.queueName = kube.labels.value(queueLabel());
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
        setSuspended(job, {});
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
    job.workloadKind = u"Pod"_s;
    job.workloadApiVersion = u"v1"_s;
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


Job jobFromWorkload(const KubeWorkload &w, const QVector<const KubePod *> &pods, qint64 now)
{
    Job job;
    job.id = KubeOwnerChain::workloadId(w.namespaceName, w.kind, w.name);
    job.name = w.name;
    job.user = w.submittedBy.isEmpty() ? w.namespaceName : w.submittedBy;
    job.partition = w.namespaceName;
    job.submitTime = w.createdAt;
    job.startTime = w.startedAt;
    if (job.startTime == 0)
        for (const KubePod *pod : pods)
            if (pod->startedAt > 0 && (job.startTime == 0 || pod->startedAt < job.startTime))
                job.startTime = pod->startedAt;
    job.timeLimitSeconds = 0;
    job.command = w.command;
    job.image = w.image;
    job.script = w.script;
    job.workDir = w.workDir;
    job.kindLabel = w.labels.value(u"strata.io/workload-kind"_s);
    job.workloadKind = w.kind;
    job.workloadApiVersion = w.apiVersion;
    job.queueName = w.labels.value(queueLabel());
    job.roles = w.roles;
    job.framework = w.framework;
    job.worldSize = w.worldSize;
    using Phase = KubeWorkload::Phase;
    bool finished = true;
    if (w.phase == Phase::Succeeded) {
        job.setState(u"SUCCEEDED"_s);
    } else if (w.phase == Phase::Failed) {
        job.setState(u"FAILED"_s);
        job.reason = w.reason;
    } else if (w.deleting) {
        job.setState(u"TERMINATING"_s);
    } else if (w.phase == Phase::Suspended) {
        setSuspended(job, w.reason);
    } else {
        job.setState(u"RUNNING"_s); // demoted to PENDING below unless a pod runs
        finished = false;
    }
    if (job.startTime > 0) {
        const qint64 end = finished && w.finishedAt > 0 ? w.finishedAt : now;
        job.timeUsedSeconds = std::max<qint64>(0, end - job.startTime);
    }
    fillFromPods(job, pods, finished);
    fillPodFacts(job, pods);
    if (!finished && job.stateKind == JobState::Running && pods.isEmpty()) {
        job.setState(u"PENDING"_s);
        job.reason = w.reason.isEmpty() ? u"no pods yet"_s : w.reason;
    } else if (job.isPending() && job.reason.isEmpty()) {
        job.reason = w.reason;
    }
    if (job.gpusRequested == 0)
        job.gpusRequested = w.gpusWanted;
    return job;
}

// The pods of an owner Strata does not list, as one workload: its state is theirs.
Job jobFromUnlistedOwner(const KubeOwnerChain::Top &top, const QVector<const KubePod *> &pods, qint64 now)
{
    Job job;
    job.id = top.id;
    job.name = top.unlisted.name;
    job.user = top.namespaceName;
    job.partition = top.namespaceName;
    job.timeLimitSeconds = 0;
    job.workloadKind = top.unlisted.kind;
    job.workloadApiVersion = top.unlisted.apiVersion;
    const KubePod *main = nullptr;
    bool live = false;
    bool failed = false;
    bool deleting = true;
    for (const KubePod *pod : pods) {
        if (!main || (main->gpus == 0 && pod->gpus > 0))
            main = pod;
        live = live || !pod->isTerminated();
        failed = failed || pod->phase == QLatin1String("Failed");
        deleting = deleting && pod->deleting;
        if (pod->createdAt > 0 && (job.submitTime == 0 || pod->createdAt < job.submitTime))
            job.submitTime = pod->createdAt;
        if (pod->startedAt > 0 && (job.startTime == 0 || pod->startedAt < job.startTime))
            job.startTime = pod->startedAt;
    }
    if (main) {
        job.command = main->command;
        job.image = main->image;
        job.script = main->script;
        job.workDir = main->workDir;
        job.kindLabel = main->labels.value(u"strata.io/workload-kind"_s);
    }
    bool finished = true;
    if (!live) {
        job.setState(failed ? u"FAILED"_s : u"SUCCEEDED"_s);
    } else if (deleting) {
        job.setState(u"TERMINATING"_s);
    } else {
        job.setState(u"RUNNING"_s);
        finished = false;
    }
    if (job.startTime > 0)
        job.timeUsedSeconds = std::max<qint64>(0, now - job.startTime);
    fillFromPods(job, pods, finished);
    fillPodFacts(job, pods);
    return job;
}

bool requestsGpus(const QVector<const KubePod *> &pods)
{
    return std::any_of(pods.cbegin(), pods.cend(), [](const KubePod *pod) { return pod->gpus > 0; });
}

} // namespace

OrchestratorPart KubernetesPartBuilder::build(QVector<Node> nodes, const QVector<KubePod> &pods,
                                              const QVector<KubeJob> &jobs, qint64 nowSeconds)
{
    return build(std::move(nodes), pods, jobs, {}, nowSeconds);
}

OrchestratorPart KubernetesPartBuilder::build(QVector<Node> nodes, const QVector<KubePod> &pods,
                                              const QVector<KubeJob> &jobs, const QVector<KubeWorkload> &workloads,
                                              qint64 nowSeconds)
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
    for (const KubePod &pod : pods) {
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

    const QVector<KubeOwnerChain::Group> groups = KubeOwnerChain::group(pods, jobs, workloads);
    part.jobs.reserve(groups.size());
    for (const KubeOwnerChain::Group &group : groups) {
        using Type = KubeOwnerChain::Top::Type;
        switch (group.top.type) {
        case Type::BatchJob:
            part.jobs << jobFromKubeJob(jobs[group.top.index], group.pods, nowSeconds);
            fillPodFacts(part.jobs.last(), group.pods);
            break;
        case Type::Workload:
            part.jobs << jobFromWorkload(workloads[group.top.index], group.pods, nowSeconds);
            break;
        case Type::BarePod: // a pod of its own is a workload when it asks for GPUs, as before
            if (requestsGpus(group.pods)) {
                part.jobs << jobFromBarePod(pods[group.top.index], nowSeconds);
                fillPodFacts(part.jobs.last(), group.pods);
            }
            break;
        case Type::Unlisted: // a DaemonSet's or an unknown operator's pods: shown when they ask for GPUs
            if (requestsGpus(group.pods))
                part.jobs << jobFromUnlistedOwner(group.top, group.pods, nowSeconds);
            break;
        case Type::Orphan:
            break;
        }
    }

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
