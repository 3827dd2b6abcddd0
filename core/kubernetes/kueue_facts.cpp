#include "kueue_facts.h"

#include <QHash>
#include <QSet>

#include <algorithm>

namespace strata {

namespace {

using namespace Qt::StringLiterals;

bool waits(const KueueWorkload &w)
{
    return w.state == KueueWorkload::State::Pending || w.state == KueueWorkload::State::Evicted;
}

// The ClusterQueue a workload belongs to: where quota was reserved, else its LocalQueue's.
QString clusterQueueOf(const KueueWorkload &w, const QHash<QString, QString> &localToCluster)
{
    if (!w.clusterQueue.isEmpty())
        return w.clusterQueue;
    return localToCluster.value(w.namespaceName + u'/' + w.queueName);
}

} // namespace

QString KueueFacts::waitingReason(const KueueWorkload &w)
{
    switch (w.state) {
    case KueueWorkload::State::Evicted: {
        QString why = w.reason.isEmpty() ? u"evicted"_s : u"evicted (%1)"_s.arg(w.reason);
        if (!w.preemptedReason.isEmpty())
            why = u"preempted (%1)"_s.arg(w.preemptedReason);
        return w.message.isEmpty() ? u"Kueue: %1, waiting for quota again"_s.arg(why)
                                   : u"Kueue: %1, waiting for quota again: %2"_s.arg(why, w.message);
    }
    case KueueWorkload::State::Inactive:
        return u"Kueue: held out of its queue (the Workload's spec.active is false)"_s;
    case KueueWorkload::State::Reserved:
        return w.message.isEmpty() ? u"Kueue: quota reserved in %1, waiting for admission checks"_s.arg(w.clusterQueue)
                                   : u"Kueue: quota reserved, waiting for admission checks: %1"_s.arg(w.message);
    case KueueWorkload::State::Pending:
        return w.message.isEmpty() ? u"Kueue: waiting for quota"_s : u"Kueue: %1"_s.arg(w.message);
    case KueueWorkload::State::Admitted:
    case KueueWorkload::State::Finished:
        break;
    }
    return {};
}

void KueueFacts::apply(OrchestratorPart &part, const KueueObjects &objects)
{
    QHash<QString, QString> localToCluster;
    for (const Queue &lq : objects.localQueues)
        localToCluster.insert(lq.id(), lq.clusterQueue);

    // Pending workloads per ClusterQueue.
    QHash<QString, QVector<const KueueWorkload *>> waiting;
    QHash<QString, const KueueWorkload *> byKey;
    for (const KueueWorkload &w : objects.workloads) {
        byKey.insert(w.key(), &w);
        if (waits(w))
            waiting[clusterQueueOf(w, localToCluster)] << &w;
    }
    QHash<QString, int> positionOf; // workload key -> position in its ClusterQueue

    // The job each workload stands for: its owner by Strata's id, of the same kind where the job
    // says its kind (a Deployment "big" is not the JobSet "big").
    QHash<QString, int> jobIndex;
    for (int i = 0; i < part.jobs.size(); ++i)
        jobIndex.insert(part.jobs[i].id, i);
    const auto jobOf = [&](const KueueWorkload &w) -> int {
        const int i = jobIndex.value(w.ownerJobId(), -1);
        if (i < 0)
            return -1;
        const Job &job = part.jobs[i];
        return job.workloadKind.isEmpty() || job.workloadKind == w.ownerKind ? i : -1;
    };

    QVector<Queue> clusterQueues = objects.clusterQueues;
    std::sort(clusterQueues.begin(), clusterQueues.end(), [](const Queue &a, const Queue &b) { return a.name < b.name; });
    for (Queue &cq : clusterQueues) {
        const QVector<const KueueWorkload *> mine = waiting.value(cq.name);
        const auto pendingEntry = [](const KueueWorkload &w) {
            QueuePendingWorkload p;
            p.workload = w.key();
            p.jobId = w.ownerJobId();
            p.jobKind = w.ownerKind;
            p.localQueue = w.queueName;
            p.priority = w.priority;
            p.gpus = w.gpus;
            p.reason = waitingReason(w);
            p.evicted = w.state == KueueWorkload::State::Evicted;
            return p;
        };
        const auto visible = objects.positions.constFind(cq.name);
        if (visible != objects.positions.constEnd()) {
            cq.positionSource = Queue::PositionSource::Visibility;
            QSet<QString> placed;
            for (const KueuePendingPosition &position : *visible) {
                const KueueWorkload *w = byKey.value(position.key());
                QueuePendingWorkload p;
                if (w) {
                    p = pendingEntry(*w);
                } else { // listed by Kueue, not (yet) by the Workload list
                    p.workload = position.key();
                    p.localQueue = position.localQueue;
                    p.priority = position.priority;
                }
                p.position = position.positionInClusterQueue;
                positionOf.insert(position.key(), position.positionInClusterQueue);
                placed.insert(position.key());
                cq.pending << p;
            }
            std::stable_sort(cq.pending.begin(), cq.pending.end(), [](const QueuePendingWorkload &a,
                                                                      const QueuePendingWorkload &b) {
                return a.position.value_or(0) < b.position.value_or(0);
            });
            for (const KueueWorkload *w : mine) // waiting, but past what the answer listed
                if (!placed.contains(w->key()))
                    cq.pending << pendingEntry(*w);
        } else if (!mine.isEmpty()) {
            cq.positionSource = Queue::PositionSource::CreationOrder;
            QVector<const KueueWorkload *> ordered = mine;
            std::sort(ordered.begin(), ordered.end(), [](const KueueWorkload *a, const KueueWorkload *b) {
                if (a->priority != b->priority)
                    return a->priority > b->priority;
                if (a->createdAt != b->createdAt)
                    return a->createdAt < b->createdAt;
                return a->key() < b->key();
            });
            for (int i = 0; i < ordered.size(); ++i) {
                QueuePendingWorkload p = pendingEntry(*ordered[i]);
                p.position = i;
                positionOf.insert(ordered[i]->key(), i);
                cq.pending << p;
            }
        }
    }
    QVector<Queue> localQueues = objects.localQueues;
    std::sort(localQueues.begin(), localQueues.end(), [](const Queue &a, const Queue &b) { return a.id() < b.id(); });
    part.queues = std::move(clusterQueues);
    part.queues += localQueues;

    // The jobs the workloads stand for.
    for (const KueueWorkload &w : objects.workloads) {
        const int index = jobOf(w);
        if (index < 0)
            continue;
        Job &job = part.jobs[index];
        job.queueName = w.queueName;
        if (job.hasEnded() || w.state == KueueWorkload::State::Finished)
            continue;
        const QString reason = waitingReason(w);
        if (w.state == KueueWorkload::State::Inactive) {
            if (!job.isRunning()) // held: its state stays as its controller says (suspended)
                job.reason = reason;
        } else if (waits(w)) {
            if (const auto p = positionOf.constFind(w.key()); p != positionOf.constEnd())
                job.queuePosition = job.queuePosition ? std::min(*job.queuePosition, *p) : *p;
            if (!job.isRunning()) {
                job.setState(u"PENDING"_s);
                job.reason = reason;
                if (job.gpusRequested == 0)
                    job.gpusRequested = w.gpus;
            }
        } else if (w.state == KueueWorkload::State::Reserved && !job.isRunning()) {
            job.setState(u"PENDING"_s);
            job.reason = reason;
        }
    }
}

} // namespace strata
