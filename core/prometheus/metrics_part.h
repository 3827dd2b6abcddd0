#pragma once

#include "alert_silence.h"
#include "app_metrics_query.h"
#include "model/gpu.h"
#include "model/source_status.h"
#include "node_fabric_query.h"
#include "prometheus_response.h"

#include <QDateTime>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace strata {

// Host names a series offers, best first (see HostNameResolver for the order). The join takes
// the first that names a cluster node, so an exporter whose `Hostname` is its own pod name
// still lands on the right node through the target's `node` label.
using HostCandidates = QStringList;

// One GPU (or one MIG instance of a GPU) as the exporter labels it, with its latest metrics.
struct GpuSample
{
    HostCandidates hosts;
    int gpu = -1;            // the `gpu` label (index on the node)
    int migInstance = -1;    // `GPU_I_ID`; -1: a whole GPU
    QString migProfile;      // `GPU_I_PROFILE`, e.g. "1g.10gb"
    QString uuid;            // `UUID` (a MIG instance carries its GPU's)
    QString modelName;       // `modelName`, e.g. "NVIDIA H100 80GB HBM3"
    // `hpc_job` (Slurm job id), else the workload's "namespace/pod": `exported_namespace`/
    // `exported_pod` when Prometheus renamed the exporter's labels (honor_labels false, the
    // prometheus-operator default), else `namespace`/`pod` unless those name the exporter
    // itself (see exporterPod). Empty if none.
    QString jobKey;
    // "namespace/pod" of the exporter's own pod when the series says so (its `pod` label beside
    // `exported_pod`, or equal to its host label): not a workload, but a way to its node.
    QString exporterPod;
    GpuMetrics metrics;      // missing metrics stay nullopt (NaN/Inf and DCGM blank codes count as missing)
    std::optional<double> pcieReplaysIncrease; // over HealthThresholds::pcieReplayWindowMinutes
};

// One scrape target of the DCGM exporter job (`up{job=~...}`).
struct ExporterTarget
{
    HostCandidates hosts;    // target labels `node`, `kubernetes_node`, `pod`, then the host of `instance`
    QString instance;
    QString job;
    bool up = false;
    QString pod;             // target labels of a Kubernetes-discovered exporter: its own pod
    QString namespaceName;
};

// One point of a GPU's usage history.
struct UsagePoint
{
    qint64 time = 0;        // seconds since the epoch
    float utilPercent = -1; // < 0: no value at this step
    float memUsedMiB = -1;
};

// The usage history of one GPU (for one job when the exporter labels jobs).
struct GpuUsageSeries
{
    HostCandidates hosts;
    int gpu = -1;
    int migInstance = -1;   // GPU_I_ID; its util is GR engine active x 100
    QString jobKey;
    QVector<UsagePoint> points; // time order
};

// One point of a link error counter (JobLinkErrors).
struct LinkCounterSample
{
    qint64 time = 0; // seconds since the epoch
    double value = 0;
};

// One link error counter's history on one GPU (DCGM) or one device and port (node exporter).
struct LinkCounterSeries
{
    QString counter;        // the metric's name
    HostCandidates hosts;
    QString where;          // "GPU 5", "mlx5_1 port 1"
    QVector<LinkCounterSample> samples; // time order
};

struct MetricsQueryStat
{
    QString name;        // "gauges", "pcie-replays", "targets", "usage"
    QString promql;
    bool ok = false;
    QString error;
    ErrorKind errorKind = ErrorKind::None;
    qint64 elapsedMs = -1; // sent -> parsed
    qint64 bytes = 0;
    int series = 0;

    // One answered (or failed) query's figures under `name`.
    static MetricsQueryStat of(const QString &name, const PrometheusResponse &response);
};

// What one metrics refresh produced. A value: built on a worker, handed to the GUI thread.
// error non-empty: the refresh failed as a whole (nothing usable: Prometheus unreachable, or
// the gauge query itself failed) and the snapshot keeps its scheduler data only.
struct MetricsPart
{
    QString prometheusUrl;
    QString error;            // "metrics unavailable: ..."
    ErrorKind errorKind = ErrorKind::None; // with error: why (Timeout, ConnectFailed, ParseFailed, ...)
    QStringList warnings;     // queries that failed while the refresh as a whole worked
    QVector<GpuSample> gpus;
    QVector<ExporterTarget> targets;
    bool targetsKnown = false; // the target query answered

    QVector<GpuUsageSeries> usage;
    bool usageKnown = false;   // a usage query answered (this refresh or a cached one)
    QDateTime usageTakenAt;    // when that usage query ran (it is refreshed less often)
    qint64 usageStart = 0, usageEnd = 0, usageStepSeconds = 0;

    // Alerts pending or firing in Prometheus (/api/v1/alerts), every refresh; a failed alert
    // query is a warning, not a failed part.
    QVector<PrometheusAlert> alerts;
    bool alertsKnown = false;
    // With an Alertmanager in the profile: its alerts are merged into `alerts` (AlertMerge:
    // silenced, silencedBy, inhibited) and its silences kept for the findings' words. A failed
    // Alertmanager query is a warning; the alerts are then Prometheus's alone.
    QVector<AlertSilence> silences;
    bool alertmanagerKnown = false;

    // What the applications inside jobs report (AppMetricsQuery), every refresh; a failed
    // query is a warning.
    QVector<AppMetricsQuery::JobAppMetrics> app;
    bool appKnown = false;
    // Node exporter's fabric ports and shared mounts (NodeFabricQuery), every refresh; a failed
    // query is a warning.
    QVector<NodeFabricQuery::HostFabric> fabric;
    bool fabricKnown = false;
    // NVLink and InfiniBand error counters over the usage window (JobLinkErrors): one range
    // query per counter while a job runs over several nodes, reused for usageRefreshSeconds
    // like the usage history; a failed query is a warning.
    QVector<LinkCounterSeries> linkCounters;
    bool linkCountersKnown = false;
    qint64 linkCountersEnd = 0; // the window's end (seconds since the epoch)

    QVector<MetricsQueryStat> queries;
    QDateTime takenAt;         // UTC, when the refresh started
    qint64 durationMs = -1;
    qint64 bytesRead = 0;

    bool ok() const { return error.isEmpty(); }
    // The usage fields (usage, usageKnown, usageTakenAt, usageStart/End/StepSeconds) of
    // `other`, when it has usage, and its link counters when it has them; its query stats are
    // added to queries.
    void takeUsage(const MetricsPart &other);
    // Status of this refresh for the snapshot; the session adds staleness from its history.
    SourceStatus status() const;
};

} // namespace strata
