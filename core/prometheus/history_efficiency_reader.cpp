#include "history_efficiency_reader.h"

#include "job_efficiency_calculator.h"
#include "prometheus_client.h"

#include "model/when_finished.h"

#include <QElapsedTimer>
#include <QMutex>
#include <QPromise>
#include <QtConcurrent>

#include <memory>

namespace strata {

namespace {

using Metric = HistoryQueryPlan::Metric;

struct ReadState
{
    QPromise<HistoryEfficiencyAnswer> promise;
    HistoryEfficiencyAnswer answer;
    QMutex calculatorLock;
    std::unique_ptr<JobEfficiencyCalculator> calculator;
    HistoryQueryPlan plan{HistoryQueryPlan::Options{}};
    QVector<HistoryQueryPlan::Chunk> chunks;
    int next = 0;
    int answered = 0; // queries that answered ok
    QElapsedTimer timer;
};

MetricsQueryStat statOf(Metric metric, const PrometheusResponse &r)
{
    return MetricsQueryStat::of(HistoryQueryPlan::statName(metric), r);
}

void finish(const std::shared_ptr<ReadState> &state)
{
    // fill() walks every record: on the pool, not on the client's thread.
    QThreadPool::globalInstance()->start([state] {
        HistoryEfficiencyAnswer &a = state->answer;
        if (state->answered == 0 && !a.queries.isEmpty() && !a.cancelled) {
            const MetricsQueryStat &first = a.queries.first();
            a.error = QStringLiteral("GPU history unavailable: %1").arg(first.error);
            a.errorKind = first.errorKind;
        }
        state->calculator->fill(a.records);
        if (!a.error.isEmpty())
            for (JobRecord &r : a.records)
                if (!r.efficiency.isMeasured() && r.efficiency.basis != JobEfficiency::Basis::Unattributable)
                    r.efficiency.why = a.error;
        if (state->calculator->skippedSeries() > 0)
            a.warnings << QStringLiteral("%1 GPU series without a numeric gpu label were skipped")
                              .arg(state->calculator->skippedSeries());
        if (state->calculator->unmatchedSeries() > 0)
            a.warnings << QStringLiteral("%1 GPU series came from hosts that are no cluster node (host label or "
                                         "relabel map in the profile?)")
                              .arg(state->calculator->unmatchedSeries());
        a.elapsedMs = state->timer.elapsed();
        state->promise.addResult(std::move(a));
        state->promise.finish();
    });
}

void nextChunk(PrometheusClient &client, QObject *context, const std::shared_ptr<ReadState> &state)
{
    if (state->promise.isCanceled())
        state->answer.cancelled = true;
    if (state->answer.cancelled || state->next >= state->chunks.size()) {
        finish(state);
        return;
    }
    const HistoryQueryPlan::Chunk chunk = state->chunks[state->next++];
    const qint64 step = state->answer.stepSeconds;
    PrometheusResponseParser::Options matrix;
    matrix.expect = PrometheusResponse::ResultType::Matrix;
    matrix.keepLabels = state->plan.keptLabels();
    matrix.keepLabels << QStringLiteral("GPU_I_ID");
    QList<QFuture<MetricsQueryStat>> answers;
    for (Metric metric : {Metric::Util, Metric::MemUsed, Metric::Power})
        answers << client.queryRange(state->plan.promql(metric, step), chunk.start, chunk.end, step, matrix)
                       .then([state, metric](PrometheusResponse r) {
                           {
                               QMutexLocker lock(&state->calculatorLock);
                               state->calculator->add(metric, r);
                           }
                           return statOf(metric, r);
                       });
    PrometheusClient *clientPointer = &client;
    whenFinished(
        QtFuture::whenAll(answers.begin(), answers.end()), context,
        [state, clientPointer, context](const QList<QFuture<MetricsQueryStat>> &all) {
            bool chunkOk = true;
            for (const QFuture<MetricsQueryStat> &f : all) {
                const MetricsQueryStat stat = f.result();
                state->answer.bytes += stat.bytes;
                if (stat.ok)
                    ++state->answered;
                else
                    chunkOk = false;
                state->answer.queries << stat;
            }
            if (!chunkOk)
                state->answer.warnings << QStringLiteral("GPU history of %1 to %2 could not be read completely")
                                              .arg(QDateTime::fromSecsSinceEpoch(state->chunks[state->next - 1].start, Qt::UTC)
                                                       .toString(Qt::ISODate),
                                                   QDateTime::fromSecsSinceEpoch(state->chunks[state->next - 1].end, Qt::UTC)
                                                       .toString(Qt::ISODate));
            nextChunk(*clientPointer, context, state);
        },
        [state](const QString &why) {
            state->answer.warnings << QStringLiteral("GPU history read stopped: %1").arg(why);
            state->answer.cancelled = true;
            finish(state);
        });
}

} // namespace

QFuture<HistoryEfficiencyAnswer> HistoryEfficiencyReader::read(PrometheusClient &client, QObject *context, Request request)
{
    auto state = std::make_shared<ReadState>();
    state->timer.start();
    state->promise.start();
    QFuture<HistoryEfficiencyAnswer> future = state->promise.future();
    state->answer.records = std::move(request.records);
    state->plan = HistoryQueryPlan(request.plan);

    JobEfficiencyCalculator::Context c;
    c.periodStart = request.period.start.toSecsSinceEpoch();
    c.periodEnd = request.period.end.toSecsSinceEpoch();
    c.stepSeconds = HistoryQueryPlan::stepFor(request.period.seconds(), request.plan);
    c.hostLabel = request.hostLabel;
    c.hostRelabel = request.hostRelabel;
    c.thresholds = request.thresholds;
    state->answer.stepSeconds = c.stepSeconds;
    const JobEfficiencyCalculator::Nodes nodes = JobEfficiencyCalculator::Nodes::fromSnapshot(request.latest.get());
    qint64 gpus = 0;
    for (int count : nodes.gpuCount)
        gpus += count;
    state->calculator = std::make_unique<JobEfficiencyCalculator>(state->answer.records, nodes, c);

    if (!request.period.isValid()) {
        state->answer.error = QStringLiteral("the history period is empty or its end is before its start");
        state->answer.errorKind = ErrorKind::InvalidRequest;
    } else if (!client.configError().isEmpty()) {
        state->answer.error = client.configError();
        state->answer.errorKind = ErrorKind::InvalidRequest;
    }
    if (!state->answer.error.isEmpty()) {
        finish(state);
        return future;
    }
    state->chunks = HistoryQueryPlan::chunks(c.periodStart, c.periodEnd, c.stepSeconds, gpus, request.plan);
    state->answer.chunks = int(state->chunks.size());
    nextChunk(client, context, state);
    return future;
}

} // namespace strata
