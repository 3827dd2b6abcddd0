#pragma once

#include "history_efficiency_answer.h"
#include "history_query_plan.h"
#include "metrics_part.h"
#include "metrics_query_plan.h"

#include "model/accounting_answer.h"
#include "model/cluster_snapshot.h"
#include "model/history_period.h"
#include "model/job.h"
#include "profile/cluster_profile.h"

#include <QFuture>
#include <QObject>

#include <memory>
#include <utility>

namespace strata {

class AlertmanagerClient;
class PushgatewayClient;
class MetricHistory;
class PrometheusClient;
class PrometheusMetricHistory;
struct MetricsRefreshState; // one refresh in flight (metrics_source.cpp)

// One whole metrics refresh: the MetricsQueryPlan queries, sent at once (they run in parallel
// on the server and over up to six connections), each answer parsed and converted on the
// QtConcurrent pool (answers over 4 MB one at a time, PrometheusClient::kSerialParseBytes),
// combined into one MetricsPart. Per refresh that is 9 HTTP requests (the gauges in
// Options::gaugeQueryParts = 4 parts, PCIe replays, targets, /api/v1/alerts, application
// metrics, fabric and storage), plus one more (the usage range) at most once per usageRefreshSeconds while jobs run, and
// one range query per link error counter (JobLinkErrors) as often while a job runs over several nodes: the same at 4
// nodes as at 2,000 nodes / 16,000 GPUs / 50,000 jobs. With an Alertmanager in the profile, 2
// more: its /api/v2/alerts and /api/v2/silences (AlertMerge joins its alerts to Prometheus's).
//
// Lives on the thread that creates it (it owns a PrometheusClient, which needs that thread's
// event loop); owned by ClusterSession. The future finishes on a pool thread: come back with
// whenFinished(future, context, ...) (model/when_finished.h), never then(context, ...).
// A refresh() while one runs returns the running one's future (no overlap).
//
// How ClusterSession uses it, each poll:
//   auto request = MetricsSource::Request::forJobs(previousSnapshot->jobs);
//   whenFinished(m_metrics->refresh(request), this, [](MetricsPart part) { ... keep it ... });
//   ... when merging the orchestrator part into the new snapshot:
//   MetricsJoin::apply(snapshot, part, profile);     // fills GPUs, jobs, findings
//   snapshot.sources << part.status();                // ok=false, "metrics unavailable: ..."
// If the part failed the session may join its last good part instead (marked stale).
class MetricsSource : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        MetricsQueryPlan::Options plan; // hostLabel comes from the profile
        int pcieReplayWindowMinutes = 10;
        int usageRefreshSeconds = 60;    // the usage history changes slowly; it is the big query
        int usageMaxPoints = 60;         // per GPU series: 16,384 GPUs x 2 metrics x 60 = 44 MiB of JSON
        int usageMinStepSeconds = 60;
        qint64 usageMaxWindowSeconds = 7 * 24 * 3600;
        int timeoutMs = 20000;
        // The gauges asked in this many queries side by side (MetricsQueryPlan::gauges(part,
        // parts)): Prometheus answers each sooner and Strata parses one part at a time, so a
        // refresh holds a quarter of the series at once (docs/PERF.md, Scale).
        int gaugeQueryParts = 4;
        // readEfficiency's grid and answer bounds (its labels come from `plan`).
        HistoryQueryPlan::Options history;
    };

    struct Request
    {
        qint64 oldestRunningJobStart = 0; // seconds since epoch; 0: no running jobs, no usage query
        qint64 now = 0;                   // 0: the current time
        // The oldest start among running jobs over two nodes or more; 0: none, no link error
        // counters asked for (JobLinkErrors).
        qint64 oldestMultiNodeJobStart = 0;
        // The oldest start among running jobs (jobs without a start time are skipped).
        static Request forJobs(const QVector<Job> &jobs);
    };

    explicit MetricsSource(const ClusterProfile &profile, QObject *parent = nullptr);
    MetricsSource(const ClusterProfile &profile, Options options, QObject *parent = nullptr);
    ~MetricsSource() override;

    QFuture<MetricsPart> refresh(const Request &request);
    QFuture<MetricsPart> refresh(); // no running jobs: no usage query
    // Only the usage history, for running jobs a refresh() did not know of: the first refresh
    // of a session starts before the scheduler has listed a job (and a one-shot `strata
    // snapshot` has no other). Fills the cache that later refresh() calls reuse. The part
    // carries the usage fields and the query's stat, or a warning when the query failed
    // (never an error: the gauges decide whether metrics are available). Does not wait for
    // a running refresh() and is not deduplicated: call it once per such refresh.
    QFuture<MetricsPart> refreshUsage(const Request &request);
    // The efficiency of jobs over a history period (ClusterSession::readHistory): one range
    // query per metric per chunk of the period over the whole cluster, never one per job
    // (HistoryEfficiencyReader, HistoryQueryPlan); `latest` gives the nodes (may be null).
    // Runs beside refresh() (it does not wait for it). Without a Prometheus in the profile the
    // answer says so at once (error, kind SourceUnsupported; every record's why). Cancel the
    // future to stop before the next chunk.
    QFuture<HistoryEfficiencyAnswer> readEfficiency(QVector<JobRecord> records, const HistoryPeriod &period,
                                                    SnapshotPtr latest);
    // A Kubernetes cluster's workloads over a history period from kube-state-metrics' series
    // (KubeWorkloadHistoryReader): the accounting ClusterSession::readHistory reads on Kubernetes,
    // at the step readEfficiency will use. Without a Prometheus in the profile the answer says
    // so at once (SourceUnsupported); no kube-state-metrics series: NoAccounting.
    QFuture<AccountingAnswer> readKubeWorkloadRecords(const HistoryPeriod &period);
    bool isRefreshing() const { return m_running.has_value(); }
    const MetricsQueryPlan &plan() const { return m_plan; }
    PrometheusClient &client() { return *m_client; }
    // nullptr when the profile names no Alertmanager.
    AlertmanagerClient *alertmanager() { return m_alertmanager.get(); }
    // nullptr when the profile names no Pushgateway (the repair loop's publishing, issue 28).
    PushgatewayClient *pushgateway() { return m_pushgateway.get(); }
    // A metric's history over a time range (the detail panes' charts): a PrometheusMetricHistory
    // made on the first call, on this source's thread, and kept for the source's life. Made
    // late because its client reads the profile's CA file: a one-shot CLI refresh never asks.
    MetricHistory *history();

private:
    void finish(const std::shared_ptr<MetricsRefreshState> &state);
    // One range query per link error counter (JobLinkErrors::counters()) over `range`, their
    // answers merged into one "link-errors" stat and one list of series.
    using LinkAnswer = std::pair<MetricsQueryStat, QVector<LinkCounterSeries>>;
    QFuture<LinkAnswer> queryLinkCounters(const MetricsQueryPlan::Range &range) const;
    // A good answer (over start..end, taken at takenAt) becomes the cache (m_link*); `part`
    // gets the cache, if any.
    void takeLinkAnswer(LinkAnswer answer, qint64 start, qint64 end, const QDateTime &takenAt, MetricsPart &part);

    ClusterProfile m_profile; // for history()
    QString m_url;
    QString m_hostLabel;
    Options m_options;
    MetricsQueryPlan m_plan;
    std::unique_ptr<PrometheusClient> m_client;
    std::unique_ptr<AlertmanagerClient> m_alertmanager;
    std::unique_ptr<PushgatewayClient> m_pushgateway;
    std::unique_ptr<PrometheusMetricHistory> m_history;
    QStringList m_credentialsWarnings; // the clients' credentialsWarning(), each part's warnings
    std::optional<QFuture<MetricsPart>> m_running;

    // The last usage answer, reused until it is usageRefreshSeconds old.
    QVector<GpuUsageSeries> m_usage;
    QDateTime m_usageTakenAt;
    // The last link error counters' answers, reused like the usage history.
    QVector<LinkCounterSeries> m_linkCounters;
    QDateTime m_linkTakenAt;
    qint64 m_linkStart = 0, m_linkEnd = 0;
    qint64 m_usageStart = 0, m_usageEnd = 0, m_usageStep = 0;
};

} // namespace strata
