// How real dcgm-exporter deployments label their series, through the whole metrics path
// (parser -> MetricsPartBuilder -> MetricsJoin): GPU Operator behind prometheus-operator
// (exported_* labels, the exporter's own pod/namespace), a pod name in `Hostname`, a scrape
// instance that is a node's IP, MIG instances, and the "not supported" codes of old exporters.
// Bodies: tests/data/prometheus/deployments/ (see its README).
#include "prometheus/dcgm_metric_catalog.h"
#include "prometheus/metrics_join.h"
#include "prometheus/metrics_part_builder.h"
#include "prometheus/metrics_query_plan.h"
#include "prometheus/prometheus_response_parser.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

PrometheusResponse parsed(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/prometheus/deployments/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    PrometheusResponseParser::Options options;
    options.expect = PrometheusResponse::ResultType::Vector;
    if (!name.endsWith(QLatin1String("_up.json")))
        options.keepLabels = MetricsQueryPlan(MetricsQueryPlan::Options{}).keptLabels();
    const PrometheusResponse r = PrometheusResponseParser::parse(file.readAll(), 200, options);
    if (!r.ok)
        qFatal("%s: %s", qPrintable(name), qPrintable(r.error));
    return r;
}

Node node(const QString &name, int gpus, const QStringList &addresses = {})
{
    Node n;
    n.name = name;
    n.state = QStringLiteral("ready");
    n.gpuCount = gpus;
    n.gpuModel = QStringLiteral("H100");
    n.addresses = addresses;
    return n;
}

Job runningJob(const QString &id, int gpus)
{
    Job j;
    j.id = id;
    j.setState(QStringLiteral("RUNNING"));
    j.gpusRequested = gpus;
    j.startTime = 1764705000;
    return j;
}

// The operator clusters: nodes p5-a, p5-b; Job ml/train-llm on p5-a; the exporter pods as
// Kubernetes lists them.
ClusterSnapshot operatorCluster(bool withPods)
{
    ClusterSnapshot s;
    s.orchestrator = OrchestratorKind::Kubernetes;
    s.nodes = {node(QStringLiteral("p5-a"), 2), node(QStringLiteral("p5-b"), 2)};
    s.jobs = {runningJob(QStringLiteral("ml/train-llm"), 2)};
    if (withPods)
        for (const auto &[pod, nodeName] : {std::pair{QStringLiteral("nvidia-dcgm-exporter-7xk2p"), QStringLiteral("p5-a")},
                                            std::pair{QStringLiteral("nvidia-dcgm-exporter-q9d4m"), QStringLiteral("p5-b")}}) {
            s.podNodes.insert(pod, nodeName);
            s.podNodes.insert(QStringLiteral("gpu-operator/") + pod, nodeName);
        }
    s.finalize();
    return s;
}

MetricsPart partOf(const QString &gauges, const QString &up = {})
{
    MetricsPart p;
    p.prometheusUrl = QStringLiteral("http://prometheus:9090");
    p.takenAt = QDateTime::fromSecsSinceEpoch(1764705600, Qt::UTC);
    p.gpus = MetricsPartBuilder::gpuSamples(parsed(gauges), QString());
    if (!up.isEmpty()) {
        p.targets = MetricsPartBuilder::exporterTargets(parsed(up));
        p.targetsKnown = true;
    }
    return p;
}

const Gpu &gpuOf(const ClusterSnapshot &s, const QString &nodeName, int index)
{
    const Node *n = s.node(nodeName);
    if (!n || index >= n->gpus.size())
        qFatal("no GPU %d on %s", index, qPrintable(nodeName));
    return n->gpus[index];
}

QStringList findingCodes(const ClusterSnapshot &s)
{
    QStringList codes;
    for (const Finding &f : s.findings)
        codes << QStringLiteral("%1:%2:%3").arg(f.node).arg(f.gpu).arg(f.code);
    return codes;
}

} // namespace

class TestMetricsDeployments : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void operatorStyle_data();
    void operatorStyle();
    void instanceIpFindsNodeByAddress();
    void ambiguousAddressIsNotGuessed();
    void migInstancesUnderTheirGpu();
    void migJobUsesItsInstances();
    void blankCodesAreMissing_data();
    void blankCodesAreMissing();
    void blankCodesRaiseNoFindings();
    void labCaptureQueriesAreThePlans();
    void labCaptureEveryStyleJoinsRight();
};

void TestMetricsDeployments::operatorStyle_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("withTargets");
    QTest::addColumn<bool>("withPods");
    // Hostname is the node (exporter >= 3.1.6 with NODE_NAME): the exported_* labels name the
    // workload; an idle GPU's `pod` is the exporter's, known from the targets or not.
    QTest::newRow("exported_* labels, targets known") << "operator_exported_labels.json" << true << false;
    // Hostname is the exporter's pod: Kubernetes says where that pod runs.
    QTest::newRow("pod Hostname, pods known") << "operator_pod_hostname.json" << true << true;
    QTest::newRow("pod Hostname, pods known, no targets") << "operator_pod_hostname.json" << false << true;
    // ... or the scrape config's kubernetes_node target label does.
    QTest::newRow("pod Hostname, kubernetes_node label") << "operator_pod_hostname_kubernetes_node.json" << true << false;
}

void TestMetricsDeployments::operatorStyle()
{
    QFETCH(QString, file);
    QFETCH(bool, withTargets);
    QFETCH(bool, withPods);
    ClusterSnapshot s = operatorCluster(withPods);
    MetricsJoin::apply(s, partOf(file, withTargets ? QStringLiteral("operator_up.json") : QString()), ClusterProfile{});

    for (int g = 0; g < 2; ++g) {
        const Gpu &busy = gpuOf(s, QStringLiteral("p5-a"), g);
        QVERIFY(busy.seenByExporter);
        QCOMPARE(busy.jobId, QStringLiteral("ml/train-llm-0-abcde")); // the workload, not the exporter
        QCOMPARE(busy.metrics.utilPercent, std::optional<double>(97));
        const Gpu &idle = gpuOf(s, QStringLiteral("p5-b"), g);
        QVERIFY(idle.seenByExporter);
        QCOMPARE(idle.jobId, QString()); // not "gpu-operator/nvidia-dcgm-exporter-q9d4m"
        QCOMPARE(idle.metrics.utilPercent, std::optional<double>(0));
    }
    const Job *job = s.job(QStringLiteral("ml/train-llm"));
    QCOMPARE(job->gpuUtilMean, std::optional<double>(97));
    QCOMPARE(job->gpuUtilBasis, QStringLiteral("current"));
    const QStringList codes = findingCodes(s);
    QVERIFY2(codes.isEmpty(), qPrintable(codes.join(u' ')));
}

void TestMetricsDeployments::instanceIpFindsNodeByAddress()
{
    ClusterSnapshot s;
    s.nodes = {node(QStringLiteral("gpu-a"), 2, {QStringLiteral("10.1.0.11"), QStringLiteral("gpu-a.internal")}),
               node(QStringLiteral("gpu-b"), 2, {QStringLiteral("10.1.0.12")})};
    s.finalize();
    MetricsJoin::apply(s, partOf(QStringLiteral("static_instance_ip.json")), ClusterProfile{});
    for (const QString &n : {QStringLiteral("gpu-a"), QStringLiteral("gpu-b")})
        for (int g = 0; g < 2; ++g)
            QVERIFY2(gpuOf(s, n, g).seenByExporter, qPrintable(n));
    QCOMPARE(gpuOf(s, QStringLiteral("gpu-b"), 1).uuid, QStringLiteral("GPU-101012-1"));
    QVERIFY2(findingCodes(s).isEmpty(), qPrintable(findingCodes(s).join(u' ')));
}

void TestMetricsDeployments::ambiguousAddressIsNotGuessed()
{
    ClusterSnapshot s;
    s.nodes = {node(QStringLiteral("gpu-a"), 2, {QStringLiteral("10.1.0.11")}),
               node(QStringLiteral("gpu-b"), 2, {QStringLiteral("10.1.0.12")}),
               node(QStringLiteral("gpu-c"), 2, {QStringLiteral("10.1.0.11")})};
    s.finalize();
    MetricsJoin::apply(s, partOf(QStringLiteral("static_instance_ip.json")), ClusterProfile{});
    QVERIFY(!gpuOf(s, QStringLiteral("gpu-a"), 0).seenByExporter);
    QVERIFY(!gpuOf(s, QStringLiteral("gpu-c"), 0).seenByExporter);
    QVERIFY(gpuOf(s, QStringLiteral("gpu-b"), 0).seenByExporter);
    QVERIFY(findingCodes(s).contains(QStringLiteral(":-1:metrics-unmatched-hosts")));
}

void TestMetricsDeployments::migInstancesUnderTheirGpu()
{
    ClusterSnapshot s;
    s.orchestrator = OrchestratorKind::Kubernetes;
    s.nodes = {node(QStringLiteral("gpu-mig01"), 2)};
    s.finalize();
    MetricsJoin::apply(s, partOf(QStringLiteral("mig_instances.json")), ClusterProfile{});

    const Gpu &mig = gpuOf(s, QStringLiteral("gpu-mig01"), 0);
    QCOMPARE(mig.migInstances.size(), 3);
    const MigInstance &a = mig.migInstances[0], &b = mig.migInstances[1], &free = mig.migInstances[2];
    QCOMPARE(a.id, 1);
    QCOMPARE(a.profile, QStringLiteral("3g.40gb"));
    QCOMPARE(a.jobId, QStringLiteral("serving/infer-a-6d9f8"));
    QCOMPARE(a.metrics.utilPercent, std::optional<double>(90)); // GR engine active 0.9
    QCOMPARE(a.metrics.memUsedMiB, std::optional<double>(30000));
    QCOMPARE(b.id, 2);
    QCOMPARE(b.profile, QStringLiteral("2g.20gb"));
    QCOMPARE(b.jobId, QStringLiteral("serving/infer-b-2kq7z"));
    QCOMPARE(b.metrics.utilPercent, std::optional<double>(45));
    QCOMPARE(free.profile, QStringLiteral("1g.10gb"));
    QCOMPARE(free.jobId, QString());
    QCOMPARE(free.metrics.utilPercent, std::optional<double>(0));
    // The GPU: memory summed, utilisation weighted by compute slices, the GPU's own values once.
    QCOMPARE(mig.metrics.memUsedMiB, std::optional<double>(42000));
    QCOMPARE(mig.metrics.memFreeMiB, std::optional<double>(40448 - 30000 + 20224 - 12000 + 10112));
    QVERIFY(mig.metrics.utilPercent);
    QCOMPARE(*mig.metrics.utilPercent, (3 * 90.0 + 2 * 45.0 + 1 * 0.0) / 6);
    QCOMPARE(mig.metrics.tempC, std::optional<double>(58));
    QCOMPARE(mig.metrics.powerW, std::optional<double>(402.5));
    QCOMPARE(mig.jobId, QString()); // two pods share it: the instances say who
    QCOMPARE(mig.uuid, QStringLiteral("GPU-5d2c7a9e-3b1f-4e0a-9c6d-1f2e3d4c5b6a"));

    const Gpu &whole = gpuOf(s, QStringLiteral("gpu-mig01"), 1);
    QVERIFY(whole.migInstances.isEmpty());
    QCOMPARE(whole.metrics.utilPercent, std::optional<double>(88));
    QVERIFY2(findingCodes(s).isEmpty(), qPrintable(findingCodes(s).join(u' ')));
}

void TestMetricsDeployments::migJobUsesItsInstances()
{
    ClusterSnapshot s;
    s.orchestrator = OrchestratorKind::Kubernetes;
    s.nodes = {node(QStringLiteral("gpu-mig01"), 2)};
    // Bare pods that request GPUs are jobs named after the pod.
    s.jobs = {runningJob(QStringLiteral("serving/infer-a-6d9f8"), 1), runningJob(QStringLiteral("serving/infer-b-2kq7z"), 1)};
    s.finalize();
    MetricsJoin::apply(s, partOf(QStringLiteral("mig_instances.json")), ClusterProfile{});
    QCOMPARE(s.job(QStringLiteral("serving/infer-a-6d9f8"))->gpuUtilMean, std::optional<double>(90));
    QCOMPARE(s.job(QStringLiteral("serving/infer-a-6d9f8"))->gpuMemUsedMeanMiB, std::optional<double>(30000));
    QCOMPARE(s.job(QStringLiteral("serving/infer-b-2kq7z"))->gpuUtilMean, std::optional<double>(45));
}

void TestMetricsDeployments::blankCodesAreMissing_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<bool>("present");
    QTest::addColumn<double>("value");
    QTest::newRow("util is a reading") << "util" << true << 42.0;
    QTest::newRow("temperature is a reading") << "temp" << true << 51.0;
    QTest::newRow("HBM temperature 2147483647") << "memory-temp" << false << 0.0;
    QTest::newRow("row remap failure 9223372036854775808") << "row-remap-failure" << false << 0.0;
    QTest::newRow("uncorrectable rows 9223372036854775794") << "remapped-rows-uncorrectable" << false << 0.0;
    QTest::newRow("XID 4294967295") << "xid" << false << 0.0;
    QTest::newRow("tensor active 2^47 + 2") << "tensor" << false << 0.0;
    QTest::newRow("power 9.223372036854776e+18") << "power" << false << 0.0;
}

void TestMetricsDeployments::blankCodesAreMissing()
{
    QFETCH(QString, field);
    QFETCH(bool, present);
    QFETCH(double, value);
    const QVector<GpuSample> samples = MetricsPartBuilder::gpuSamples(parsed(QStringLiteral("old_exporter_sentinels.json")), QString());
    QCOMPARE(samples.size(), 1);
    const DcgmMetric *metric = DcgmMetricCatalog::find(field);
    QVERIFY(metric);
    const std::optional<double> v = samples[0].metrics.*(metric->field);
    QCOMPARE(v.has_value(), present);
    if (present)
        QCOMPARE(*v, value);
}

void TestMetricsDeployments::blankCodesRaiseNoFindings()
{
    ClusterSnapshot s;
    s.nodes = {node(QStringLiteral("gpu-old01"), 1)};
    s.finalize();
    MetricsJoin::apply(s, partOf(QStringLiteral("old_exporter_sentinels.json")), ClusterProfile{});
    QVERIFY(gpuOf(s, QStringLiteral("gpu-old01"), 0).seenByExporter);
    QVERIFY2(findingCodes(s).isEmpty(), qPrintable(findingCodes(s).join(u' ')));
}

namespace {
QByteArray labStyles(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/prometheus/lab-styles/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}
} // namespace

void TestMetricsDeployments::labCaptureQueriesAreThePlans()
{
    // The captures answer the plan's queries as they were; a changed plan needs a recapture
    // (tests/data/prometheus/lab-styles/capture.sh).
    const MetricsQueryPlan plan(MetricsQueryPlan::Options{});
    QCOMPARE(QString::fromUtf8(labStyles(QStringLiteral("gauges.promql"))).trimmed(), plan.gauges());
    QCOMPARE(QString::fromUtf8(labStyles(QStringLiteral("targets.promql"))).trimmed(), plan.exporterTargets());
    QCOMPARE(QString::fromUtf8(labStyles(QStringLiteral("usage.promql"))).trimmed(), plan.usage());
}

void TestMetricsDeployments::labCaptureEveryStyleJoinsRight()
{
    // Real Prometheus answers from the lab (see the folder's README): gpu-node01 classic,
    // gpu-node02 GPU Operator (exported_pod, pod-name Hostname, kubernetes_node) running job 1
    // on GPUs 0-1, gpu-node03 `hostname` with DCGM blank codes, gpu-node04 hpc_job with GPU 0 in
    // MIG mode running job 2 on it.
    PrometheusResponseParser::Options vector;
    vector.expect = PrometheusResponse::ResultType::Vector;
    vector.keepLabels = MetricsQueryPlan(MetricsQueryPlan::Options{}).keptLabels();
    PrometheusResponseParser::Options matrix = vector;
    matrix.expect = PrometheusResponse::ResultType::Matrix;
    PrometheusResponseParser::Options targets;
    targets.expect = PrometheusResponse::ResultType::Vector;
    const PrometheusResponse gauges = PrometheusResponseParser::parse(labStyles(QStringLiteral("gauges.json")), 200, vector);
    const PrometheusResponse up = PrometheusResponseParser::parse(labStyles(QStringLiteral("targets.json")), 200, targets);
    const PrometheusResponse usage = PrometheusResponseParser::parse(labStyles(QStringLiteral("usage.json")), 200, matrix);
    QVERIFY(gauges.ok && up.ok && usage.ok);

    MetricsPart part;
    part.prometheusUrl = QStringLiteral("http://127.0.0.1:19090");
    part.gpus = MetricsPartBuilder::gpuSamples(gauges, QString());
    part.targets = MetricsPartBuilder::exporterTargets(up);
    part.targetsKnown = true;
    part.usage = MetricsPartBuilder::usageSeries(usage, QString());
    part.usageKnown = true;
    qint64 first = 0;
    for (const PrometheusSeries &series : usage.series) {
        part.usageEnd = std::max(part.usageEnd, qint64(series.samples.last().time));
        first = first ? std::min(first, qint64(series.samples.first().time)) : qint64(series.samples.first().time);
    }
    part.takenAt = QDateTime::fromSecsSinceEpoch(part.usageEnd, Qt::UTC);

    ClusterSnapshot s;
    for (int i = 1; i <= 4; ++i)
        s.nodes << node(QStringLiteral("gpu-node0%1").arg(i), 8, {QStringLiteral("127.0.0.1")});
    Job operatorJob = runningJob(QStringLiteral("1"), 2);
    operatorJob.gpus.insert(QStringLiteral("gpu-node02"), {0, 1});
    operatorJob.startTime = first;
    Job migJob = runningJob(QStringLiteral("2"), 1);
    migJob.gpus.insert(QStringLiteral("gpu-node04"), {0});
    migJob.startTime = first;
    s.jobs = {operatorJob, migJob};
    s.finalize();
    MetricsJoin::apply(s, part, ClusterProfile{});

    // Every GPU on its node (127.0.0.1, every node's address, decides nothing), no finding:
    // not the blank codes, not an unknown host.
    for (const Node &n : std::as_const(s.nodes))
        for (const Gpu &g : n.gpus)
            QVERIFY2(g.seenByExporter, qPrintable(QStringLiteral("%1 GPU %2").arg(n.name).arg(g.index)));
    QVERIFY2(findingCodes(s).isEmpty(), qPrintable(findingCodes(s).join(u' ')));

    for (int g = 0; g < 8; ++g) {
        const Gpu &gpu = gpuOf(s, QStringLiteral("gpu-node02"), g);
        QCOMPARE(gpu.jobId, g < 2 ? QStringLiteral("1") : QString()); // never the exporter's pod
        QVERIFY(gpu.metrics.utilPercent);
        QCOMPARE(*gpu.metrics.utilPercent >= 85, g < 2);
    }

    const Gpu &mig = gpuOf(s, QStringLiteral("gpu-node04"), 0);
    QCOMPARE(mig.migInstances.size(), 3);
    QCOMPARE(mig.migInstances[0].id, 1);
    QCOMPARE(mig.migInstances[0].profile, QStringLiteral("3g.71gb"));
    QCOMPARE(mig.migInstances[0].jobId, QStringLiteral("2"));
    QVERIFY(*mig.migInstances[0].metrics.utilPercent >= 85);
    QCOMPARE(mig.migInstances[1].profile, QStringLiteral("2g.35gb"));
    QCOMPARE(mig.migInstances[1].jobId, QString());
    QCOMPARE(mig.migInstances[2].id, 4);
    QCOMPARE(*mig.metrics.memUsedMiB, *mig.migInstances[0].metrics.memUsedMiB);
    QCOMPARE(*mig.metrics.utilPercent, *mig.migInstances[0].metrics.utilPercent * 3 / 7);
    QCOMPARE(mig.jobId, QStringLiteral("2")); // the scheduler's, the instances disagree
    QVERIFY(gpuOf(s, QStringLiteral("gpu-node04"), 1).migInstances.isEmpty());

    for (int g = 0; g < 8; ++g) {
        const GpuMetrics &m = gpuOf(s, QStringLiteral("gpu-node03"), g).metrics;
        QVERIFY(m.tempC);
        QVERIFY(!m.memoryTempC);
        QVERIFY(!m.rowRemapFailure);
        QVERIFY(!m.uncorrectableRemappedRows);
        QVERIFY(!m.tensorActive);
    }

    // Both jobs from their window: job 1 through exported_pod, job 2 through its instance's
    // hpc_job and GR engine activity.
    for (const Job &job : std::as_const(s.jobs)) {
        QCOMPARE(job.gpuUtilBasis, QStringLiteral("window"));
        QVERIFY2(job.gpuUtilMean && *job.gpuUtilMean >= 85, qPrintable(job.id));
    }
    QVERIFY(s.job(QStringLiteral("2"))->gpuMemUsedMeanMiB);
}

QTEST_GUILESS_MAIN(TestMetricsDeployments)
#include "tst_metrics_deployments.moc"
