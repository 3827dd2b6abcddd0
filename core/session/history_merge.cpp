#include "history_merge.h"

namespace strata {

JobRecord HistoryMerge::fromRunningJob(const Job &job)
{
    JobRecord r;
    r.id = job.id;
    r.name = job.name;
    r.user = job.user;
    r.partition = job.partition;
    r.state = job.stateKind;
    r.stateWord = job.state;
    if (job.submitTime > 0)
        r.submitted = QDateTime::fromSecsSinceEpoch(job.submitTime, Qt::UTC);
    if (job.startTime > 0)
        r.started = QDateTime::fromSecsSinceEpoch(job.startTime, Qt::UTC);
    r.nodes = job.nodes;
    const int held = job.gpuCountHeld();
    r.gpus = held > 0 ? held : job.gpusRequested;
    for (auto it = job.gpus.cbegin(); it != job.gpus.cend(); ++it)
        r.gpuIndicesByNode.insert(it.key(), it.value());
    r.framework = job.framework;
    return r;
}

QVector<JobRecord> HistoryMerge::merge(QVector<JobRecord> accounting, const ClusterSnapshot *latest,
                                       const HistoryPeriod &period)
{
    if (!latest)
        return accounting;
    QHash<QString, qsizetype> byId;
    byId.reserve(accounting.size());
    QHash<QString, qsizetype> byPod; // Kubernetes: "ns/pod" -> its workload's record
    for (qsizetype i = 0; i < accounting.size(); ++i) {
        byId.insert(accounting[i].id, i);
        for (const PodSpan &pod : std::as_const(accounting[i].pods))
            byPod.insert(pod.key, i);
    }
    for (const Job &job : latest->jobs) {
        if (!job.isRunning() && job.stateKind != JobState::Completing)
            continue;
        auto found = byId.constFind(job.id);
        if (found == byId.cend() && !byPod.isEmpty()) {
            // kube-state-metrics has no owners above some kinds (a TrainJob's JobSet, a
            // LeaderWorkerSet's StatefulSet): its record ends the chain lower than the live view
            // does. The same pods are the same workload: it takes the live view's id and name.
            for (const QString &key : job.pods) {
                const auto pod = byPod.constFind(key);
                if (pod == byPod.cend() || accounting[*pod].ended.isValid())
                    continue;
                JobRecord &r = accounting[*pod];
                byId.remove(r.id);
                r.id = job.id;
                r.name = job.name;
                found = byId.insert(job.id, *pod);
                break;
            }
        }
        if (found != byId.cend()) {
            JobRecord &r = accounting[*found];
            if (r.ended.isValid())
                continue; // accounting has seen it end since: its record is the later word
            if (r.gpuIndicesByNode.isEmpty())
                for (auto it = job.gpus.cbegin(); it != job.gpus.cend(); ++it)
                    r.gpuIndicesByNode.insert(it.key(), it.value());
            if (r.framework.isEmpty())
                r.framework = job.framework;
            continue;
        }
        if (job.startTime <= 0 || QDateTime::fromSecsSinceEpoch(job.startTime, Qt::UTC) >= period.end)
            continue; // not started inside the period
        byId.insert(job.id, accounting.size());
        accounting.append(fromRunningJob(job));
    }
    // The instance type of a record's first node whose type is known (a job's nodes are alike).
    for (JobRecord &r : accounting) {
        if (!r.instanceType.isEmpty())
            continue;
        for (const QString &name : std::as_const(r.nodes)) {
            const Node *node = latest->node(name);
            if (node && !node->instanceType.isEmpty()) {
                r.instanceType = node->instanceType;
                break;
            }
        }
    }
    return accounting;
}

} // namespace strata
