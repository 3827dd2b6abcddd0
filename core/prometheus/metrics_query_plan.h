#pragma once

#include <QString>
#include <QStringList>

namespace strata {

// The PromQL of one metrics refresh. Every query covers the whole cluster, never one GPU:
//   gauges   one instant query for all sixteen DCGM gauges (a __name__ regex), or the same
//            in parts of every n-th gauge (gauges(part, parts)) so no answer is too large;
//   pcie     one instant query, increase of the PCIe replay counter over the health window;
//   targets  one instant query, `up` of the DCGM exporter job(s);
//   usage    one query_range for GPU utilisation and memory used of every GPU (GR engine
//            activity for MIG instances), over the
//            oldest running job's window at a coarse step (refreshed less often; sliced per
//            job by the join).
// Each wraps its selector in `max by (<labels the join reads>)`, so Prometheus drops the labels
// nobody reads (driver version, PCI bus id, device, job, ...) before sending: about 40% fewer
// bytes to move and parse. Pure; no state beyond the options.
class MetricsQueryPlan
{
public:
    struct Options
    {
        QString hostLabel;                 // profile's; empty: Hostname and hostname
        QString exporterJobRegex = QStringLiteral(".*dcgm.*"); // `job` of the DCGM targets
        QString extraMatchers;             // e.g. `cluster="a"`, added to every selector
    };

    explicit MetricsQueryPlan(Options options);

    QString gauges() const;
    // Part `part` (0-based) of `parts`: the same query over every parts-th gauge name from
    // `part` on, so each answer is 1/parts of the whole (at 16,384 GPUs the whole is 262,144
    // series, ~50 MB of JSON and ~400 MB of parse at once). gauges(0, 1) == gauges().
    QString gauges(int part, int parts) const;
    QString pcieReplayIncrease(int windowMinutes) const;
    QString exporterTargets() const;
    QString usage() const; // for query_range

    // The labels the `max by` clauses keep (and the parser keeps), __name__ included.
    QStringList keptLabels() const;
    // The labels that name a GPU's workload: hpc_job, pod/namespace and, where Prometheus
    // renamed the exporter's own (honor_labels false), exported_pod/exported_namespace.
    static QStringList workloadLabels();

    struct Range
    {
        qint64 start = 0, end = 0, stepSeconds = 0;
        bool isValid() const { return stepSeconds > 0 && end > start; }
    };
    // The usage range for jobs whose oldest started at oldestStart: at most maxPoints points
    // per series and a step of at least minStepSeconds (both bound the bytes moved), window
    // at most maxWindowSeconds (longer jobs are judged on their recent part). Ends now.
    static Range usageRange(qint64 oldestStart, qint64 now, int maxPoints, int minStepSeconds,
                            qint64 maxWindowSeconds);

    // A PromQL string literal body: backslash and double quote escaped.
    static QString escapeString(const QString &text);
    // An RE2 pattern matching text literally.
    static QString escapeRegex(const QString &text);

private:
    QString selector(const QString &nameMatcher) const;
    QString byClause(bool withName) const;

    Options m_options;
};

} // namespace strata
