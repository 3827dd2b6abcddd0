#pragma once

#include "model/accounting_answer.h"
#include "model/history_period.h"

#include <QFuture>
#include <QObject>

namespace strata {

class PrometheusClient;

// Reads a Kubernetes cluster's workloads over a history period from kube-state-metrics' series
// in Prometheus: KubeWorkloadHistory's eight instant queries at the period's end, sent
// together with its relabelled probe (KSM scraped without honor_labels fails the read, said),
// then its build() on the pool. The Kubernetes side of OrchestratorSource::
// readJobRecords (Slurm's sacct), answered in the same AccountingAnswer. Any query that fails
// fails the read (a missing owner answer would misname workloads); no kube-state-metrics series
// at all is ErrorKind::NoAccounting. Must be called on the client's thread; `context` (that
// thread's object, e.g. the MetricsSource) must outlive the read or the future is cancelled with
// it. The future finishes on any thread: come back with whenFinished.
class KubeWorkloadHistoryReader
{
public:
    static QFuture<AccountingAnswer> read(PrometheusClient &client, QObject *context, const HistoryPeriod &period,
                                          qint64 stepSeconds);

    static QString notScrapedError();
    // What a Kubernetes history read answers where the profile names no Prometheus (at once,
    // kind SourceUnsupported): the session's and MetricsSource's one sentence for it.
    static QFuture<AccountingAnswer> noPrometheus();
};

} // namespace strata
