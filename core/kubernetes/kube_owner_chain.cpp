#include "kube_owner_chain.h"

#include "kube_workload_parser.h"
#include "kubectl_commands.h"

#include <QRegularExpression>

namespace strata {

using namespace Qt::StringLiterals;

QString KubeOwnerChain::workloadId(const QString &namespaceName, const QString &kind, const QString &name)
{
    return namespaceName + u'/' + kind + u'/' + name;
}

bool KubeOwnerChain::splitWorkloadId(const QString &id, QString *namespaceName, QString *kind, QString *name,
                                     QString *error)
{
    const QStringList parts = id.split(u'/');
    static const QRegularExpression plainKind(u"^[A-Za-z][A-Za-z0-9]{0,62}$"_s);
    if (parts.size() != 3 || !KubectlCommands::isValidNamespace(parts[0]) || !plainKind.match(parts[1]).hasMatch()
        || !KubectlCommands::isValidObjectName(parts[2])) {
        *error = u"\"%1\" is not a Kubernetes workload id: expected NAMESPACE/KIND/NAME, e.g. ml/PyTorchJob/llama"_s.arg(
            id.left(300));
        return false;
    }
    *namespaceName = parts[0];
    *kind = parts[1];
    *name = parts[2];
    return true;
}

namespace {

struct Listed
{
    KubeOwnerChain::Top::Type type;
    int index;
    const KubeOwnerReference *owner;
    const QString *namespaceName;
};

class Walker
{
public:
    Walker(const QVector<KubePod> &pods, const QVector<KubeJob> &jobs, const QVector<KubeWorkload> &workloads)
        : m_pods(pods), m_jobs(jobs), m_workloads(workloads)
    {
        // Pods own objects too: a LeaderWorkerSet's leader pod owns its group's worker StatefulSet.
        m_podOwners.reserve(pods.size());
        for (const KubePod &pod : pods)
            m_podOwners.append({pod.ownerApiVersion, pod.ownerKind, pod.ownerName, pod.ownerUid});
        m_listed.reserve(pods.size() + jobs.size() + workloads.size());
        for (int i = 0; i < pods.size(); ++i)
            if (!pods[i].uid.isEmpty())
                m_listed.insert(pods[i].uid, {KubeOwnerChain::Top::Type::BarePod, i, &m_podOwners[i], &pods[i].namespaceName});
        for (int i = 0; i < jobs.size(); ++i)
            if (!jobs[i].uid.isEmpty())
                m_listed.insert(jobs[i].uid, {KubeOwnerChain::Top::Type::BatchJob, i, &jobs[i].owner, &jobs[i].namespaceName});
        for (int i = 0; i < workloads.size(); ++i)
            if (!workloads[i].uid.isEmpty())
                m_listed.insert(workloads[i].uid,
                                {KubeOwnerChain::Top::Type::Workload, i, &workloads[i].owner, &workloads[i].namespaceName});
    }

    // The top above an owner reference made in namespace ns.
    KubeOwnerChain::Top above(const KubeOwnerReference &first, const QString &ns)
    {
        if (!first.uid.isEmpty())
            if (const auto cached = m_tops.constFind(first.uid); cached != m_tops.constEnd())
                return *cached;
        KubeOwnerReference ref = first;
        QString refNamespace = ns;
        KubeOwnerChain::Top top;
        for (int depth = 0;; ++depth) {
            const auto it = ref.uid.isEmpty() ? m_listed.constEnd() : m_listed.constFind(ref.uid);
            if (it == m_listed.constEnd() || depth >= KubeOwnerChain::kMaxDepth) {
                top = unlisted(ref, refNamespace);
                break;
            }
            if (it->owner->isEmpty()) {
                top = listed(*it);
                break;
            }
            ref = *it->owner;
            refNamespace = *it->namespaceName;
        }
        if (!first.uid.isEmpty())
            m_tops.insert(first.uid, top);
        return top;
    }

    KubeOwnerChain::Top listed(const Listed &object) const
    {
        KubeOwnerChain::Top top;
        top.type = object.type;
        top.index = object.index;
        if (object.type == KubeOwnerChain::Top::Type::BatchJob) {
            top.id = m_jobs[object.index].key();
        } else if (object.type == KubeOwnerChain::Top::Type::BarePod) {
            top.id = m_pods[object.index].key();
        } else {
            const KubeWorkload &w = m_workloads[object.index];
            top.id = KubeOwnerChain::workloadId(w.namespaceName, w.kind, w.name);
        }
        return top;
    }

private:
    static KubeOwnerChain::Top unlisted(const KubeOwnerReference &ref, const QString &ns)
    {
        KubeOwnerChain::Top top;
        // A batch Job Strata lists all of: one not listed has been deleted.
        const bool goneJob = KubeWorkloadParser::namesBatchJob(ref);
        top.type = goneJob ? KubeOwnerChain::Top::Type::Orphan : KubeOwnerChain::Top::Type::Unlisted;
        top.unlisted = ref;
        top.namespaceName = ns;
        top.id = KubeOwnerChain::workloadId(ns, ref.kind, ref.name);
        return top;
    }

    const QVector<KubePod> &m_pods;
    const QVector<KubeJob> &m_jobs;
    const QVector<KubeWorkload> &m_workloads;
    QVector<KubeOwnerReference> m_podOwners; // by pod index; never resized after the constructor
    QHash<QString, Listed> m_listed;          // uid -> listed object
    QHash<QString, KubeOwnerChain::Top> m_tops; // owner uid -> its top
};

} // namespace

QVector<KubeOwnerChain::Group> KubeOwnerChain::group(const QVector<KubePod> &pods, const QVector<KubeJob> &jobs,
                                                    const QVector<KubeWorkload> &workloads)
{
    Walker walker(pods, jobs, workloads);
    QVector<Group> groups;
    QHash<QString, int> groupOf; // id -> index in groups
    const auto add = [&](const Top &top) -> Group & {
        const auto it = groupOf.constFind(top.id);
        if (it != groupOf.constEnd())
            return groups[*it];
        groupOf.insert(top.id, int(groups.size()));
        groups.append(Group{top, {}});
        return groups.last();
    };
    for (int i = 0; i < jobs.size(); ++i)
        if (jobs[i].owner.isEmpty())
            add(walker.listed({Top::Type::BatchJob, i, &jobs[i].owner, &jobs[i].namespaceName}));
    for (int i = 0; i < workloads.size(); ++i)
        if (workloads[i].owner.isEmpty())
            add(walker.listed({Top::Type::Workload, i, &workloads[i].owner, &workloads[i].namespaceName}));
    for (int i = 0; i < pods.size(); ++i) {
        const KubePod &pod = pods[i];
        Top top;
        if (pod.ownerUid.isEmpty() && pod.ownerName.isEmpty()) {
            top.type = Top::Type::BarePod;
            top.index = i;
            top.id = pod.key();
        } else if (pod.ownerKind == "Node"_L1) {
            top.type = Top::Type::BarePod; // a static pod's mirror: the kubelet's, no workload above it
            top.index = i;
            top.id = pod.key();
        } else {
            top = walker.above({pod.ownerApiVersion, pod.ownerKind, pod.ownerName, pod.ownerUid}, pod.namespaceName);
        }
        if (top.type == Top::Type::Orphan)
            continue;
        add(top).pods << &pod;
    }
    return groups;
}

} // namespace strata
