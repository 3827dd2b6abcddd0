#include "kube_workload_history_reader.h"

#include "kube_workload_history.h"
#include "prometheus_client.h"

#include "model/pool_task.h"
#include "model/when_finished.h"

#include <QElapsedTimer>
#include <QPromise>
#include <QtConcurrent>

#include <memory>

namespace strata {

using namespace Qt::StringLiterals;

namespace {

struct ReadState
{
    QPromise<AccountingAnswer> promise;
    QElapsedTimer timer;
};

void finishWith(const std::shared_ptr<ReadState> &state, AccountingAnswer answer)
{
    answer.durationMs = state->timer.elapsed();
    state->promise.addResult(std::move(answer));
    state->promise.finish();
}

} // namespace

QString KubeWorkloadHistoryReader::notScrapedError()
{
    return u"kube-state-metrics is not scraped by this Prometheus: finished workloads cannot be read"_s;
}

QFuture<AccountingAnswer> KubeWorkloadHistoryReader::noPrometheus()
{
    AccountingAnswer answer;
    answer.error = u"no Prometheus in the profile: a Kubernetes cluster's finished workloads are read from "
                   u"kube-state-metrics' series in Prometheus"_s;
    answer.errorKind = ErrorKind::SourceUnsupported;
    return QtFuture::makeReadyFuture(std::move(answer));
}

QFuture<AccountingAnswer> KubeWorkloadHistoryReader::read(PrometheusClient &client, QObject *context,
                                                          const HistoryPeriod &period, qint64 stepSeconds)
{
    auto state = std::make_shared<ReadState>();
    state->timer.start();
    state->promise.start();
    QFuture<AccountingAnswer> future = state->promise.future();

    AccountingAnswer first;
    first.command = u"kube-state-metrics through Prometheus: %1 instant queries at %2 over %3 s"_s
                        .arg(KubeWorkloadHistory::kQueryCount + 1)
                        .arg(period.end.toString(Qt::ISODate))
                        .arg(period.seconds());
    if (!period.isValid()) {
        first.error = u"the history period is empty or its end is before its start"_s;
        first.errorKind = ErrorKind::InvalidRequest;
    } else if (!client.configError().isEmpty()) {
        first.error = client.configError();
        first.errorKind = ErrorKind::InvalidRequest;
    }
    if (!first.error.isEmpty()) {
        finishWith(state, std::move(first));
        return future;
    }

    PrometheusResponseParser::Options vector;
    vector.expect = PrometheusResponse::ResultType::Vector;
    QList<QFuture<PrometheusResponse>> answers;
    for (KubeWorkloadHistory::Query q : KubeWorkloadHistory::all())
        answers << client.query(KubeWorkloadHistory::promql(q, period.seconds(), stepSeconds), vector,
                                double(period.end.toSecsSinceEpoch()));
    answers << client.query(KubeWorkloadHistory::relabelledProbe(period.seconds()), vector,
                            double(period.end.toSecsSinceEpoch()));
    whenFinished(
        QtFuture::whenAll(answers.begin(), answers.end()), context,
        [state, period, stepSeconds, command = first.command](const QList<QFuture<PrometheusResponse>> &all) {
            // 50,000 pods make eight answers of 50,000 series each: built on the pool.
            auto build = [state, period, stepSeconds, command, all] {
                AccountingAnswer a;
                a.command = command;
                KubeWorkloadHistory::Answers answers;
                for (int i = 0; i < all.size() && i < KubeWorkloadHistory::kQueryCount; ++i) {
                    answers[size_t(i)] = all[i].result();
                    const PrometheusResponse &r = answers[size_t(i)];
                    a.bytes += r.bytes;
                    if (!r.ok && a.error.isEmpty()) {
                        a.error = u"kube-state-metrics history unavailable (%1): %2"_s.arg(
                            KubeWorkloadHistory::statName(KubeWorkloadHistory::all()[i]), r.error);
                        a.errorKind = r.errorKind();
                    }
                    for (const QString &w : r.warnings)
                        a.warnings << u"Prometheus: %1"_s.arg(w);
                }
                // The probe (last): a failed probe is no finding; a count above 0 is.
                if (a.error.isEmpty() && all.size() > KubeWorkloadHistory::kQueryCount) {
                    const PrometheusResponse probe = all[KubeWorkloadHistory::kQueryCount].result();
                    const double relabelled = probe.ok && !probe.series.isEmpty() && !probe.series[0].samples.isEmpty()
                                                  ? probe.series[0].samples.constLast().value
                                                  : 0;
                    if (relabelled > 0) {
                        a.error = u"kube-state-metrics is scraped without honor_labels: %1 of its pod series name the "
                                  u"exporter's own namespace and pod (the workloads' arrive as exported_namespace and "
                                  u"exported_pod), so finished workloads cannot be told apart. Set honorLabels: true on "
                                  u"its ServiceMonitor (kube-prometheus-stack's default)"_s.arg(qint64(relabelled));
                        a.errorKind = ErrorKind::SourceUnsupported;
                    }
                }
                if (a.error.isEmpty()) {
                    KubeWorkloadHistory::Result built = KubeWorkloadHistory::build(answers, period, stepSeconds);
                    if (!built.anySeries) {
                        a.error = notScrapedError();
                        a.errorKind = ErrorKind::NoAccounting;
                    } else {
                        a.records = std::move(built.records);
                        a.skippedRows = built.skippedPods;
                        a.warnings += built.warnings;
                    }
                }
                finishWith(state, std::move(a));
            };
            (void)runOnPool(nullptr, std::move(build));
        },
        [state, command = first.command](const QString &why) {
            AccountingAnswer a;
            a.command = command;
            a.error = u"reading kube-state-metrics history did not finish: %1"_s.arg(why);
            a.errorKind = ErrorKind::Cancelled;
            finishWith(state, std::move(a));
        });
    return future;
}

} // namespace strata
