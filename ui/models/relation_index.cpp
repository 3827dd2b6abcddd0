#include "relation_index.h"

namespace strata {

namespace {

QString instanceTypeOf(const Node &node)
{
    return node.instanceType.isEmpty() ? QStringLiteral("unknown") : node.instanceType;
}

QString frameworkOf(const Job &job)
{
    return job.framework.isEmpty() ? WorkloadGroup::unrecognised() : job.framework;
}

quint64 allGpuMask(const Node &node)
{
    const int count = qMin(64, qMax(node.gpuCount, int(node.gpus.size())));
    return count >= 64 ? ~quint64(0) : (quint64(1) << count) - 1;
}

} // namespace

RelationIndex RelationIndex::build(const SnapshotPtr &snapshot)
{
    RelationIndex index;
    index.m_snapshot = snapshot;
    if (!snapshot)
        return index;
    const ClusterSnapshot &s = *snapshot;
    for (int i = 0; i < s.jobs.size(); ++i) {
        const Job &job = s.jobs[i];
        index.m_jobsByPartition[job.partition] << i;
        if (job.isRunning() || job.isPending())
            index.m_jobsByFramework[frameworkOf(job)] << i;
        if (job.isRunning() || !job.gpus.isEmpty())
            for (const QString &node : job.nodes)
                index.m_jobsByNode[node] << i;
    }
    for (int i = 0; i < s.nodes.size(); ++i) {
        const Node &node = s.nodes[i];
        index.m_nodesByInstanceType[instanceTypeOf(node)] << i;
        for (const QString &p : node.partitions)
            index.m_nodesByPartition[p] << i;
    }
    // Partitions that list nodes the nodes themselves do not mention (Kubernetes pools).
    for (const Partition &p : s.partitions) {
        QVector<int> &nodes = index.m_nodesByPartition[p.name];
        for (const QString &name : p.nodes) {
            const int n = s.nodeIndexByName.value(name, -1);
            if (n >= 0 && !nodes.contains(n) && !s.nodes[n].partitions.contains(p.name))
                nodes << n;
        }
    }
    return index;
}

void RelationIndex::addNode(Relations &r, const Node &node, bool allGpus, bool withJobs) const
{
    r.nodes.insert(node.name);
    r.instanceTypes.insert(instanceTypeOf(node));
    for (const QString &p : node.partitions)
        r.partitions.insert(p);
    if (allGpus)
        r.gpus[node.name] |= allGpuMask(node);
    if (withJobs)
        for (int j : m_jobsByNode.value(node.name)) {
            const Job &job = m_snapshot->jobs[j];
            r.jobs.insert(job.id);
            if (job.isRunning())
                r.frameworks.insert(frameworkOf(job));
        }
}

Relations RelationIndex::relatedTo(const StackElement &element) const
{
    Relations r;
    if (!m_snapshot || !element.isValid())
        return r;
    const ClusterSnapshot &s = *m_snapshot;
    switch (element.layer) {
    case StackElement::Layer::None: break;
    case StackElement::Layer::Job: {
        const Job *job = s.job(element.key);
        if (!job)
            break;
        r.jobs.insert(job->id);
        r.partitions.insert(job->partition);
        if (job->isRunning() || job->isPending())
            r.frameworks.insert(frameworkOf(*job));
        for (const QString &name : job->nodes) {
            const Node *node = s.node(name);
            if (!node)
                continue;
            r.nodes.insert(name);
            r.instanceTypes.insert(instanceTypeOf(*node));
            const QVector<int> held = job->gpus.value(name);
            for (int gpu : held)
                if (gpu >= 0 && gpu < 64)
                    r.gpus[name] |= quint64(1) << gpu;
        }
        break;
    }
    case StackElement::Layer::Node:
        if (const Node *node = s.node(element.key))
            addNode(r, *node, true, true);
        break;
    case StackElement::Layer::Gpu: {
        const Node *node = s.node(element.key);
        if (!node || element.gpu < 0 || element.gpu >= 64)
            break;
        addNode(r, *node, false, false);
        r.gpus[node->name] |= quint64(1) << element.gpu;
        if (element.gpu < node->gpus.size() && !node->gpus[element.gpu].jobId.isEmpty()) {
            r.jobs.insert(node->gpus[element.gpu].jobId);
            if (const Job *job = s.job(node->gpus[element.gpu].jobId); job && job->isRunning())
                r.frameworks.insert(frameworkOf(*job));
        }
        break;
    }
    case StackElement::Layer::Framework:
        // Its jobs, and where the running ones run: their nodes, the GPUs they hold.
        r.frameworks.insert(element.key);
        for (int j : m_jobsByFramework.value(element.key)) {
            const Job &job = s.jobs[j];
            r.jobs.insert(job.id);
            r.partitions.insert(job.partition);
            if (!job.isRunning())
                continue;
            for (const QString &name : job.nodes) {
                const Node *node = s.node(name);
                if (!node)
                    continue;
                r.nodes.insert(name);
                r.instanceTypes.insert(instanceTypeOf(*node));
                for (int gpu : job.gpus.value(name))
                    if (gpu >= 0 && gpu < 64)
                        r.gpus[name] |= quint64(1) << gpu;
            }
        }
        break;
    case StackElement::Layer::Partition:
        r.partitions.insert(element.key);
        for (int n : m_nodesByPartition.value(element.key)) {
            addNode(r, s.nodes[n], true, false);
        }
        // The partition's own nodes may belong to other partitions too; show only this one.
        r.partitions = {element.key};
        for (int j : m_jobsByPartition.value(element.key))
            r.jobs.insert(s.jobs[j].id);
        break;
    case StackElement::Layer::InstanceType:
        for (int n : m_nodesByInstanceType.value(element.key))
            addNode(r, s.nodes[n], true, true);
        break;
    }
    return r;
}

} // namespace strata
