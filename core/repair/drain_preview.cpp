#include "drain_preview.h"

#include "model/cluster_snapshot.h"

#include <algorithm>

namespace strata {

namespace {

bool holdsNode(const Job &job)
{
    return job.stateKind == JobState::Running || job.stateKind == JobState::Completing;
}

// A job name as one quoted, printable piece of a sentence: control characters become '?', at
// most 40 characters (names are any bytes a user chose).
QString quotedName(const QString &name)
{
    QString shown = name.left(40);
    for (QChar &c : shown) {
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
            c = QLatin1Char('?');
    }
    return QLatin1Char('"') + shown + (name.size() > 40 ? QStringLiteral("...\"") : QStringLiteral("\""));
}

} // namespace

DrainPreview DrainPreview::of(const ClusterSnapshot &snapshot, const QString &nodeName)
{
    DrainPreview p;
    p.node = nodeName;
    const Node *node = snapshot.node(nodeName);
    p.nodeKnown = node != nullptr;
    for (const Job &job : snapshot.jobs) {
        if (!holdsNode(job) || !job.nodes.contains(nodeName))
            continue;
        AffectedJob a{job.id, job.name, job.user, 0};
        if (const auto it = job.gpus.constFind(nodeName); it != job.gpus.constEnd())
            a.gpusOnNode = int(it->size());
        else if (job.gpusRequested > 0 && !job.nodes.isEmpty())
            a.gpusOnNode = job.gpusRequested / int(job.nodes.size());
        p.jobs << a;
    }
    std::sort(p.jobs.begin(), p.jobs.end(), [](const AffectedJob &a, const AffectedJob &b) { return a.id < b.id; });
    if (!node)
        return p;
    for (const QString &partitionName : node->partitions) {
        const auto partition = std::find_if(snapshot.partitions.begin(), snapshot.partitions.end(),
                                            [&](const Partition &q) { return q.name == partitionName; });
        if (partition == snapshot.partitions.end())
            continue;
        PartitionCapacity c;
        c.name = partitionName;
        for (const QString &member : partition->nodes) {
            const Node *n = snapshot.node(member);
            ++c.nodes;
            if (!n || n->isUnavailable())
                continue;
            ++c.nodesInService;
            c.gpusInService += n->gpuCount;
            if (member != nodeName) {
                ++c.nodesInServiceAfter;
                c.gpusInServiceAfter += n->gpuCount;
            }
        }
        p.partitions << c;
    }
    return p;
}

QStringList DrainPreview::otherUsers(const QString &operatorUser) const
{
    QStringList users;
    for (const AffectedJob &j : jobs) {
        if (j.user != operatorUser && !users.contains(j.user))
            users << j.user;
    }
    users.sort();
    return users;
}

QString DrainPreview::summary() const
{
    QString s;
    if (!nodeKnown)
        return QStringLiteral("%1 is not in the cluster's node list").arg(node);
    if (jobs.isEmpty()) {
        s = QStringLiteral("%1 runs no job").arg(node);
    } else {
        QStringList parts;
        for (const AffectedJob &j : jobs)
            parts << QStringLiteral("%1 %2 (%3, %4 GPU%5)").arg(j.id, quotedName(j.name), j.user).arg(j.gpusOnNode).arg(j.gpusOnNode == 1 ? "" : "s");
        s = QStringLiteral("%1 runs %2 job%3: %4").arg(node).arg(jobs.size()).arg(jobs.size() == 1 ? "" : "s", parts.join(QStringLiteral(", ")));
    }
    for (const PartitionCapacity &c : partitions) {
        s += QStringLiteral("; partition %1 keeps %2 of %3 nodes (%4 of %5 GPUs) in service")
                 .arg(c.name)
                 .arg(c.nodesInServiceAfter)
                 .arg(c.nodes)
                 .arg(c.gpusInServiceAfter)
                 .arg(c.gpusInService);
    }
    return s;
}

} // namespace strata
