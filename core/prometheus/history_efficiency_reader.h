#pragma once

#include "history_efficiency_answer.h"
#include "history_query_plan.h"
#include "health_thresholds.h"

#include "model/cluster_snapshot.h"
#include "model/history_period.h"

#include <QFuture>
#include <QMap>
#include <QObject>

namespace strata {

class PrometheusClient;

// Reads jobs' efficiency over a period: HistoryQueryPlan's three range queries per chunk (sent
// together, chunks one after another so one chunk's answers are held at a time), each answer
// fed to a JobEfficiencyCalculator where it was parsed (the pool for big bodies; a lock keeps
// the calculator to one thread at a time, never held across I/O), then fill() on the pool.
// Cancelling the returned future stops before the next chunk (the answer then has cancelled
// set). Must be called on the client's thread; `context` (that thread's object, e.g. the
// MetricsSource) carries the chunk-to-chunk steps and must outlive the read or the future is
// cancelled with it. The future finishes on any thread: come back with whenFinished.
class HistoryEfficiencyReader
{
public:
    struct Request
    {
        QVector<JobRecord> records;
        HistoryPeriod period;
        SnapshotPtr latest; // the cluster's nodes (names, addresses, GPU counts); may be null
        HistoryQueryPlan::Options plan;
        QString hostLabel;
        QMap<QString, QString> hostRelabel;
        HealthThresholds thresholds;
    };

    static QFuture<HistoryEfficiencyAnswer> read(PrometheusClient &client, QObject *context, Request request);
};

} // namespace strata
