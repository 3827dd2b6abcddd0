#include "metrics_source.h"

#include "alert_merge.h"
#include "alertmanager_client.h"
#include "pushgateway_client.h"
#include "app_metrics_query.h"
#include "history_efficiency_reader.h"
#include "kube_workload_history_reader.h"
#include "job_link_errors.h"
#include "metrics_part_builder.h"
#include "node_fabric_query.h"
#include "prometheus_client.h"
#include "prometheus_metric_history.h"
#include "model/when_finished.h"
#include "profile/cluster_profile.h"
#include "model/pool_task.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QPromise>
#include <QThreadPool>

#include <limits>

namespace strata {

Q_LOGGING_CATEGORY(lcPrometheus, "strata.prometheus")

using ResultType = PrometheusResponse::ResultType;

struct MetricsRefreshState
{
    QPromise<MetricsPart> promise;
    MetricsPart part;
    QElapsedTimer timer;
    int pending = 0;

    MetricsQueryStat gaugesStat;
    QVector<GpuSample> samples;
    int skippedSeries = 0;
    std::optional<PrometheusResponse> pcie;
    MetricsQueryStat pcieStat;
    MetricsQueryStat targetsStat;
    MetricsQueryStat usageStat;
    MetricsQueryStat alertsStat;
    MetricsQueryStat appStat;
    MetricsQueryStat fabricStat;
    bool alertmanagerQueried = false;
    MetricsQueryStat alertmanagerAlertsStat;
    MetricsQueryStat silencesStat;
    QVector<PrometheusAlert> alertmanagerAlerts;
    bool usageQueried = false;
    bool linkQueried = false;
    MetricsQueryStat linkStat;
    QVector<LinkCounterSeries> linkCounters;
    qint64 linkStart = 0, linkEnd = 0;
};

namespace {

QString linkCountersFailed(const MetricsQueryStat &stat)
{
    return QStringLiteral("NVLink/InfiniBand error counter query failed: %1").arg(stat.error);
}

MetricsQueryStat statOf(const QString &name, const PrometheusResponse &r)
{
    return MetricsQueryStat::of(name, r);
}

// One query's figures from its parts: ok only if every part is; the first error; bytes and
// series summed; the slowest part's time; the first part's PromQL.
void mergeStat(MetricsQueryStat &into, MetricsQueryStat part, bool first)
{
    if (into.name.isEmpty()) {
        into = std::move(part);
        return;
    }
    if (first)
        into.promql = part.promql;
    if (into.ok && !part.ok) {
        into.error = part.error;
        into.errorKind = part.errorKind;
    }
    into.ok = into.ok && part.ok;
    into.elapsedMs = std::max(into.elapsedMs, part.elapsedMs);
    into.bytes += part.bytes;
    into.series += part.series;
}

// Runs `convert` where the response was parsed (the pool for big bodies), then `store` on the
// source's thread, then counts the query done.
template <typename Response, typename Convert, typename Store>
void track(MetricsSource *source, const std::shared_ptr<MetricsRefreshState> &state, QFuture<Response> future,
           Convert convert, Store store, std::function<void()> done)
{
    using Piece = std::invoke_result_t<Convert, Response>;
    ++state->pending;
    whenFinished(future.then([convert](Response r) { return convert(std::move(r)); }), source,
                 [state, store, done](Piece piece) {
                     store(*state, std::move(piece));
                     if (--state->pending == 0)
                         done();
                 });
}

} // namespace

MetricsSource::Request MetricsSource::Request::forJobs(const QVector<Job> &jobs)
{
    Request r;
    constexpr qint64 none = std::numeric_limits<qint64>::max();
    qint64 oldest = none, oldestMultiNode = none;
    for (const Job &j : jobs) {
        if (!j.isRunning() || j.startTime <= 0)
            continue;
        oldest = std::min(oldest, j.startTime);
        if (j.nodes.size() > 1)
            oldestMultiNode = std::min(oldestMultiNode, j.startTime);
    }
    if (oldest != none)
        r.oldestRunningJobStart = oldest;
    if (oldestMultiNode != none)
        r.oldestMultiNodeJobStart = oldestMultiNode;
    return r;
}

MetricsSource::MetricsSource(const ClusterProfile &profile, QObject *parent)
    : MetricsSource(profile, Options{}, parent)
{
}

MetricsSource::MetricsSource(const ClusterProfile &profile, Options options, QObject *parent)
    : QObject(parent), m_profile(profile), m_url(profile.prometheusUrl), m_hostLabel(profile.hostLabel), m_options(std::move(options)),
      m_plan([&] {
          MetricsQueryPlan::Options plan = m_options.plan;
          plan.hostLabel = profile.hostLabel;
          return plan;
      }())
{
    PrometheusClient::Config config = PrometheusClient::Config::fromProfile(profile);
    config.timeoutMs = m_options.timeoutMs;
    m_client = std::make_unique<PrometheusClient>(config);
    if (!profile.alertmanagerUrl.isEmpty()) {
        AlertmanagerClient::Config alertmanager = AlertmanagerClient::Config::fromProfile(profile);
        alertmanager.timeoutMs = m_options.timeoutMs;
        m_alertmanager = std::make_unique<AlertmanagerClient>(alertmanager);
    }
    if (!profile.pushgatewayUrl.isEmpty()) {
        PushgatewayClient::Config pushgateway = PushgatewayClient::Config::fromProfile(profile);
        pushgateway.timeoutMs = m_options.timeoutMs;
        m_pushgateway = std::make_unique<PushgatewayClient>(pushgateway);
    }
    // Known from the configuration alone: logged here once, shown with every part (a status).
    for (const QString &warning : {m_client->credentialsWarning(),
                                   m_alertmanager ? m_alertmanager->credentialsWarning() : QString()}) {
        if (warning.isEmpty())
            continue;
        m_credentialsWarnings << warning;
        qCWarning(lcPrometheus).noquote() << profile.name << warning;
    }
}

MetricsSource::~MetricsSource()
{
    // The client aborts its requests; their continuations may still touch the usage cache,
    // so it goes first, while every other member is alive.
    m_alertmanager.reset();
    m_client.reset();
}

MetricHistory *MetricsSource::history()
{
    if (!m_history)
        m_history = std::make_unique<PrometheusMetricHistory>(m_profile);
    return m_history.get();
}

QFuture<MetricsPart> MetricsSource::refresh()
{
    return refresh(Request{});
}

QFuture<MetricsPart> MetricsSource::refresh(const Request &request)
{
    if (m_running)
        return *m_running;

    auto state = std::make_shared<MetricsRefreshState>();
    state->promise.start();
    state->timer.start();
    MetricsPart &part = state->part;
    part.prometheusUrl = m_url;
    part.takenAt = QDateTime::currentDateTimeUtc();
    QFuture<MetricsPart> future = state->promise.future();

    if (m_url.isEmpty() || !m_client->configError().isEmpty()) {
        part.error = QStringLiteral("metrics unavailable: %1")
                         .arg(m_url.isEmpty() ? QStringLiteral("the profile has no Prometheus URL") : m_client->configError());
        part.errorKind = ErrorKind::InvalidRequest;
        part.durationMs = 0;
        state->promise.addResult(part);
        state->promise.finish();
        return future;
    }

    const qint64 now = request.now > 0 ? request.now : part.takenAt.toSecsSinceEpoch();
    const MetricsQueryPlan::Range range =
        MetricsQueryPlan::usageRange(request.oldestRunningJobStart, now, m_options.usageMaxPoints,
                                     m_options.usageMinStepSeconds, m_options.usageMaxWindowSeconds);
    const bool cacheFresh = !m_usageTakenAt.isNull()
        && m_usageTakenAt.secsTo(part.takenAt) < m_options.usageRefreshSeconds
        && range.start >= m_usageStart - m_usageStep;
    state->usageQueried = range.isValid() && !cacheFresh;

    const auto done = [this, state] { finish(state); };
    const QString hostLabel = m_hostLabel;

    PrometheusResponseParser::Options vector;
    vector.expect = ResultType::Vector;
    vector.keepLabels = m_plan.keptLabels();
    struct Gauges
    {
        MetricsQueryStat stat;
        QVector<GpuSample> samples;
        int skipped = 0;
    };
    const int gaugeParts = std::max(1, m_options.gaugeQueryParts);
    for (int part = 0; part < gaugeParts; ++part)
        track(this, state, m_client->query(m_plan.gauges(part, gaugeParts), vector),
              [hostLabel](PrometheusResponse r) {
                  // Where the part was parsed: its series end here, only the samples go on.
                  Gauges g{statOf(QStringLiteral("gauges"), r), {}, 0};
                  if (r.ok)
                      g.samples = MetricsPartBuilder::gpuSamples(r, hostLabel, &g.skipped);
                  return g;
              },
              [first = part == 0](MetricsRefreshState &s, Gauges g) {
                  mergeStat(s.gaugesStat, std::move(g.stat), first);
                  MetricsPartBuilder::mergeGpuSamples(s.samples, g.samples);
                  s.skippedSeries += g.skipped;
              },
              done);

    track(this, state, m_client->query(m_plan.pcieReplayIncrease(m_options.pcieReplayWindowMinutes), vector),
          [](PrometheusResponse r) { return r; },
          [](MetricsRefreshState &s, PrometheusResponse r) {
              s.pcieStat = statOf(QStringLiteral("pcie-replays"), r);
              if (r.ok)
                  s.pcie = std::move(r);
          },
          done);

    PrometheusResponseParser::Options targets;
    targets.expect = ResultType::Vector;
    track(this, state, m_client->query(m_plan.exporterTargets(), targets),
          [](PrometheusResponse r) {
              return std::make_pair(statOf(QStringLiteral("targets"), r),
                                    r.ok ? MetricsPartBuilder::exporterTargets(r) : QVector<ExporterTarget>{});
          },
          [](MetricsRefreshState &s, std::pair<MetricsQueryStat, QVector<ExporterTarget>> piece) {
              s.targetsStat = piece.first;
              s.part.targets = std::move(piece.second);
              s.part.targetsKnown = piece.first.ok;
          },
          done);

    track(this, state, m_client->alerts(), [](PrometheusResponse r) { return r; },
          [](MetricsRefreshState &s, PrometheusResponse r) {
              s.alertsStat = statOf(QStringLiteral("alerts"), r);
              s.alertsStat.series = int(r.alerts.size());
              s.part.alertsKnown = r.ok;
              s.part.alerts = std::move(r.alerts);
          },
          done);

    // The applications' own metrics and node exporter's fabric/storage: one instant query each,
    // whatever the cluster's size (a few series per job or per node).
    PrometheusResponseParser::Options anyVector;
    anyVector.expect = ResultType::Vector;
    track(this, state, m_client->query(AppMetricsQuery::promql(), anyVector),
          [](PrometheusResponse r) {
              return std::make_pair(statOf(QStringLiteral("app"), r),
                                    r.ok ? AppMetricsQuery::build(r) : QVector<AppMetricsQuery::JobAppMetrics>{});
          },
          [](MetricsRefreshState &s, std::pair<MetricsQueryStat, QVector<AppMetricsQuery::JobAppMetrics>> piece) {
              s.appStat = piece.first;
              s.part.app = std::move(piece.second);
              s.part.appKnown = piece.first.ok;
          },
          done);
    track(this, state, m_client->query(NodeFabricQuery::promql(), anyVector),
          [hostLabel](PrometheusResponse r) {
              return std::make_pair(statOf(QStringLiteral("fabric"), r),
                                    r.ok ? NodeFabricQuery::build(r, hostLabel) : QVector<NodeFabricQuery::HostFabric>{});
          },
          [](MetricsRefreshState &s, std::pair<MetricsQueryStat, QVector<NodeFabricQuery::HostFabric>> piece) {
              s.fabricStat = piece.first;
              s.part.fabric = std::move(piece.second);
              s.part.fabricKnown = piece.first.ok;
          },
          done);

    if (m_alertmanager) {
        state->alertmanagerQueried = true;
        const auto stat = [](const QString &name, const QString &error, ErrorKind kind, int count) {
            MetricsQueryStat s;
            s.name = name;
            s.ok = error.isEmpty();
            s.error = error;
            s.errorKind = kind;
            s.series = count;
            return s;
        };
        track(this, state, m_alertmanager->alerts(), [](AlertmanagerParser::AlertsResult r) { return r; },
              [stat](MetricsRefreshState &s, AlertmanagerParser::AlertsResult r) {
                  s.alertmanagerAlertsStat =
                      stat(QStringLiteral("alertmanager-alerts"), r.error, r.errorKind, int(r.alerts.size()));
                  s.alertmanagerAlerts = std::move(r.alerts);
              },
              done);
        track(this, state, m_alertmanager->silences(), [](AlertmanagerParser::SilencesResult r) { return r; },
              [stat](MetricsRefreshState &s, AlertmanagerParser::SilencesResult r) {
                  s.silencesStat = stat(QStringLiteral("alertmanager-silences"), r.error, r.errorKind,
                                        int(r.silences.size()));
                  s.part.silences = std::move(r.silences);
              },
              done);
    }

    if (state->usageQueried) {
        PrometheusResponseParser::Options matrix;
        matrix.expect = ResultType::Matrix;
        matrix.keepLabels = m_plan.keptLabels();
        track(this, state, m_client->queryRange(m_plan.usage(), range.start, range.end, range.stepSeconds, matrix),
              [hostLabel](PrometheusResponse r) {
                  return std::make_pair(statOf(QStringLiteral("usage"), r),
                                        r.ok ? MetricsPartBuilder::usageSeries(r, hostLabel) : QVector<GpuUsageSeries>{});
              },
              [this, range](MetricsRefreshState &s, std::pair<MetricsQueryStat, QVector<GpuUsageSeries>> piece) {
                  s.usageStat = piece.first;
                  if (!piece.first.ok)
                      return;
                  m_usage = std::move(piece.second);
                  m_usageTakenAt = s.part.takenAt;
                  m_usageStart = range.start;
                  m_usageEnd = range.end;
                  m_usageStep = range.stepSeconds;
              },
              done);
    }
    // Link error counters: only while a job runs over several nodes, from its start on.
    const MetricsQueryPlan::Range linkRange =
        MetricsQueryPlan::usageRange(request.oldestMultiNodeJobStart, now, m_options.usageMaxPoints,
                                     m_options.usageMinStepSeconds, m_options.usageMaxWindowSeconds);
    const bool linkFresh = !m_linkTakenAt.isNull()
        && m_linkTakenAt.secsTo(part.takenAt) < m_options.usageRefreshSeconds
        && linkRange.start >= m_linkStart - linkRange.stepSeconds;
    state->linkQueried = linkRange.isValid() && !linkFresh;
    state->linkStart = linkRange.start;
    state->linkEnd = linkRange.end;
    if (state->linkQueried)
        track(this, state, queryLinkCounters(linkRange), [](LinkAnswer answer) { return answer; },
              [](MetricsRefreshState &s, LinkAnswer answer) {
                  s.linkStat = std::move(answer.first);
                  s.linkCounters = std::move(answer.second);
              },
              done);
    if (linkRange.isValid() && !m_linkTakenAt.isNull())
        part.linkCountersKnown = true;
    if (range.isValid() && !m_usageTakenAt.isNull()) {
        // Attached in finish() once the (possible) new answer is in; decided here so a refresh
        // without running jobs carries no usage.
        part.usageKnown = true;
    }
    m_running = future;
    return future;
}

QFuture<HistoryEfficiencyAnswer> MetricsSource::readEfficiency(QVector<JobRecord> records, const HistoryPeriod &period,
                                                               SnapshotPtr latest)
{
    if (m_url.isEmpty()) {
        HistoryEfficiencyAnswer answer;
        answer.error = QStringLiteral("no Prometheus URL in the profile: GPU efficiency needs its DCGM metrics");
        answer.errorKind = ErrorKind::SourceUnsupported;
        answer.records = std::move(records);
        for (JobRecord &r : answer.records)
            r.efficiency = JobEfficiency{JobEfficiency::Basis::None, answer.error};
        QPromise<HistoryEfficiencyAnswer> promise;
        promise.start();
        promise.addResult(std::move(answer));
        promise.finish();
        return promise.future();
    }
    HistoryEfficiencyReader::Request request;
    request.records = std::move(records);
    request.period = period;
    request.latest = std::move(latest);
    request.plan = m_options.history;
    request.plan.labels = m_options.plan;
    request.plan.labels.hostLabel = m_hostLabel;
    request.hostLabel = m_hostLabel;
    request.hostRelabel = m_profile.hostRelabel;
    return HistoryEfficiencyReader::read(*m_client, this, std::move(request));
}

QFuture<AccountingAnswer> MetricsSource::readKubeWorkloadRecords(const HistoryPeriod &period)
{
    if (m_url.isEmpty())
        return KubeWorkloadHistoryReader::noPrometheus();
    return KubeWorkloadHistoryReader::read(*m_client, this, period,
                                           HistoryQueryPlan::stepFor(period.seconds(), m_options.history));
}

QFuture<MetricsPart> MetricsSource::refreshUsage(const Request &request)
{
    MetricsPart part;
    part.prometheusUrl = m_url;
    part.takenAt = QDateTime::currentDateTimeUtc();
    const qint64 now = request.now > 0 ? request.now : part.takenAt.toSecsSinceEpoch();
    const MetricsQueryPlan::Range range =
        MetricsQueryPlan::usageRange(request.oldestRunningJobStart, now, m_options.usageMaxPoints,
                                     m_options.usageMinStepSeconds, m_options.usageMaxWindowSeconds);
    if (!range.isValid() || m_url.isEmpty() || !m_client->configError().isEmpty()) {
        QPromise<MetricsPart> promise;
        promise.start();
        part.durationMs = 0;
        promise.addResult(part);
        promise.finish();
        return promise.future();
    }
    // The link error counters too, where a job runs over several nodes: a one-shot `strata
    // snapshot` has no other refresh that would ask for them.
    const MetricsQueryPlan::Range linkRange =
        MetricsQueryPlan::usageRange(request.oldestMultiNodeJobStart, now, m_options.usageMaxPoints,
                                     m_options.usageMinStepSeconds, m_options.usageMaxWindowSeconds);
    struct FollowUp
    {
        MetricsPart part;
        int pending = 0;
        MetricsQueryStat usageStat;
        QVector<GpuUsageSeries> usage;
        LinkAnswer links;
    };
    auto state = std::make_shared<FollowUp>();
    state->part = part;
    auto promise = std::make_shared<QPromise<MetricsPart>>();
    promise->start();
    const auto oneDone = [this, state, promise, range, linkRange] {
        if (--state->pending > 0)
            return;
        MetricsPart &p = state->part;
        p.queries << state->usageStat;
        p.bytesRead = state->usageStat.bytes;
        if (state->usageStat.ok) {
            m_usage = std::move(state->usage);
            m_usageTakenAt = p.takenAt;
            m_usageStart = range.start;
            m_usageEnd = range.end;
            m_usageStep = range.stepSeconds;
            p.usage = m_usage;
            p.usageKnown = true;
            p.usageTakenAt = m_usageTakenAt;
            p.usageStart = m_usageStart;
            p.usageEnd = m_usageEnd;
            p.usageStepSeconds = m_usageStep;
        } else {
            p.warnings << QStringLiteral("GPU usage history query failed: %1").arg(state->usageStat.error);
            qCWarning(lcPrometheus).noquote() << p.warnings.last();
        }
        if (linkRange.isValid()) {
            p.queries << state->links.first;
            p.bytesRead += state->links.first.bytes;
            if (!state->links.first.ok) {
                p.warnings << linkCountersFailed(state->links.first);
                qCWarning(lcPrometheus).noquote() << p.warnings.last();
            }
            takeLinkAnswer(std::move(state->links), linkRange.start, linkRange.end, p.takenAt, p);
        }
        p.durationMs = p.takenAt.msecsTo(QDateTime::currentDateTimeUtc());
        promise->addResult(p);
        promise->finish();
    };
    PrometheusResponseParser::Options matrix;
    matrix.expect = ResultType::Matrix;
    matrix.keepLabels = m_plan.keptLabels();
    const QString hostLabel = m_hostLabel;
    state->pending = linkRange.isValid() ? 2 : 1;
    whenFinished(m_client->queryRange(m_plan.usage(), range.start, range.end, range.stepSeconds, matrix)
                     .then([hostLabel](PrometheusResponse r) {
                         return std::make_pair(statOf(QStringLiteral("usage"), r),
                                               r.ok ? MetricsPartBuilder::usageSeries(r, hostLabel)
                                                    : QVector<GpuUsageSeries>{});
                     }),
                 this, [state, oneDone](std::pair<MetricsQueryStat, QVector<GpuUsageSeries>> piece) {
                     state->usageStat = std::move(piece.first);
                     state->usage = std::move(piece.second);
                     oneDone();
                 });
    if (linkRange.isValid())
        whenFinished(queryLinkCounters(linkRange), this, [state, oneDone](LinkAnswer answer) {
            state->links = std::move(answer);
            oneDone();
        });
    return promise->future();
}

QFuture<MetricsSource::LinkAnswer> MetricsSource::queryLinkCounters(const MetricsQueryPlan::Range &range) const
{
    PrometheusResponseParser::Options matrix;
    matrix.expect = ResultType::Matrix;
    QList<QFuture<LinkAnswer>> answers;
    for (const JobLinkErrors::Counter &counter : JobLinkErrors::counters())
        answers << m_client->queryRange(counter.name, range.start, range.end, range.stepSeconds, matrix)
                       .then([hostLabel = m_hostLabel, name = counter.name](PrometheusResponse r) {
                           return LinkAnswer{statOf(QStringLiteral("link-errors"), r),
                                             r.ok ? JobLinkErrors::fromResponse(r, name, hostLabel) : QVector<LinkCounterSeries>{}};
                       });
    return QtFuture::whenAll(answers.begin(), answers.end()).then([](const QList<QFuture<LinkAnswer>> &all) {
        LinkAnswer merged;
        for (qsizetype i = 0; i < all.size(); ++i) {
            LinkAnswer one = all.at(i).result();
            mergeStat(merged.first, std::move(one.first), i == 0);
            merged.second += one.second;
        }
        return merged;
    });
}

void MetricsSource::takeLinkAnswer(LinkAnswer answer, qint64 start, qint64 end, const QDateTime &takenAt, MetricsPart &part)
{
    if (answer.first.ok) {
        m_linkCounters = std::move(answer.second);
        m_linkTakenAt = takenAt;
        m_linkStart = start;
        m_linkEnd = end;
    }
    part.linkCountersKnown = !m_linkTakenAt.isNull();
    part.linkCounters = m_linkCounters;
    part.linkCountersEnd = m_linkEnd;
}

void MetricsSource::finish(const std::shared_ptr<MetricsRefreshState> &state)
{
    m_running.reset();
    MetricsPart &part = state->part;
    if (state->usageQueried || part.usageKnown) {
        part.usageKnown = !m_usageTakenAt.isNull();
        part.usage = m_usage;
        part.usageTakenAt = m_usageTakenAt;
        part.usageStart = m_usageStart;
        part.usageEnd = m_usageEnd;
        part.usageStepSeconds = m_usageStep;
    }
    if (state->linkQueried || part.linkCountersKnown)
        takeLinkAnswer({state->linkQueried ? state->linkStat : MetricsQueryStat{}, std::move(state->linkCounters)},
                       state->linkStart, state->linkEnd, part.takenAt, part);
    // The join of the PCIe increase into 16,000 samples is a hash pass: off this thread too.
    (void)runOnPool(QThreadPool::globalInstance(), [state, hostLabel = m_hostLabel, credentialsWarnings = m_credentialsWarnings] {
        MetricsPart &p = state->part;
        p.queries = {state->gaugesStat, state->pcieStat, state->targetsStat, state->alertsStat, state->appStat, state->fabricStat};
        if (state->usageQueried)
            p.queries << state->usageStat;
        if (state->linkQueried)
            p.queries << state->linkStat;
        if (state->alertmanagerQueried)
            p.queries << state->alertmanagerAlertsStat << state->silencesStat;
        for (const MetricsQueryStat &q : std::as_const(p.queries))
            p.bytesRead += q.bytes;

        if (!state->gaugesStat.ok) {
            p.error = QStringLiteral("metrics unavailable: %1").arg(state->gaugesStat.error);
            p.errorKind = state->gaugesStat.errorKind;
            p.gpus.clear();
            p.targets.clear();
            p.targetsKnown = false;
            p.usage.clear();
            p.usageKnown = false;
            p.alerts.clear();
            p.alertsKnown = false;
            p.silences.clear();
            p.alertmanagerKnown = false;
            p.app.clear();
            p.appKnown = false;
            p.fabric.clear();
            p.fabricKnown = false;
            p.linkCounters.clear();
            p.linkCountersKnown = false;
        } else {
            p.gpus = std::move(state->samples);
            if (state->pcie)
                MetricsPartBuilder::addPcieReplayIncrease(p.gpus, *state->pcie, hostLabel);
            if (state->skippedSeries > 0)
                p.warnings << QStringLiteral("%1 DCGM series without a numeric gpu label were ignored")
                                  .arg(state->skippedSeries);
            if (!state->pcieStat.ok)
                p.warnings << QStringLiteral("PCIe replay query failed: %1").arg(state->pcieStat.error);
            if (!state->alertsStat.ok)
                p.warnings << QStringLiteral("alert query failed: %1").arg(state->alertsStat.error);
            if (!state->appStat.ok)
                p.warnings << QStringLiteral("application metrics query failed: %1").arg(state->appStat.error);
            if (state->linkQueried && !state->linkStat.ok)
                p.warnings << linkCountersFailed(state->linkStat);
            if (!state->fabricStat.ok)
                p.warnings << QStringLiteral("fabric and storage query failed: %1").arg(state->fabricStat.error);
            if (state->alertmanagerQueried) {
                p.alertmanagerKnown = state->alertmanagerAlertsStat.ok;
                if (p.alertmanagerKnown) {
                    p.alerts = AlertMerge::merge(p.alerts, state->alertmanagerAlerts);
                    p.alertsKnown = true;
                } else {
                    p.warnings << QStringLiteral("Alertmanager alert query failed (silences not shown): %1")
                                      .arg(state->alertmanagerAlertsStat.error);
                }
                if (!state->silencesStat.ok)
                    p.warnings << QStringLiteral("Alertmanager silence query failed: %1").arg(state->silencesStat.error);
            }
            if (!state->targetsStat.ok)
                p.warnings << QStringLiteral("exporter target query failed: %1").arg(state->targetsStat.error);
            if (state->usageQueried && !state->usageStat.ok)
                p.warnings << QStringLiteral("GPU usage history query failed: %1%2")
                                  .arg(state->usageStat.error,
                                       p.usageKnown ? QStringLiteral(" (job usage from %1)")
                                                          .arg(p.usageTakenAt.toString(Qt::ISODate))
                                                    : QString());
        }
        p.durationMs = state->timer.elapsed();
        if (!p.ok())
            qCWarning(lcPrometheus).noquote() << p.error;
        for (const QString &w : std::as_const(p.warnings))
            qCWarning(lcPrometheus).noquote() << w;
        p.warnings << credentialsWarnings; // after the log: the constructor logged them once
        qCDebug(lcPrometheus) << "refresh:" << p.gpus.size() << "GPUs," << p.bytesRead << "bytes in" << p.durationMs << "ms";
        state->promise.addResult(p);
        state->promise.finish();
    });
}

} // namespace strata
