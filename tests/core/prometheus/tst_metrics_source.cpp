// MetricsSource end to end: a real prometheus (started here) scrapes two DCGM exporter
// stand-ins (canned HTTP servers speaking the exporter's text format) and one target that is
// down; one refresh must come back as a MetricsPart the join turns into GPUs, job usage and
// findings. Also: no overlap, the usage cache, and Prometheus unreachable.
#include "canned_http_server.h"
#include "prometheus_process.h"

#include "prometheus/metric_series_query.h"
#include "prometheus/metrics_join.h"
#include "prometheus/metrics_source.h"
#include "prometheus/prometheus_client.h"
#include "profile/cluster_profile.h"

#include <QTest>

#include <atomic>
#include <memory>

using namespace strata;
using strata::test::CannedHttpServer;
using strata::test::PrometheusProcess;

namespace {

template <typename T>
T wait(QFuture<T> future, int timeoutMs = 15000)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!future.isFinished() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    if (!future.isFinished())
        qFatal("future did not finish within %d ms", timeoutMs);
    return future.result();
}

// The exporter's text format for two GPUs of one host; `hostLabel` is Hostname or hostname.
QByteArray exposition(const QString &hostLabel, const QString &host, const QString &job, int scrape,
                      int xidOnGpu1, double tempGpu1)
{
    QByteArray out;
    for (int gpu = 0; gpu < 2; ++gpu) {
        QString labels = QStringLiteral("gpu=\"%1\",UUID=\"GPU-%2-%1\",device=\"nvidia%1\",modelName=\"NVIDIA H100 80GB HBM3\","
                                        "pci_bus_id=\"00000000:1%1:00.0\",%3=\"%2\",DCGM_FI_DRIVER_VERSION=\"550.54.15\"")
                             .arg(gpu).arg(host, hostLabel);
        if (!job.isEmpty())
            labels += QStringLiteral(",hpc_job=\"%1\"").arg(job);
        const auto line = [&](const char *name, double value) {
            out += QByteArray(name) + '{' + labels.toUtf8() + "} " + QByteArray::number(value) + '\n';
        };
        line("DCGM_FI_DEV_GPU_UTIL", gpu == 0 ? 97 : 2);
        line("DCGM_FI_DEV_FB_USED", 60000 + gpu);
        line("DCGM_FI_DEV_FB_FREE", 21000 - gpu);
        line("DCGM_FI_DEV_GPU_TEMP", gpu == 1 ? tempGpu1 : 45);
        line("DCGM_FI_DEV_POWER_USAGE", 650.5);
        line("DCGM_FI_DEV_SM_CLOCK", 1980);
        line("DCGM_FI_DEV_XID_ERRORS", gpu == 1 ? xidOnGpu1 : 0);
        line("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", gpu == 0 ? 0 : 500.0 * scrape);
    }
    return out;
}

} // namespace

class TestMetricsSource : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void refreshAndJoin();
    void refreshesDoNotOverlap();
    void usageIsCachedBetweenRefreshes();
    void linkCountersWhileAJobSpansNodes();
    void firstRefreshWithoutJobsThenUsage();
    void prometheusUnreachable();
    void metricSeriesForOneNode_data();
    void metricSeriesForOneNode();

private:
    ClusterProfile profile() const;
    ClusterSnapshot snapshot() const;

    std::unique_ptr<CannedHttpServer> m_node01, m_node02;
    std::unique_ptr<PrometheusProcess> m_prometheus;
    std::atomic<int> m_scrapes{0};
};

void TestMetricsSource::initTestCase()
{
    m_node01 = std::make_unique<CannedHttpServer>([this](const CannedHttpServer::Request &) {
        return CannedHttpServer::Response{200, "text/plain; version=0.0.4",
                                          exposition(QStringLiteral("Hostname"), QStringLiteral("gpu-node01.cluster.local"),
                                                     QStringLiteral("101"), ++m_scrapes, 0, 92)};
    });
    m_node02 = std::make_unique<CannedHttpServer>([this](const CannedHttpServer::Request &) {
        return CannedHttpServer::Response{200, "text/plain; version=0.0.4",
                                          exposition(QStringLiteral("hostname"), QStringLiteral("gpu-node02"), QString(),
                                                     ++m_scrapes, 79, 50)};
    });
    QVERIFY(m_node01->listen());
    QVERIFY(m_node02->listen());
    const QString scrape = QStringLiteral(
                               "  - job_name: dcgm\n"
                               "    static_configs:\n"
                               "      - { targets: [\"127.0.0.1:%1\"], labels: { node: gpu-node01 } }\n"
                               "      - { targets: [\"127.0.0.1:%2\"], labels: { node: gpu-node02 } }\n"
                               "      - { targets: [\"127.0.0.1:%3\"], labels: { node: gpu-node03 } }\n")
                               .arg(m_node01->port())
                               .arg(m_node02->port())
                               .arg(PrometheusProcess::freePort());
    m_prometheus = std::make_unique<PrometheusProcess>(scrape);
    QVERIFY2(m_prometheus->start(), qPrintable(m_prometheus->error()));
    // Until every target has been scraped twice (so increase() has two points).
    PrometheusClient::Config config;
    config.baseUrl = QUrl(m_prometheus->url());
    PrometheusClient client(config);
    QTRY_VERIFY_WITH_TIMEOUT(
        wait(client.query(QStringLiteral("increase(DCGM_FI_DEV_PCIE_REPLAY_COUNTER[1m])"))).series.size() == 4
            && wait(client.query(QStringLiteral("up{job=\"dcgm\"}"))).series.size() == 3,
        20000);
}

ClusterProfile TestMetricsSource::profile() const
{
    ClusterProfile p;
    p.name = QStringLiteral("test");
    p.prometheusUrl = m_prometheus->url();
    return p;
}

ClusterSnapshot TestMetricsSource::snapshot() const
{
    ClusterSnapshot s;
    for (int i = 1; i <= 3; ++i) {
        Node n;
        n.name = QStringLiteral("gpu-node0%1").arg(i);
        n.state = QStringLiteral("mixed");
        n.gpuCount = 2;
        n.gpuModel = QStringLiteral("H100");
        s.nodes << n;
    }
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    Job a;
    a.id = QStringLiteral("101");
    a.setState(QStringLiteral("RUNNING"));
    a.nodes = {QStringLiteral("gpu-node01")};
    a.gpus.insert(QStringLiteral("gpu-node01"), {0, 1});
    a.startTime = now - 600;
    Job b;
    b.id = QStringLiteral("202");
    b.setState(QStringLiteral("RUNNING"));
    b.nodes = {QStringLiteral("gpu-node02")};
    b.gpus.insert(QStringLiteral("gpu-node02"), {0});
    b.startTime = now - 300;
    s.jobs << a << b;
    return s;
}

void TestMetricsSource::refreshAndJoin()
{
    MetricsSource source(profile());
    ClusterSnapshot snap = snapshot();
    const MetricsPart part = wait(source.refresh(MetricsSource::Request::forJobs(snap.jobs)));
    QVERIFY2(part.ok(), qPrintable(part.error));
    QVERIFY2(part.warnings.isEmpty(), qPrintable(part.warnings.join(QLatin1Char('\n'))));
    QCOMPARE(part.gpus.size(), 4);
    QCOMPARE(part.targets.size(), 3);
    QVERIFY(part.targetsKnown);
    QCOMPARE(part.queries.size(), 7); // gauges, PCIe replays, targets, alerts, app, fabric, usage
    for (const MetricsQueryStat &q : part.queries)
        QVERIFY2(q.ok, qPrintable(q.name + QStringLiteral(": ") + q.error));
    QVERIFY(part.bytesRead > 0);
    QVERIFY(part.usageKnown);
    QCOMPARE(part.usage.size(), 4);
    QCOMPARE(part.usageStepSeconds, 60);
    QCOMPARE(part.status().source, SourceKind::Prometheus);
    QVERIFY(part.status().ok);
    for (const GpuSample &g : part.gpus) {
        QVERIFY(g.metrics.utilPercent.has_value());
        QVERIFY(!g.metrics.tensorActive.has_value()); // the stand-in has no profiling metrics
        QVERIFY(!g.uuid.isEmpty());
        QVERIFY(g.pcieReplaysIncrease.has_value());
    }

    MetricsJoin::apply(snap, part, profile());
    QVERIFY(snap.metricsAvailable);
    const Node &n1 = snap.nodes[0];
    QCOMPARE(n1.gpus.size(), 2);
    QVERIFY(n1.gpus[0].seenByExporter);
    QCOMPARE(n1.gpus[0].uuid, QStringLiteral("GPU-gpu-node01.cluster.local-0"));
    QCOMPARE(n1.gpus[0].jobId, QStringLiteral("101")); // from hpc_job
    QCOMPARE(*n1.gpus[0].metrics.utilPercent, 97.0);
    QCOMPARE(*n1.gpus[1].metrics.tempC, 92.0);
    const Node &n2 = snap.nodes[1];
    QCOMPARE(n2.gpus[0].jobId, QStringLiteral("202")); // from the scheduler's indices
    QVERIFY(n2.gpus[1].jobId.isEmpty());
    QCOMPARE(*n2.gpus[1].metrics.xid, 79.0);
    QVERIFY(!snap.nodes[2].gpus[0].seenByExporter);

    QStringList codes;
    for (const Finding &f : snap.findings)
        codes << QStringLiteral("%1/%2/%3").arg(f.node).arg(f.gpu).arg(f.code);
    QVERIFY2(codes.contains(QStringLiteral("gpu-node03/-1/exporter-down")), qPrintable(codes.join(QLatin1Char(' '))));
    QVERIFY2(codes.contains(QStringLiteral("gpu-node02/1/xid-79")), qPrintable(codes.join(QLatin1Char(' '))));
    QVERIFY2(codes.contains(QStringLiteral("gpu-node01/1/gpu-temp-high")), qPrintable(codes.join(QLatin1Char(' '))));
    QVERIFY(!codes.join(QLatin1Char(' ')).contains(QStringLiteral("gpu-node03/-1/no-gpu-metrics")));

    const Job &a = snap.jobs[0];
    QVERIFY(a.gpuUtilMean.has_value());
    QCOMPARE(*a.gpuUtilMin, 2.0);
    QCOMPARE(*a.gpuUtilMean, 49.5);
    QVERIFY(a.gpuMemUsedMeanMiB.has_value());
    QCOMPARE(a.efficiencyVerdict, QStringLiteral("2 GPUs held, mean 50%, lowest 2%"));
    const Job &b = snap.jobs[1];
    QCOMPARE(*b.gpuUtilMean, 97.0);
    QCOMPARE(b.efficiencyVerdict, QStringLiteral("1 GPU busy (mean 97%)"));
}

void TestMetricsSource::refreshesDoNotOverlap()
{
    MetricsSource source(profile());
    QFuture<MetricsPart> first = source.refresh();
    QVERIFY(source.isRefreshing());
    QFuture<MetricsPart> second = source.refresh();
    const MetricsPart a = wait(first);
    const MetricsPart b = wait(second);
    QVERIFY(a.ok());
    QCOMPARE(a.takenAt, b.takenAt); // the same refresh
    QVERIFY(!a.usageKnown);         // no running jobs asked for: no usage query
    QCOMPARE(a.queries.size(), 6);
    QTRY_VERIFY(!source.isRefreshing());
}

void TestMetricsSource::firstRefreshWithoutJobsThenUsage()
{
    // A session's first refresh (a one-shot `strata snapshot`'s only one) starts before the
    // scheduler has listed any job: no usage query with it, so jobs get their GPUs' latest
    // readings ("current"); the follow-up usage query gives the window since they started.
    MetricsSource source(profile());
    MetricsPart part = wait(source.refresh());
    QVERIFY(part.ok());
    QVERIFY(!part.usageKnown);
    ClusterSnapshot current = snapshot();
    MetricsJoin::apply(current, part, profile());
    QCOMPARE(current.jobs[0].gpuUtilBasis, QStringLiteral("current"));
    QCOMPARE(current.jobs[0].gpuUtilMean, std::optional<double>(49.5)); // 97 and 2 now
    QCOMPARE(current.jobs[1].gpuUtilMean, std::optional<double>(97));
    QVERIFY2(current.jobs[1].efficiencyVerdict.startsWith(QStringLiteral("1 GPU busy (mean 97%) (latest readings")),
             qPrintable(current.jobs[1].efficiencyVerdict));

    ClusterSnapshot windowed = snapshot();
    const MetricsPart usage = wait(source.refreshUsage(MetricsSource::Request::forJobs(windowed.jobs)));
    QVERIFY(usage.usageKnown);
    QCOMPARE(usage.usage.size(), 4);
    QCOMPARE(usage.queries.size(), 1);
    part.takeUsage(usage);
    QCOMPARE(part.queries.size(), 7);
    MetricsJoin::apply(windowed, part, profile());
    QCOMPARE(windowed.jobs[0].gpuUtilBasis, QStringLiteral("window"));
    QCOMPARE(windowed.jobs[0].gpuUtilMean, std::optional<double>(49.5));
    QCOMPARE(windowed.jobs[1].gpuUtilBasis, QStringLiteral("window"));
    QCOMPARE(windowed.jobs[1].efficiencyVerdict, QStringLiteral("1 GPU busy (mean 97%)"));

    // The cache is filled: the next refresh with jobs reuses it instead of asking again.
    const MetricsPart next = wait(source.refresh(MetricsSource::Request::forJobs(windowed.jobs)));
    QVERIFY(next.usageKnown);
    QCOMPARE(next.queries.size(), 6);

    // Nothing running: nothing asked.
    const MetricsPart none = wait(source.refreshUsage(MetricsSource::Request{}));
    QVERIFY(!none.usageKnown);
    QVERIFY(none.queries.isEmpty());
}

void TestMetricsSource::usageIsCachedBetweenRefreshes()
{
    MetricsSource source(profile());
    MetricsSource::Request request;
    request.oldestRunningJobStart = QDateTime::currentSecsSinceEpoch() - 3600;
    const MetricsPart first = wait(source.refresh(request));
    QCOMPARE(first.queries.size(), 7);
    const MetricsPart second = wait(source.refresh(request));
    QVERIFY(second.ok());
    QCOMPARE(second.queries.size(), 6); // the usage history is reused for usageRefreshSeconds
    QVERIFY(second.usageKnown);
    QCOMPARE(second.usageTakenAt, first.usageTakenAt);
    QCOMPARE(second.usage.size(), first.usage.size());
}

// A job over two nodes: one range query per NVLink/InfiniBand error counter (merged into one
// "link-errors" stat; the stand-in exports none of them: empty answers, no warning), reused for
// usageRefreshSeconds like the usage history.
void TestMetricsSource::linkCountersWhileAJobSpansNodes()
{
    MetricsSource source(profile());
    ClusterSnapshot snap = snapshot();
    snap.jobs[0].nodes = {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")};
    const MetricsSource::Request request = MetricsSource::Request::forJobs(snap.jobs);
    QCOMPARE(request.oldestMultiNodeJobStart, snap.jobs[0].startTime);
    const MetricsPart first = wait(source.refresh(request));
    QVERIFY2(first.ok(), qPrintable(first.error));
    QVERIFY2(first.warnings.isEmpty(), qPrintable(first.warnings.join(QLatin1Char('\n'))));
    QCOMPARE(first.queries.size(), 8); // gauges, PCIe replays, targets, alerts, app, fabric, usage, link errors
    QCOMPARE(first.queries.last().name, QStringLiteral("link-errors"));
    QVERIFY2(first.queries.last().ok, qPrintable(first.queries.last().error));
    QVERIFY(first.linkCountersKnown);
    QVERIFY(first.linkCounters.isEmpty());
    QVERIFY(first.linkCountersEnd > 0);
    const MetricsPart second = wait(source.refresh(request));
    QCOMPARE(second.queries.size(), 6);
    QVERIFY(second.linkCountersKnown);
    QCOMPARE(second.linkCountersEnd, first.linkCountersEnd);

    // A one-shot snapshot's follow-up (the jobs known only after the first refresh went out)
    // asks for the counters too, and takeUsage carries them into the refresh's part.
    MetricsSource oneShot(profile());
    MetricsPart part = wait(oneShot.refresh());
    QVERIFY(!part.linkCountersKnown);
    const MetricsPart followUp = wait(oneShot.refreshUsage(request));
    QCOMPARE(followUp.queries.size(), 2); // usage, link errors
    QCOMPARE(followUp.queries.last().name, QStringLiteral("link-errors"));
    QVERIFY2(followUp.queries.last().ok, qPrintable(followUp.queries.last().error));
    QVERIFY(followUp.linkCountersKnown);
    QVERIFY(followUp.linkCountersEnd > 0);
    part.takeUsage(followUp);
    QVERIFY(part.linkCountersKnown);
    QCOMPARE(part.linkCountersEnd, followUp.linkCountersEnd);
}

void TestMetricsSource::prometheusUnreachable()
{
    ClusterProfile p = profile();
    const int port = PrometheusProcess::freePort();
    p.prometheusUrl = QStringLiteral("http://127.0.0.1:%1").arg(port);
    MetricsSource source(p);
    const MetricsPart part = wait(source.refresh());
    QVERIFY(!part.ok());
    QCOMPARE(part.error,
             QStringLiteral("metrics unavailable: Prometheus at http://127.0.0.1:%1 not reachable: Connection refused").arg(port));
    QVERIFY(part.gpus.isEmpty());
    const SourceStatus status = part.status();
    QCOMPARE(status.source, SourceKind::Prometheus);
    QVERIFY(!status.ok);
    QCOMPARE(status.error, part.error);

    ClusterSnapshot snap = snapshot();
    MetricsJoin::apply(snap, part, p);
    QVERIFY(!snap.metricsAvailable);
    QVERIFY(snap.findings.isEmpty());
    QVERIFY(snap.nodes[0].gpus.isEmpty()); // scheduler data untouched
}

void TestMetricsSource::metricSeriesForOneNode_data()
{
    QTest::addColumn<QString>("node");
    QTest::addColumn<int>("gpu");
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QList<int>>("gpus"); // GPU indices expected back; empty: an error
    QTest::addColumn<double>("value");    // the last sample of the first series
    // gpu-node01's exporter labels it with its FQDN in `Hostname`, gpu-node02's with `hostname`.
    QTest::newRow("FQDN host label, one GPU") << "gpu-node01" << 1 << "temp" << QList<int>{1} << 92.0;
    QTest::newRow("hostname label, all GPUs") << "gpu-node02" << -1 << "util" << QList<int>{0, 1} << 97.0;
    QTest::newRow("raw DCGM name") << "gpu-node02" << 1 << "DCGM_FI_DEV_XID_ERRORS" << QList<int>{1} << 79.0;
    QTest::newRow("exporter down: no data") << "gpu-node03" << -1 << "util" << QList<int>{} << 0.0;
    QTest::newRow("unknown metric") << "gpu-node01" << -1 << "utilisation" << QList<int>{} << 0.0;
}

void TestMetricsSource::metricSeriesForOneNode()
{
    QFETCH(QString, node);
    QFETCH(int, gpu);
    QFETCH(QString, metric);
    QFETCH(QList<int>, gpus);
    QFETCH(double, value);
    PrometheusClient::Config config;
    config.baseUrl = QUrl(m_prometheus->url());
    PrometheusClient client(config);
    MetricSeriesQuery::Request request;
    request.node = node;
    request.gpu = gpu;
    request.metric = metric;
    request.sinceSeconds = 600;
    const MetricSeriesResult result = wait(MetricSeriesQuery::run(client, request, profile()));
    QList<int> got;
    for (const MetricSeries &s : result.series)
        got << s.gpu;
    QCOMPARE(got, gpus);
    QCOMPARE(result.error.isEmpty(), !gpus.isEmpty());
    if (gpus.isEmpty())
        return;
    QCOMPARE(result.stepSeconds, 15);
    QCOMPARE(result.end - result.start, 600);
    QVERIFY(!result.series[0].samples.isEmpty());
    QCOMPARE(result.series[0].samples.last().value, value);
    QCOMPARE(result.series[0].node, node);
}

QTEST_GUILESS_MAIN(TestMetricsSource)
#include "tst_metrics_source.moc"
