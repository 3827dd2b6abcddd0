#pragma once

#include "metrics_part.h"
#include "model/finding.h"
#include "model/job.h"
#include "prometheus_response.h"

#include <QHash>
#include <QStringList>
#include <QVector>

namespace strata {

// Link errors while a job runs (issue 27): a node whose NVLink (DCGM's CRC flit, CRC data,
// replay and recovery error totals) or InfiniBand/EFA (node exporter's link downed, link error
// recovery, symbol error, ... counters) rise while a multi-node job runs on it slows the whole
// job, its GPUs looking busy the while: the retries cost time, not utilisation. From one
// Prometheus range query per counter (the raw counter over the window since the oldest running
// job started), each running job over two nodes or more, each counter series of one of its
// nodes: the increase from the job's start on (a counter that drops was reset: the value after
// the drop counts in full). Any increase is a finding ("job-link-errors", warning) naming the
// job, the node, the counter, the increase and where (which GPUs, which ports).
// Pure; any thread.
namespace JobLinkErrors {

inline QString findingCode() { return QStringLiteral("job-link-errors"); }

enum class LinkKind { NvLink, InfiniBand };

struct Counter
{
    QString name;        // the metric's name, the query sent for it
    LinkKind link;
    QString description; // "NVLink CRC flit errors"
};

// The counters queried, NVLink first.
const QVector<Counter> &counters();

// The range answer of one counter, one series per GPU (DCGM) or per device and port (node
// exporter), hosts as HostNameResolver reads them (hostLabel: the profile's, may be empty).
QVector<LinkCounterSeries> fromResponse(const PrometheusResponse &response, const QString &counter, const QString &hostLabel);

// The increase of one series between `from` and `to` (seconds since the epoch), resets
// counted; 0 with fewer than two points in the window.
double increase(const QVector<LinkCounterSample> &samples, qint64 from, qint64 to);

// seriesNode: the node index each series resolved to (-1: none); nodeIndexByName: the
// scheduler's node names. now: the end of the window the answers cover.
QVector<Finding> find(const QVector<Job> &jobs, const QVector<LinkCounterSeries> &series, const QVector<int> &seriesNode,
                      const QHash<QString, int> &nodeIndexByName, qint64 now);

} // namespace JobLinkErrors
} // namespace strata
