#include "kube_workload_history.h"

#include "model/gpu_count.h"

#include <QHash>

#include <algorithm>
#include <cmath>
#include <limits>

namespace strata {

using namespace Qt::StringLiterals;

namespace {

// Chains longer than this (hostile or cyclic owners) end where the walk stopped, as KubeOwnerChain.
constexpr int kMaxDepth = 16;
// Times past this (year 2286) are no pod's: a hostile or broken value.
constexpr double kLatestSeconds = 1e10;
constexpr int kWarningsNamed = 5;

// The owner kinds the chain is walked through, read once from kube-state-metrics' owner_kind
// ("<none>" where a pod or ReplicaSet has no owner).
enum class OwnerKind { None, Node, ReplicaSet, Job, Other };

OwnerKind ownerKindOf(const QString &word)
{
    static const QHash<QString, OwnerKind> kinds{{u"<none>"_s, OwnerKind::None}, {QString(), OwnerKind::None},
                                                 {u"Node"_s, OwnerKind::Node}, {u"ReplicaSet"_s, OwnerKind::ReplicaSet},
                                                 {u"Job"_s, OwnerKind::Job}};
    return kinds.value(word, OwnerKind::Other);
}

// A pod's phase, read once; only the ended ones decide anything.
JobState phaseOf(const QString &word)
{
    static const QHash<QString, JobState> phases{{u"Pending"_s, JobState::Pending}, {u"Running"_s, JobState::Running},
                                                 {u"Succeeded"_s, JobState::Succeeded}, {u"Failed"_s, JobState::Failed}};
    return phases.value(word, JobState::Other);
}

struct Pod
{
    QString namespaceName, name, node;
    double gpus = 0;
    double start = std::numeric_limits<double>::quiet_NaN();
    double end = std::numeric_limits<double>::quiet_NaN();
    double seen = std::numeric_limits<double>::quiet_NaN();
    JobState phase = JobState::Other;
    bool phaseKnown = false;
    OwnerKind owner = OwnerKind::None;
    QString ownerKind, ownerName;
    QString bad; // why its values cannot be read; empty: fine
    bool gpusBad = false; // its GPU request itself cannot be read
};

struct Owner
{
    OwnerKind kindOf = OwnerKind::None;
    QString kind, name;
};

bool isPlainName(const QString &name)
{
    if (name.isEmpty() || name.size() > 253)
        return false;
    for (QChar c : name)
        if (c == u'/' || c.unicode() < 0x20 || c == u'"' || c == u'\\' || c.isSpace())
            return false;
    return true;
}

bool isTime(double seconds)
{
    return std::isfinite(seconds) && seconds > 0 && seconds < kLatestSeconds;
}

QDateTime timeOf(double seconds)
{
    return QDateTime::fromMSecsSinceEpoch(qint64(std::llround(seconds * 1000.0)), Qt::UTC);
}

std::optional<double> valueOf(const PrometheusSeries &series)
{
    if (series.samples.isEmpty())
        return std::nullopt;
    return series.samples.constLast().value;
}

class PodTable
{
public:
    // The pod a series names, made on first sight; nullptr (counted) for a name no pod has.
    Pod *pod(const PrometheusSeries &series, bool create)
    {
        const QString ns = series.label(u"namespace");
        const QString name = series.label(u"pod");
        const QString key = ns + u'/' + name;
        if (const auto it = m_index.constFind(key); it != m_index.constEnd())
            return *it < 0 ? nullptr : &m_pods[*it];
        if (!create)
            return nullptr;
        if (!isPlainName(ns) || !isPlainName(name)) {
            ++m_badNames;
            if (m_badNameExamples.size() < kWarningsNamed)
                m_badNameExamples << QString(ns.left(60) + u'/' + name.left(60)).simplified();
            m_index.insert(key, -1);
            return nullptr;
        }
        m_index.insert(key, int(m_pods.size()));
        m_pods.append(Pod{});
        m_pods.last().namespaceName = ns;
        m_pods.last().name = name;
        return &m_pods.last();
    }
    Pod *find(const PrometheusSeries &series)
    {
        const auto it = m_index.constFind(series.label(u"namespace") + u'/' + series.label(u"pod"));
        return it == m_index.constEnd() || *it < 0 ? nullptr : &m_pods[*it];
    }

    QVector<Pod> m_pods;
    QHash<QString, int> m_index; // "ns/pod" -> index; -1: a name no pod can have
    int m_badNames = 0;
    QStringList m_badNameExamples;
};

void setBad(Pod &pod, const QString &why)
{
    if (pod.bad.isEmpty())
        pod.bad = why;
}

} // namespace

QVector<KubeWorkloadHistory::Query> KubeWorkloadHistory::all()
{
    return {Query::Gpus, Query::Start, Query::End, Query::Seen, Query::Phase, Query::Owner, Query::ReplicaSetOwner,
            Query::JobOwner};
}

QString KubeWorkloadHistory::promql(Query query, qint64 rangeSeconds, qint64 stepSeconds)
{
    const QString range = QString::number(std::max<qint64>(rangeSeconds, 1)) + u's';
    switch (query) {
    case Query::Gpus:
        return u"max by (namespace, pod, container, node) (max_over_time(kube_pod_container_resource_requests"
               u"{resource=\"nvidia_com_gpu\"}[%1]))"_s.arg(range);
    case Query::Start:
        return u"max by (namespace, pod) (max_over_time(kube_pod_start_time[%1]))"_s.arg(range);
    case Query::End:
        return u"max by (namespace, pod) (max_over_time(kube_pod_completion_time[%1]))"_s.arg(range);
    case Query::Seen:
        return u"max by (namespace, pod) (max_over_time(timestamp(kube_pod_container_resource_requests"
               u"{resource=\"nvidia_com_gpu\"})[%1:%2s]))"_s.arg(range).arg(std::max<qint64>(stepSeconds, 1));
    case Query::Phase:
        // Only the phase each pod was last in: kube-state-metrics exposes all five, 0 or 1, and
        // the four zeros were half the bytes of a 50,000-pod read.
        return u"max by (namespace, pod, phase) (last_over_time(kube_pod_status_phase[%1])) == 1"_s.arg(range);
    case Query::Owner:
        return u"max by (namespace, pod, owner_kind, owner_name) (max_over_time(kube_pod_owner"
               u"{owner_is_controller=\"true\"}[%1]))"_s.arg(range);
    case Query::ReplicaSetOwner:
        return u"max by (namespace, replicaset, owner_kind, owner_name) (max_over_time(kube_replicaset_owner[%1]))"_s
            .arg(range);
    case Query::JobOwner:
        return u"max by (namespace, job_name, owner_kind, owner_name) (max_over_time(kube_job_owner[%1]))"_s.arg(range);
    }
    return {};
}

QString KubeWorkloadHistory::relabelledProbe(qint64 rangeSeconds)
{
    return u"count(max_over_time(kube_pod_info{exported_namespace!=\"\"}[%1s]))"_s.arg(std::max<qint64>(rangeSeconds, 1));
}

QString KubeWorkloadHistory::statName(Query query)
{
    switch (query) {
    case Query::Gpus: return u"ksm-gpus"_s;
    case Query::Start: return u"ksm-start"_s;
    case Query::End: return u"ksm-end"_s;
    case Query::Seen: return u"ksm-seen"_s;
    case Query::Phase: return u"ksm-phase"_s;
    case Query::Owner: return u"ksm-owner"_s;
    case Query::ReplicaSetOwner: return u"ksm-replicaset-owner"_s;
    case Query::JobOwner: return u"ksm-job-owner"_s;
    }
    return {};
}

QString KubeWorkloadHistory::frameworkOfKind(const QString &kind)
{
    static const QHash<QString, QString> frameworks{{u"PyTorchJob"_s, u"torch.distributed"_s},
                                                    {u"HyperPodPyTorchJob"_s, u"torch.distributed"_s},
                                                    {u"RayJob"_s, u"ray"_s},
                                                    {u"RayCluster"_s, u"ray"_s}};
    return frameworks.value(kind);
}

KubeWorkloadHistory::Result KubeWorkloadHistory::build(const Answers &answers, const HistoryPeriod &period,
                                                       qint64 stepSeconds)
{
    Result result;
    const auto answer = [&](Query q) -> const QVector<PrometheusSeries> & {
        static const QVector<PrometheusSeries> none;
        const PrometheusResponse &r = answers[size_t(q)];
        return r.ok ? r.series : none;
    };
    for (Query q : all())
        result.anySeries = result.anySeries || !answer(q).isEmpty();
    if (!period.isValid())
        return result;

    PodTable table;
    // GPUs first: only pods that requested a GPU are kept; the other answers list every pod.
    for (const PrometheusSeries &s : answer(Query::Gpus)) {
        Pod *pod = table.pod(s, true);
        if (!pod)
            continue;
        const double v = valueOf(s).value_or(std::numeric_limits<double>::quiet_NaN());
        if (!std::isfinite(v) || v < 0 || v != std::floor(v) || v > GpuCount::kMaxPerNode) {
            setBad(*pod, u"a container requests %1 GPUs"_s.arg(v));
            pod->gpusBad = true;
            continue;
        }
        pod->gpus += v;
        const QString node = s.label(u"node");
        if (!node.isEmpty())
            pod->node = node;
    }
    for (const PrometheusSeries &s : answer(Query::Start))
        if (Pod *pod = table.find(s)) {
            const double v = valueOf(s).value_or(-1);
            if (isTime(v))
                pod->start = v;
            else
                setBad(*pod, u"start time %1"_s.arg(v));
        }
    for (const PrometheusSeries &s : answer(Query::End))
        if (Pod *pod = table.find(s)) {
            const double v = valueOf(s).value_or(-1);
            if (isTime(v))
                pod->end = v;
            else
                setBad(*pod, u"completion time %1"_s.arg(v));
        }
    for (const PrometheusSeries &s : answer(Query::Seen))
        if (Pod *pod = table.find(s)) {
            const double v = valueOf(s).value_or(-1);
            if (isTime(v))
                pod->seen = v;
        }
    for (const PrometheusSeries &s : answer(Query::Phase))
        if (Pod *pod = table.find(s))
            if (valueOf(s).value_or(0) == 1.0) {
                const JobState phase = phaseOf(s.label(u"phase"));
                // Two phases at 1 cannot come from one scrape; the ended one is the later word.
                if (!pod->phaseKnown || hasEnded(phase)) {
                    pod->phase = phase;
                    pod->phaseKnown = true;
                }
            }
    for (const PrometheusSeries &s : answer(Query::Owner))
        if (Pod *pod = table.find(s)) {
            const QString kind = s.label(u"owner_kind"), name = s.label(u"owner_name");
            const OwnerKind kindOf = ownerKindOf(kind);
            if (kindOf == OwnerKind::None || !isPlainName(name))
                continue;
            // Two controllers cannot own one pod; keep the first in the answer's (sorted) order.
            if (pod->owner == OwnerKind::None) {
                pod->owner = kindOf;
                pod->ownerKind = kind;
                pod->ownerName = name;
            }
        }
    const auto owners = [&](Query q, QStringView objectLabel) {
        QHash<QString, Owner> byObject;
        for (const PrometheusSeries &s : answer(q)) {
            const QString kind = s.label(u"owner_kind"), name = s.label(u"owner_name");
            const OwnerKind kindOf = ownerKindOf(kind);
            if (kindOf == OwnerKind::None || !isPlainName(name))
                continue;
            const QString key = s.label(u"namespace") + u'/' + s.label(objectLabel);
            if (!byObject.contains(key))
                byObject.insert(key, Owner{kindOf, kind, name});
        }
        return byObject;
    };
    const QHash<QString, Owner> replicaSetOwners = owners(Query::ReplicaSetOwner, u"replicaset");
    const QHash<QString, Owner> jobOwners = owners(Query::JobOwner, u"job_name");

    const double periodStart = double(period.start.toMSecsSinceEpoch()) / 1000.0;
    const double periodEnd = double(period.end.toMSecsSinceEpoch()) / 1000.0;
    const double step = double(std::max<qint64>(stepSeconds, 1));
    const double goneBefore = periodEnd - kGoneAfterSteps * step;
    // The last time the `seen` subquery was evaluated (Prometheus aligns a subquery's steps to
    // multiples of its resolution); a pod started after it is still running unless it finished.
    const double lastEvaluation = std::floor(periodEnd / step) * step;

    struct Workload
    {
        QString namespaceName, kind, name;
        QVector<PodSpan> pods;
        QVector<JobState> phases; // by pod
    };
    QVector<Workload> workloads;
    QHash<QString, int> workloadById;
    QStringList badExamples;
    for (Pod &pod : table.m_pods) {
        if (pod.gpus <= 0 && !pod.gpusBad)
            continue; // held no GPU
        if (pod.gpus > GpuCount::kMaxPerNode)
            setBad(pod, u"its containers request %1 GPUs together"_s.arg(pod.gpus));
        if (!pod.bad.isEmpty()) {
            ++result.skippedPods;
            if (badExamples.size() < kWarningsNamed)
                badExamples << u"%1/%2: %3"_s.arg(pod.namespaceName, pod.name, pod.bad);
            continue;
        }
        if (!std::isfinite(pod.start))
            continue; // never started
        if (std::isfinite(pod.end) && pod.end < pod.start) {
            ++result.skippedPods;
            if (badExamples.size() < kWarningsNamed)
                badExamples << u"%1/%2: completed before it started"_s.arg(pod.namespaceName, pod.name);
            continue;
        }
        // kube_pod_completion_time is the latest finishedAt of the containers that have
        // terminated: a sidecar that ended gives a running pod one. It is the pod's end only
        // once the pod's phase has ended; a pod gone from the scrapes without that (deleted)
        // ended at its last scrape. A pod whose phase was never scraped: its completion time.
        const bool finished = pod.phaseKnown ? hasEnded(pod.phase) : std::isfinite(pod.end);
        const bool gone = std::isfinite(pod.seen) && pod.seen < goneBefore;
        double end = std::numeric_limits<double>::quiet_NaN();
        bool endedBySeen = false;
        if (finished && std::isfinite(pod.end)) {
            end = pod.end;
        } else if ((finished || gone) && std::isfinite(pod.seen)) {
            end = std::max(pod.seen, pod.start);
            endedBySeen = true;
        } else if (!std::isfinite(pod.seen) && pod.start < lastEvaluation) {
            // `seen` is asked at every step: a pod it never saw lived between two of them and
            // was gone at the next (a ReplicaSet's pod deleted by a rollout seconds after it
            // started). Its end is taken as that step, at most one step late.
            end = std::min(std::floor(pod.start / step) * step + step, periodEnd);
            ++result.podsShortLived;
        }
        if (pod.start >= periodEnd || (std::isfinite(end) && end <= periodStart))
            continue; // did not run inside the period
        if (endedBySeen)
            ++result.podsEndedBySeen;

        // The top of the owner chain, as KubeOwnerChain names workloads live.
        OwnerKind top = pod.owner;
        QString kind = pod.ownerKind, name = pod.ownerName;
        const bool bare = top == OwnerKind::None || top == OwnerKind::Node; // or a static pod's mirror
        if (bare) {
            kind = u"Pod"_s;
            name = pod.name;
        }
        for (int depth = 0; !bare && depth < kMaxDepth; ++depth) {
            const QHash<QString, Owner> *above = top == OwnerKind::ReplicaSet ? &replicaSetOwners
                                                 : top == OwnerKind::Job      ? &jobOwners
                                                                              : nullptr;
            if (!above)
                break;
            const auto it = above->constFind(pod.namespaceName + u'/' + name);
            if (it == above->constEnd())
                break;
            top = it->kindOf;
            kind = it->kind;
            name = it->name;
        }
        const QString id = bare || top == OwnerKind::Job ? pod.namespaceName + u'/' + name
                                                         : pod.namespaceName + u'/' + kind + u'/' + name;
        auto it = workloadById.constFind(id);
        if (it == workloadById.constEnd()) {
            it = workloadById.insert(id, int(workloads.size()));
            workloads.append(Workload{pod.namespaceName, kind, name, {}, {}});
        }
        PodSpan span;
        span.key = pod.namespaceName + u'/' + pod.name;
        span.node = pod.node;
        span.gpus = int(pod.gpus);
        span.started = timeOf(pod.start);
        if (std::isfinite(end))
            span.ended = timeOf(end);
        workloads[*it].pods.append(span);
        workloads[*it].phases.append(pod.phase);
        ++result.pods;
    }

    result.records.reserve(workloads.size());
    for (auto it = workloadById.cbegin(); it != workloadById.cend(); ++it) {
        Workload &w = workloads[it.value()];
        JobRecord r;
        r.id = it.key();
        r.name = w.name;
        r.account = w.namespaceName;
        r.framework = frameworkOfKind(w.kind);
        bool running = false;
        int last = -1; // the pod that ended last
        QVector<std::pair<QDateTime, int>> changes; // GPUs taken (+) and given back (-)
        changes.reserve(w.pods.size() * 2);
        for (int i = 0; i < w.pods.size(); ++i) {
            const PodSpan &p = w.pods[i];
            if (!r.started.isValid() || p.started < r.started)
                r.started = p.started;
            if (!p.ended.isValid())
                running = true;
            else if (last < 0 || p.ended > w.pods[last].ended)
                last = i;
            if (!p.node.isEmpty() && !r.nodes.contains(p.node))
                r.nodes << p.node;
            changes.append({p.started, p.gpus});
            if (p.ended.isValid())
                changes.append({p.ended, -p.gpus});
        }
        // Given back before taken at the same instant: a retry that starts as its pod ends is no peak.
        std::sort(changes.begin(), changes.end(), [](const auto &a, const auto &b) {
            return a.first != b.first ? a.first < b.first : a.second < b.second;
        });
        int held = 0;
        for (const auto &change : std::as_const(changes)) {
            held += change.second;
            r.gpus = std::max(r.gpus, held);
        }
        if (running) {
            r.state = JobState::Running;
        } else {
            r.ended = w.pods[last].ended;
            const JobState phase = w.phases[last];
            // Gone without having ended (deleted while running): Other, its word says so.
            r.state = phase == JobState::Succeeded || phase == JobState::Failed ? phase : JobState::Other;
        }
        r.stateWord = r.state == JobState::Other ? u"DELETED"_s : jobStateName(r.state);
        std::sort(w.pods.begin(), w.pods.end(),
                  [](const PodSpan &a, const PodSpan &b) { return a.started != b.started ? a.started < b.started : a.key < b.key; });
        r.pods = std::move(w.pods);
        result.records.append(std::move(r));
    }
    std::sort(result.records.begin(), result.records.end(), [](const JobRecord &a, const JobRecord &b) {
        return a.started != b.started ? a.started < b.started : a.id < b.id;
    });

    if (table.m_badNames > 0)
        result.warnings << u"%1 pods with names Kubernetes does not allow were skipped (%2)"_s.arg(table.m_badNames).arg(
            table.m_badNameExamples.join(u", "_s));
    if (result.skippedPods > 0)
        result.warnings << u"%1 pods with values that cannot be a pod's were skipped (%2)"_s.arg(result.skippedPods).arg(
            badExamples.join(u"; "_s));
    result.skippedPods += table.m_badNames;
    if (result.podsShortLived > 0)
        result.warnings << u"%1 pods lived less than one step (%2 s) and were gone at the next without a "
                           u"completion time: taken as ended at that step"_s.arg(result.podsShortLived).arg(stepSeconds);
    if (result.podsEndedBySeen > 0)
        result.warnings << u"%1 pods were gone before kube-state-metrics saw them finish (deleted, or no completion "
                           u"time): taken as ended when last scraped"_s.arg(result.podsEndedBySeen);
    return result;
}

} // namespace strata
