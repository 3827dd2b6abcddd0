// Parser, builder and join on the lab's captured answers (tests/data/prometheus/lab, recorded
// by the lab engineer from the real Prometheus scraping the DCGM stand-in; see its README):
// 4 nodes x 8 GPUs, Slurm job 5 on gpu-node03 GPUs 0-3 labelled hpc_job, then XID 79 on
// gpu-node02 GPU 3, gpu-node04 GPU 5 missing and gpu-node01's exporter down.
#include "prometheus/metrics_join.h"
#include "prometheus/metrics_part_builder.h"
#include "prometheus/metrics_query_plan.h"
#include "prometheus/prometheus_response_parser.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

QByteArray lab(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/prometheus/lab/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

int labStatus(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/prometheus/lab/") + name + QStringLiteral(".status"));
    return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().toInt() : 200;
}

// Keeping the labels MetricsSource keeps for DCGM series (all for `up`).
PrometheusResponse parsed(const QString &name, bool planLabels = true)
{
    PrometheusResponseParser::Options options;
    if (planLabels)
        options.keepLabels = MetricsQueryPlan(MetricsQueryPlan::Options{}).keptLabels();
    return PrometheusResponseParser::parse(lab(name), labStatus(name), options);
}

ClusterSnapshot labCluster()
{
    ClusterSnapshot s;
    for (int i = 1; i <= 4; ++i) {
        Node n;
        n.name = QStringLiteral("gpu-node0%1").arg(i);
        n.state = QStringLiteral("mixed");
        n.gpuCount = 8;
        s.nodes << n;
    }
    Job j;
    j.id = QStringLiteral("5");
    j.setState(QStringLiteral("RUNNING"));
    j.gpus.insert(QStringLiteral("gpu-node03"), {0, 1, 2, 3});
    s.jobs << j;
    return s;
}

} // namespace

class TestMetricsLabCaptures : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parses_data();
    void parses();
    void joinWithFaults();
    void newerHostnameLabel();
    void allFieldsOfOneGpu();
};

void TestMetricsLabCaptures::parses_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<int>("series");
    QTest::addColumn<QString>("errorContains");
    QTest::newRow("32 GPUs") << "vector_gpu_util_32.json" << true << 32 << "";
    QTest::newRow("one GPU, all fields") << "vector_one_gpu_all_fields.json" << true << 21 << "";
    QTest::newRow("by job") << "vector_busy_gpus_by_job.json" << true << 2 << "";
    QTest::newRow("range, node03") << "matrix_gpu_util_node03.json" << true << 12 << "";
    QTest::newRow("empty vector") << "vector_empty.json" << true << 0 << "";
    QTest::newRow("empty matrix") << "matrix_empty.json" << true << 0 << "";
    QTest::newRow("NaN vector") << "vector_nan.json" << true << 8 << "";
    QTest::newRow("bad PromQL") << "error_bad_promql.json" << false << 0
                                << "Prometheus rejected the query (HTTP 400, bad_data): invalid parameter";
    QTest::newRow("end before start") << "error_bad_range_step.json" << false << 0
                                      << "end timestamp must not be before start time";
}

void TestMetricsLabCaptures::parses()
{
    QFETCH(QString, file);
    QFETCH(bool, ok);
    QFETCH(int, series);
    QFETCH(QString, errorContains);
    const PrometheusResponse r = parsed(file);
    QCOMPARE(r.ok, ok);
    QCOMPARE(r.series.size(), series);
    QVERIFY2(r.error.contains(errorContains), qPrintable(r.error));
}

void TestMetricsLabCaptures::joinWithFaults()
{
    MetricsPart part;
    part.prometheusUrl = QStringLiteral("http://127.0.0.1:19090");
    part.gpus = MetricsPartBuilder::gpuSamples(parsed(QStringLiteral("vector_gpu_util_node_down_and_missing.json")), QString());
    MetricsPartBuilder::mergeGpuSamples(part.gpus, MetricsPartBuilder::gpuSamples(parsed(QStringLiteral("vector_xid.json")), QString()));
    // The capture asked for every `up`; the plan's query asks only for the DCGM job's.
    PrometheusResponse up = parsed(QStringLiteral("vector_up_one_dcgm_down.json"), false);
    up.series.removeIf([](const PrometheusSeries &s) { return s.label(u"job") != QLatin1String("dcgm"); });
    part.targets = MetricsPartBuilder::exporterTargets(up);
    part.targetsKnown = true;
    QCOMPARE(part.gpus.size(), 23);
    QCOMPARE(part.targets.size(), 4);

    ClusterSnapshot snap = labCluster();
    MetricsJoin::apply(snap, part, ClusterProfile{});
    QStringList codes;
    for (const Finding &f : snap.findings)
        codes << QStringLiteral("%1:%2:%3").arg(f.node).arg(f.gpu).arg(f.code);
    QCOMPARE(codes, (QStringList{QStringLiteral("gpu-node01:-1:exporter-down"), QStringLiteral("gpu-node02:3:xid-79"),
                                 QStringLiteral("gpu-node04:5:gpu-missing")}));
    const Node &n3 = snap.nodes[2];
    for (int i = 0; i < 8; ++i) {
        QVERIFY(n3.gpus[i].seenByExporter);
        QCOMPARE(n3.gpus[i].jobId, i < 4 ? QStringLiteral("5") : QString());
        QVERIFY(n3.gpus[i].uuid.startsWith(QStringLiteral("GPU-")));
        QCOMPARE(n3.gpus[i].model, QStringLiteral("H200")); // the lab's gpu-node03 reports "NVIDIA H200"
    }
    QVERIFY(*n3.gpus[0].metrics.utilPercent >= 85);
    QCOMPARE(*snap.nodes[1].gpus[3].metrics.xid, 79.0);
    for (const Gpu &g : snap.nodes[0].gpus)
        QVERIFY(!g.seenByExporter);
    QCOMPARE(snap.nodes[0].gpus.size(), 8);
}

void TestMetricsLabCaptures::newerHostnameLabel()
{
    MetricsPart part;
    part.gpus = MetricsPartBuilder::gpuSamples(parsed(QStringLiteral("vector_gpu_util_hostname_label.json")), QString());
    QCOMPARE(part.gpus.size(), 32);
    for (const GpuSample &s : part.gpus)
        QVERIFY(s.hosts.first().startsWith(QStringLiteral("gpu-node0")));
    ClusterSnapshot snap = labCluster();
    MetricsJoin::apply(snap, part, ClusterProfile{});
    QVERIFY(snap.findings.isEmpty());
    for (const Node &n : snap.nodes)
        for (const Gpu &g : n.gpus)
            QVERIFY(g.seenByExporter);
    QCOMPARE(snap.nodes[2].gpus[7].model, QStringLiteral("H200")); // modelName "NVIDIA H200"
}

void TestMetricsLabCaptures::allFieldsOfOneGpu()
{
    const QVector<GpuSample> samples =
        MetricsPartBuilder::gpuSamples(parsed(QStringLiteral("vector_one_gpu_all_fields.json")), QString());
    QCOMPARE(samples.size(), 1);
    const GpuMetrics &m = samples[0].metrics;
    for (const auto &field : {m.utilPercent, m.tensorActive, m.memCopyUtilPercent, m.memUsedMiB, m.memFreeMiB, m.tempC,
                              m.memoryTempC, m.powerW, m.smClockMHz, m.memClockMHz, m.xid, m.pcieReplays,
                              m.uncorrectableRemappedRows, m.correctableRemappedRows, m.rowRemapFailure})
        QVERIFY(field.has_value());
    QVERIFY(*m.tensorActive >= 0 && *m.tensorActive <= 1);
    QCOMPARE(samples[0].jobKey, QStringLiteral("5"));
}

QTEST_GUILESS_MAIN(TestMetricsLabCaptures)
#include "tst_metrics_lab_captures.moc"
