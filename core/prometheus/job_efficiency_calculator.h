#pragma once

#include "health_thresholds.h"
#include "host_name_resolver.h"
#include "history_query_plan.h"
#include "prometheus_response.h"

#include "model/job_record.h"

#include <QHash>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace strata {

struct ClusterSnapshot;

// Jobs' GPU efficiency over a history period from the cluster-wide answers of HistoryQueryPlan,
// with jobstats' figures: mean utilisation, peak memory, mean power, and the allocated GPU-hours
// that were idle (a step's mean utilisation under HealthThresholds::idleUtilPercent).
//
// Which series are a job's, best first (JobEfficiency::Basis):
//   Exact       the exporter labels the series with the job (hpc_job; "namespace/pod"): every
//               point whose step overlaps the job's run, weighted by the overlap; a Kubernetes
//               workload's series are its pods' (JobRecord::pods), each weighted by the overlap
//               with that pod's own span (a retry or a rollout never counts another pod's time);
//   Indices     the accounting recorded the GPU indices the job held on each node;
//   WholeNodes  the job held every GPU of its nodes (its GPUs equal the nodes' GPU count);
//   for these two only points whose whole step lies inside the run count (an edge step mixes in
//   the GPU's previous or next holder); a job shorter than that takes its edge steps, weighted;
//   where a GPU has two series in one step (the exporter's job label appeared or went within
//   it), the busier reading is the job's.
// A job that shared its nodes with no indices recorded is Unattributable, never guessed.
// Exporter host names reach node names as in the live join (HostNameResolver: the profile's
// host label and relabel map, addresses).
//
// Pure, no I/O: feed it the answers (add(), in any order, chunk by chunk, so a whole period is
// never held at once) and fill() the records. Not thread-safe: one thread at a time (the
// reader holds a lock around add()). Work: O(series points + jobs' points), no job x job.
class JobEfficiencyCalculator
{
public:
    using Metric = HistoryQueryPlan::Metric;

    // The cluster's nodes: names the exporters' host names resolve to, their addresses, and
    // how many GPUs each has (for WholeNodes). Records' own nodes are added to the names.
    struct Nodes
    {
        QStringList names;
        QVector<QStringList> addresses; // by index in names; may be shorter
        QHash<QString, int> gpuCount;   // by name; missing or 0: unknown
        static Nodes fromSnapshot(const ClusterSnapshot *snapshot); // nullptr: none
    };

    struct Context
    {
        qint64 periodStart = 0, periodEnd = 0; // seconds since the epoch
        qint64 stepSeconds = 0;
        QString hostLabel;
        QMap<QString, QString> hostRelabel;
        HealthThresholds thresholds;
    };

    JobEfficiencyCalculator(const QVector<JobRecord> &records, const Nodes &nodes, Context context);

    // One answer (one metric, one chunk). A failed answer adds nothing.
    void add(Metric metric, const PrometheusResponse &answer);
    // Sets every record's efficiency (records: the same list, same order, as constructed with).
    void fill(QVector<JobRecord> &records) const;

    // Series without a numeric `gpu` label, and series whose host names no node.
    int skippedSeries() const { return m_skippedSeries; }
    int unmatchedSeries() const { return m_unmatchedSeries; }

private:
    struct Sum
    {
        double utilWeighted = 0, utilWeight = 0, idleWeight = 0;
        double memPeak = -1;
        double powerWeighted = 0, powerWeight = 0;
        QSet<qint64> gpus; // (node << 20 | gpu), or a labelled series' own number
        bool any() const { return utilWeight > 0 || memPeak >= 0 || powerWeight > 0; }
    };
    struct Run
    {
        qint64 start = 0, end = 0; // clipped to the period; end <= start: no run inside it
    };
    void addPoint(Sum &sum, Metric metric, double value, double weight, qint64 gpuKey) const;
    int resolveNode(const PrometheusSeries &series);

    Context m_context;
    QVector<Run> m_runs;
    QVector<JobEfficiency::Basis> m_attribution; // Indices, WholeNodes, Unattributable or None
    QHash<QString, int> m_recordById;
    struct PodRun
    {
        int record = -1;
        Run run;
    };
    QHash<QString, PodRun> m_podRuns; // "namespace/pod" -> its workload's record, its own span
    QHash<qint64, QVector<int>> m_recordsByGpu; // (node << 20 | gpu) -> records by start
    QStringList m_nodeNames;
    std::optional<HostNameResolver> m_resolver;
    QHash<QString, int> m_nodeByCandidates;   // joined host candidates -> node (cache)
    QVector<Sum> m_exact, m_inside, m_edges;    // by record
    qint64 m_nextLabelledKey = qint64(1) << 40; // gpus of Exact series: one per series
    int m_skippedSeries = 0, m_unmatchedSeries = 0;
};

} // namespace strata
