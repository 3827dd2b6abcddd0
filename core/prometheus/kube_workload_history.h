#pragma once

#include "prometheus_response.h"

#include "model/history_period.h"
#include "model/job_record.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <array>

namespace strata {

// Finished and running Kubernetes workloads over a history period from kube-state-metrics'
// series in Prometheus: the Kubernetes side of the scheduler's accounting (Slurm's sacct).
//
// Eight instant queries, evaluated at the period's end T over the period's length R (whole
// seconds) and, for `seen`, the history step S. Every one is `max by`, so two kube-state-metrics
// replicas (HA) never count a pod twice:
//   Gpus            each container's nvidia_com_gpu request, with its node
//   Start, End      kube_pod_start_time (status.startTime), kube_pod_completion_time (the
//                   latest finishedAt of the containers that have terminated: the pod's end
//                   only once its phase is Succeeded or Failed)
//   Seen            when the pod's request series was last scraped (a pod deleted before
//                   kube-state-metrics saw it finish has no completion time)
//   Phase           the pod's last phase (`== 1`: only the phase it was in)
//   Owner, ReplicaSetOwner, JobOwner: the controller chain, Pod -> ReplicaSet -> Deployment,
//                   Pod -> Job -> CronJob / JobSet / ...
//
// build() makes one JobRecord per workload at the top of that chain, named as Strata names
// workloads live (KubeOwnerChain): "ns/name" for a batch Job or a bare pod, "ns/KIND/name" for
// any other kind. Pods that never started or held no GPU are left out; pods with hostile values
// (no name, NaN/Inf/negative times, more GPUs than a node has) are skipped and counted, never
// guessed at. Kubernetes records no submitter: user stays empty; account is the namespace.
// Pure, any thread; O(series), no pod x pod.
class KubeWorkloadHistory
{
public:
    enum class Query { Gpus, Start, End, Seen, Phase, Owner, ReplicaSetOwner, JobOwner };
    static constexpr int kQueryCount = 8;
    using Answers = std::array<PrometheusResponse, kQueryCount>;

    // A pod that has not been scraped for this many steps before the period's end, with no
    // completion time, has ended (deleted) at its last scrape.
    static constexpr int kGoneAfterSteps = 2;

    static QString promql(Query query, qint64 rangeSeconds, qint64 stepSeconds);
    // How many of kube-state-metrics' pod series carry `exported_namespace`: scraped without
    // honor_labels behind a ServiceMonitor, its pods' namespace and pod arrive renamed and every
    // query above would group them under the exporter's own pod. Anything above 0 fails the read.
    static QString relabelledProbe(qint64 rangeSeconds);
    static QString statName(Query query); // "ksm-gpus", ... (MetricsQueryStat::name)
    static QVector<Query> all();

    struct Result
    {
        QVector<JobRecord> records; // by first pod start, then id
        int pods = 0;               // pods kept
        int skippedPods = 0;        // hostile values, counted
        int podsEndedBySeen = 0;    // no completion time: ended at their last scrape
        int podsShortLived = 0;     // between two of `seen`'s steps, gone at the next: ended there
        QStringList warnings;       // what was skipped or guessed, a few named
        // Whether any kube-state-metrics series answered at all (none: not scraped).
        bool anySeries = false;
    };

    // answers: by Query, each an instant vector. Failed answers count as empty; the caller
    // decides whether a failed Gpus or Start answer fails the read.
    static Result build(const Answers &answers, const HistoryPeriod &period, qint64 stepSeconds);

    // The framework a workload kind says by itself ("PyTorchJob": torch.distributed); empty
    // when the kind does not say.
    static QString frameworkOfKind(const QString &kind);
};

} // namespace strata
