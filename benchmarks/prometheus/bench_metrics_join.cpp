// bench_metrics_join: one whole metrics refresh of a big cluster without the network. Builds a
// 2,048-node x 8-GPU snapshot with 50,000 jobs (SyntheticCluster), generates the Prometheus
// bodies MetricsSource would receive (10 DCGM gauges for 16,384 GPUs, PCIe increase, targets,
// the usage history), then times parse -> MetricsPart -> MetricsJoin::apply and prints wall
// times, bytes parsed and peak RSS. --compare adds QJsonDocument, full exporter labels and ten
// per-metric bodies parsed in parallel, the alternatives the design was chosen against.
//
//   bench_metrics_join [--nodes N] [--jobs N] [--usage-points N] [--runs N] [--hpc-job] [--compare]
#include "dcgm_response_generator.h"
#include "qjson_response_parser.h"
#include "synthetic_cluster.h"

#include "prometheus/metrics_join.h"
#include "prometheus/metrics_part_builder.h"
#include "prometheus/metrics_query_plan.h"
#include "prometheus/metrics_source.h"
#include "prometheus/prometheus_response_parser.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentMap>

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <numeric>

using namespace strata;
using bench::DcgmResponseGenerator;
using ResultType = PrometheusResponse::ResultType;

namespace {

double ms(const QElapsedTimer &t)
{
    return t.nsecsElapsed() / 1e6;
}

// This thread's CPU time: the machine may be shared, and wall time then includes waiting.
double cpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

long peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;
}

double mib(qint64 bytes)
{
    return bytes / (1024.0 * 1024.0);
}

const QStringList kGauges = {
    QStringLiteral("DCGM_FI_DEV_GPU_UTIL"),    QStringLiteral("DCGM_FI_DEV_MEM_COPY_UTIL"),
    QStringLiteral("DCGM_FI_DEV_FB_USED"),     QStringLiteral("DCGM_FI_DEV_FB_FREE"),
    QStringLiteral("DCGM_FI_DEV_GPU_TEMP"),    QStringLiteral("DCGM_FI_DEV_MEMORY_TEMP"),
    QStringLiteral("DCGM_FI_DEV_POWER_USAGE"), QStringLiteral("DCGM_FI_DEV_SM_CLOCK"),
    QStringLiteral("DCGM_FI_DEV_MEM_CLOCK"),   QStringLiteral("DCGM_FI_DEV_XID_ERRORS"),
};

struct Bodies
{
    QByteArray gauges, pcie, targets, usage;
    QVector<QByteArray> gaugesPerMetric; // --per-metric: one body per gauge instead
    QVector<QByteArray> usagePerMetric;
    MetricsQueryPlan::Range range;
    qint64 total() const
    {
        qint64 n = gauges.size() + pcie.size() + targets.size() + usage.size();
        for (const QByteArray &b : gaugesPerMetric)
            n += b.size();
        for (const QByteArray &b : usagePerMetric)
            n += b.size();
        return n;
    }
};

struct Timings
{
    double parseGauges = 0, buildGauges = 0, parseSmall = 0, parseUsage = 0, buildUsage = 0, join = 0;
    double cpu = 0;  // the whole refresh, CPU time of this thread
    double wall = 0; // the whole refresh, wall time
    double total() const { return parseGauges + buildGauges + parseSmall + parseUsage + buildUsage + join; }
};

PrometheusResponse parse(const QByteArray &body, ResultType expect, const QStringList &keep)
{
    PrometheusResponseParser::Options options;
    options.expect = expect;
    options.keepLabels = keep;
    PrometheusResponse r = PrometheusResponseParser::parse(body, 200, options);
    if (!r.ok)
        qFatal("generated body does not parse: %s", qPrintable(r.error));
    return r;
}

Timings refreshOnce(const Bodies &bodies, const ClusterSnapshot &base, const ClusterProfile &profile,
                    ClusterSnapshot *joined)
{
    const MetricsQueryPlan plan(MetricsQueryPlan::Options{});
    const QStringList keep = plan.keptLabels();
    Timings t;
    MetricsPart part;
    part.takenAt = QDateTime::fromSecsSinceEpoch(bodies.range.end, Qt::UTC);

    double mark = cpuMs();
    // Per stage: this thread's CPU time (the stages are single-threaded); wall for the total.
    const auto lap = [&mark] {
        const double now = cpuMs();
        const double d = now - mark;
        mark = now;
        return d;
    };
    QElapsedTimer wall;
    wall.start();
    // Each answer is dropped once converted, as MetricsSource does.
    if (bodies.gaugesPerMetric.isEmpty()) {
        const PrometheusResponse gauges = parse(bodies.gauges, ResultType::Vector, keep);
        t.parseGauges = lap();
        part.gpus = MetricsPartBuilder::gpuSamples(gauges, QString());
    } else {
        for (const QByteArray &body : bodies.gaugesPerMetric) {
            const PrometheusResponse gauges = parse(body, ResultType::Vector, keep);
            t.parseGauges += lap();
            MetricsPartBuilder::mergeGpuSamples(part.gpus, MetricsPartBuilder::gpuSamples(gauges, QString()));
            t.buildGauges += lap();
        }
    }
    t.buildGauges += lap();

    {
        const PrometheusResponse pcie = parse(bodies.pcie, ResultType::Vector, keep);
        const PrometheusResponse up = parse(bodies.targets, ResultType::Vector, {});
        MetricsPartBuilder::addPcieReplayIncrease(part.gpus, pcie, QString());
        part.targets = MetricsPartBuilder::exporterTargets(up);
        part.targetsKnown = true;
    }
    t.parseSmall = lap();

    if (bodies.usagePerMetric.isEmpty()) {
        const PrometheusResponse usage = parse(bodies.usage, ResultType::Matrix, keep);
        t.parseUsage = lap();
        part.usage = MetricsPartBuilder::usageSeries(usage, QString());
    } else {
        // Util and memory apart; merged as the builder merges one body's two metrics.
        PrometheusResponse both;
        for (const QByteArray &body : bodies.usagePerMetric) {
            PrometheusResponse r = parse(body, ResultType::Matrix, keep);
            both.series += std::move(r.series);
        }
        t.parseUsage = lap();
        part.usage = MetricsPartBuilder::usageSeries(both, QString());
    }
    part.usageKnown = true;
    part.usageStart = bodies.range.start;
    part.usageEnd = bodies.range.end;
    part.usageStepSeconds = bodies.range.stepSeconds;
    t.buildUsage = lap();

    const double wallBeforeCopy = ms(wall);
    *joined = base; // not timed: the session builds a fresh snapshot anyway
    lap();
    wall.restart();
    MetricsJoin::apply(*joined, part, profile);
    t.join = lap();
    t.wall = wallBeforeCopy + ms(wall);
    t.cpu = t.total();
    return t;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser cli;
    cli.setApplicationDescription(QStringLiteral("Times one metrics refresh (parse + join) at cluster scale."));
    cli.addHelpOption();
    const QCommandLineOption nodesOption(QStringLiteral("nodes"), QStringLiteral("Nodes (8 GPUs each)."), QStringLiteral("n"), QStringLiteral("2048"));
    const QCommandLineOption jobsOption(QStringLiteral("jobs"), QStringLiteral("Jobs."), QStringLiteral("n"), QStringLiteral("50000"));
    const QCommandLineOption pointsOption(QStringLiteral("usage-points"), QStringLiteral("Points per usage series."),
                                          QStringLiteral("n"), QString::number(MetricsSource::Options{}.usageMaxPoints));
    const QCommandLineOption runsOption(QStringLiteral("runs"), QStringLiteral("Repetitions (best is reported)."), QStringLiteral("n"), QStringLiteral("3"));
    const QCommandLineOption hpcJobOption(QStringLiteral("hpc-job"), QStringLiteral("Exporter labels GPUs with hpc_job."));
    const QCommandLineOption perMetricOption(QStringLiteral("per-metric"), QStringLiteral("One query (body) per metric instead of one __name__ regex."));
    const QCommandLineOption compareOption(QStringLiteral("compare"), QStringLiteral("Also time the alternatives (QJsonDocument, full labels, per-metric bodies)."));
    cli.addOptions({nodesOption, jobsOption, pointsOption, runsOption, hpcJobOption, perMetricOption, compareOption});
    cli.process(app);
    if (cli.isSet(perMetricOption) && cli.isSet(compareOption)) {
        std::fprintf(stderr, "--compare measures against the one-body default: drop --per-metric\n");
        return 2;
    }

    SyntheticClusterOptions options;
    options.nodes = cli.value(nodesOption).toInt();
    options.gpusPerNode = 8;
    options.jobs = cli.value(jobsOption).toInt();
    options.metrics = false;
    QElapsedTimer timer;
    timer.start();
    const ClusterSnapshot generated = SyntheticCluster::generate(options);
    // What the scheduler alone gives: expected GPU counts, jobs with their GPU indices.
    ClusterSnapshot base = generated;
    for (Node &n : base.nodes)
        n.gpus.clear();
    base.findings.clear();
    const long rssSnapshot = peakRssMiB();

    qint64 oldest = 0;
    for (const Job &j : base.jobs)
        if (j.isRunning() && j.startTime > 0 && (oldest == 0 || j.startTime < oldest))
            oldest = j.startTime;
    const qint64 now = generated.takenAt.toSecsSinceEpoch();
    const MetricsSource::Options sourceOptions;
    Bodies bodies;
    bodies.range = MetricsQueryPlan::usageRange(oldest, now, cli.value(pointsOption).toInt(), sourceOptions.usageMinStepSeconds,
                                                sourceOptions.usageMaxWindowSeconds);
    DcgmResponseGenerator::Options g;
    g.hpcJob = cli.isSet(hpcJobOption);
    g.end = now;
    g.metrics = kGauges;
    bodies.gauges = DcgmResponseGenerator::body(generated, g);
    g.metrics = {QStringLiteral("DCGM_FI_DEV_PCIE_REPLAY_COUNTER")};
    bodies.pcie = DcgmResponseGenerator::body(generated, g);
    bodies.targets = DcgmResponseGenerator::targets(generated);
    g.metrics = {QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), QStringLiteral("DCGM_FI_DEV_FB_USED")};
    g.points = int((bodies.range.end - bodies.range.start) / bodies.range.stepSeconds) + 1;
    g.step = bodies.range.stepSeconds;
    bodies.usage = DcgmResponseGenerator::body(generated, g);
    if (cli.isSet(perMetricOption)) {
        for (const QString &metric : {QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), QStringLiteral("DCGM_FI_DEV_FB_USED")}) {
            DcgmResponseGenerator::Options one = g;
            one.metrics = {metric};
            bodies.usagePerMetric << DcgmResponseGenerator::body(generated, one);
        }
        for (const QString &metric : kGauges) {
            DcgmResponseGenerator::Options one = g;
            one.metrics = {metric};
            one.points = 1;
            bodies.gaugesPerMetric << DcgmResponseGenerator::body(generated, one);
        }
        bodies.gauges.clear();
        bodies.usage.clear();
    }
    const double generateMs = ms(timer);

    int running = 0;
    for (const Job &j : base.jobs)
        running += j.isRunning();
    std::printf("cluster: %lld nodes, %d GPUs, %lld jobs (%d running); generated in %.0f ms\n",
                qlonglong(base.nodes.size()), options.nodes * 8, qlonglong(base.jobs.size()), running, generateMs);
    std::printf("bodies: gauges %.1f MiB (%lld series), pcie %.1f MiB, targets %.2f MiB, usage %.1f MiB "
                "(%d points x %lld s step); total %.1f MiB\n",
                mib(bodies.gauges.size()), qlonglong(options.nodes) * 8 * kGauges.size(), mib(bodies.pcie.size()),
                mib(bodies.targets.size()), mib(bodies.usage.size()), g.points, qlonglong(bodies.range.stepSeconds),
                mib(bodies.total()));
    const long rssBodies = peakRssMiB();

    ClusterProfile profile;
    ClusterSnapshot joined;
    Timings best;
    const int runs = std::max(1, cli.value(runsOption).toInt());
    for (int run = 0; run < runs; ++run) {
        const Timings t = refreshOnce(bodies, base, profile, &joined);
        std::printf("run %d (CPU ms): parse gauges %.1f ms, build %.1f ms | pcie+targets %.1f ms | parse usage %.1f ms, "
                    "build %.1f ms | join %.1f ms | total %.1f ms CPU, %.1f ms wall\n",
                    run + 1, t.parseGauges, t.buildGauges, t.parseSmall, t.parseUsage, t.buildUsage, t.join, t.cpu, t.wall);
        if (run == 0 || t.cpu < best.cpu)
            best = t;
    }
    int seen = 0, verdicts = 0;
    for (const Node &n : joined.nodes)
        for (const Gpu &gpu : n.gpus)
            seen += gpu.seenByExporter;
    for (const Job &j : joined.jobs)
        verdicts += !j.efficiencyVerdict.isEmpty();
    const long rssRefresh = peakRssMiB();
    std::printf("result: %d GPUs seen, %lld findings, %d running jobs with a verdict\n", seen,
                qlonglong(joined.findings.size()), verdicts);
    std::printf("BEST: parse+build+join %.1f ms CPU (%.1f ms wall) for %.1f MiB (%.0f MiB/s parse); join alone %.1f ms\n",
                best.cpu, best.wall, mib(bodies.total()),
                mib(bodies.total()) / ((best.parseGauges + best.parseSmall + best.parseUsage) / 1000.0), best.join);
    std::printf("peak RSS: %ld MiB after the snapshot, %ld MiB with the bodies, %ld MiB after the refreshes\n",
                rssSnapshot, rssBodies, rssRefresh);

    if (!cli.isSet(compareOption))
        return 0;

    const QStringList keep = MetricsQueryPlan(MetricsQueryPlan::Options{}).keptLabels();
    timer.restart();
    const PrometheusResponse viaQJson = bench::QJsonResponseParser::parse(bodies.gauges, keep);
    const double qjsonGauges = ms(timer);
    timer.restart();
    const PrometheusResponse viaQJsonUsage = bench::QJsonResponseParser::parse(bodies.usage, keep);
    const double qjsonUsage = ms(timer);
    std::printf("compare QJsonDocument: gauges %.1f ms (simdjson %.1f), usage %.1f ms (simdjson %.1f); series %lld/%lld; "
                "peak RSS now %ld MiB\n",
                qjsonGauges, best.parseGauges, qjsonUsage, best.parseUsage, qlonglong(viaQJson.series.size()),
                qlonglong(viaQJsonUsage.series.size()), peakRssMiB());

    DcgmResponseGenerator::Options full;
    full.metrics = kGauges;
    full.fullLabels = true;
    full.hpcJob = g.hpcJob;
    full.end = now;
    const QByteArray fullBody = DcgmResponseGenerator::body(generated, full);
    timer.restart();
    const PrometheusResponse fullParsed = parse(fullBody, ResultType::Vector, keep);
    const double fullMs = ms(timer);
    timer.restart();
    const PrometheusResponse fullAllLabels = parse(fullBody, ResultType::Vector, {});
    const double fullAllMs = ms(timer);
    std::printf("compare exporter labels (no max by): gauges %.1f MiB vs %.1f MiB; parse %.1f ms keeping the join's labels, "
                "%.1f ms keeping all (%lld series)\n",
                mib(fullBody.size()), mib(bodies.gauges.size()), fullMs, fullAllMs, qlonglong(fullAllLabels.series.size()));
    Q_UNUSED(fullParsed)

    QVector<QByteArray> perMetric;
    for (const QString &metric : kGauges) {
        DcgmResponseGenerator::Options one = g;
        one.metrics = {metric};
        one.points = 1;
        perMetric << DcgmResponseGenerator::body(generated, one);
    }
    timer.restart();
    const QList<int> counts = QtConcurrent::blockingMapped(perMetric, [keep](const QByteArray &body) {
        return int(parse(body, ResultType::Vector, keep).series.size());
    });
    const double parallelMs = ms(timer);
    std::printf("compare 10 per-metric bodies parsed on %d threads: %.1f ms (one __name__ regex body: %.1f ms); %d series\n",
                QThreadPool::globalInstance()->maxThreadCount(), parallelMs, best.parseGauges,
                std::accumulate(counts.begin(), counts.end(), 0));
    return 0;
}
