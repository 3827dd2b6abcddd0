// MetricsPartBuilder on the real answers to MetricsQueryPlan's queries
// (tests/data/prometheus/strata-capture/*_plan_*.json, see its README).
#include "prometheus/metrics_part_builder.h"
#include "prometheus/metrics_query_plan.h"
#include "prometheus/prometheus_response_parser.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

PrometheusResponse parsed(const QString &name, bool keepPlanLabels = true)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/prometheus/strata-capture/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    PrometheusResponseParser::Options options;
    if (keepPlanLabels)
        options.keepLabels = MetricsQueryPlan(MetricsQueryPlan::Options{}).keptLabels();
    const PrometheusResponse r = PrometheusResponseParser::parse(file.readAll(), 200, options);
    if (!r.ok)
        qFatal("%s: %s", qPrintable(name), qPrintable(r.error));
    return r;
}

const GpuSample *find(const QVector<GpuSample> &samples, const QString &host, int gpu)
{
    for (const GpuSample &s : samples)
        if (s.hosts.value(0) == host && s.gpu == gpu)
            return &s;
    return nullptr;
}

} // namespace

class TestMetricsPartBuilder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void gpuSamplesFromGauges_data();
    void gpuSamplesFromGauges();
    void hostCandidatesInOrder();
    void profileHostLabelReplacesBoth();
    void nonFiniteValuesStayMissing();
    void seriesWithoutGpuLabelAreSkipped();
    void pcieIncreaseJoinsSamples();
    void perMetricSamplesMerge();
    void exporterTargets();
    void usageSeriesMergeUtilAndMemory();
    void jobKey_data();
    void jobKey();
};

void TestMetricsPartBuilder::gpuSamplesFromGauges_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("gpu");
    QTest::addColumn<double>("util");
    QTest::addColumn<double>("tensor");
    QTest::addColumn<double>("power");
    QTest::addColumn<double>("xid");
    QTest::addColumn<QString>("uuid");
    QTest::addColumn<QString>("job");
    QTest::newRow("node01 gpu0") << "gpu-node01.cluster.local" << 0 << 20.0 << 0.2 << 350.5 << 0.0
                                 << "GPU-4cf58a3b-0000-0000-0000-000000000000" << "101";
    QTest::newRow("node01 gpu1") << "gpu-node01.cluster.local" << 1 << 51.0 << 0.51 << 351.5 << 0.0
                                 << "GPU-4cf58a3b-0000-0000-0000-000000000001" << "101";
    QTest::newRow("node02 gpu1 XID 79") << "gpu-node02" << 1 << 51.0 << 0.51 << 351.5 << 79.0
                                        << "GPU-35f45e84-0000-0000-0000-000000000001" << "";
}

void TestMetricsPartBuilder::gpuSamplesFromGauges()
{
    QFETCH(QString, host);
    QFETCH(int, gpu);
    QFETCH(double, util);
    QFETCH(double, tensor);
    QFETCH(double, power);
    QFETCH(double, xid);
    QFETCH(QString, uuid);
    QFETCH(QString, job);

    int skipped = -1;
    const QVector<GpuSample> samples =
        MetricsPartBuilder::gpuSamples(parsed(QStringLiteral("vector_plan_gauges.json")), QString(), &skipped);
    QCOMPARE(samples.size(), 4);
    QCOMPARE(skipped, 0);
    const GpuSample *s = find(samples, host, gpu);
    QVERIFY(s);
    QCOMPARE(*s->metrics.utilPercent, util);
    QCOMPARE(*s->metrics.tensorActive, tensor);
    QCOMPARE(*s->metrics.powerW, power);
    QCOMPARE(*s->metrics.xid, xid);
    QCOMPARE(*s->metrics.smClockMHz, 1980.0);
    QCOMPARE(*s->metrics.memUsedMiB + *s->metrics.memFreeMiB, 81000.0);
    QCOMPARE(s->uuid, uuid);
    QCOMPARE(s->jobKey, job);
    QCOMPARE(s->modelName, QStringLiteral("NVIDIA H100 80GB HBM3"));
    // Not exported by the stand-in: missing, not zero.
    QVERIFY(!s->metrics.memoryTempC.has_value());
    QVERIFY(!s->metrics.memClockMHz.has_value());
    QVERIFY(!s->metrics.rowRemapFailure.has_value());
    QVERIFY(!s->metrics.uncorrectableRemappedRows.has_value());
    QVERIFY(!s->pcieReplaysIncrease.has_value());
}

void TestMetricsPartBuilder::hostCandidatesInOrder()
{
    const QVector<GpuSample> samples =
        MetricsPartBuilder::gpuSamples(parsed(QStringLiteral("vector_plan_gauges.json")), QString());
    // Host label first, then the target label `node`, then the instance's host.
    const GpuSample *node02 = find(samples, QStringLiteral("gpu-node02"), 0);
    QVERIFY(node02);
    QCOMPARE(node02->hosts, (QStringList{QStringLiteral("gpu-node02"), QStringLiteral("gpu-node01"), QStringLiteral("127.0.0.1")}));
    const GpuSample *node01 = find(samples, QStringLiteral("gpu-node01.cluster.local"), 0);
    QVERIFY(node01);
    QCOMPARE(node01->hosts, (QStringList{QStringLiteral("gpu-node01.cluster.local"), QStringLiteral("gpu-node01"),
                                         QStringLiteral("127.0.0.1")}));
}

void TestMetricsPartBuilder::profileHostLabelReplacesBoth()
{
    // The profile names `hostname`: the older `Hostname` label is not read at all.
    const QVector<GpuSample> samples =
        MetricsPartBuilder::gpuSamples(parsed(QStringLiteral("vector_plan_gauges.json")), QStringLiteral("hostname"));
    QCOMPARE(samples.size(), 4);
    int node01 = 0;
    for (const GpuSample &s : samples)
        if (s.hosts.value(0) == QLatin1String("gpu-node01"))
            ++node01; // fell back to the target label
    QCOMPARE(node01, 2);
}

void TestMetricsPartBuilder::nonFiniteValuesStayMissing()
{
    PrometheusResponse r = parsed(QStringLiteral("vector_plan_gauges.json"));
    for (PrometheusSeries &s : r.series)
        if (s.label(u"__name__") == QLatin1String("DCGM_FI_DEV_GPU_TEMP"))
            s.samples[0].value = qQNaN();
        else if (s.label(u"__name__") == QLatin1String("DCGM_FI_DEV_POWER_USAGE"))
            s.samples[0].value = qInf();
    for (const GpuSample &s : MetricsPartBuilder::gpuSamples(r, QString())) {
        QVERIFY(!s.metrics.tempC.has_value());
        QVERIFY(!s.metrics.powerW.has_value());
        QVERIFY(s.metrics.utilPercent.has_value());
    }
}

void TestMetricsPartBuilder::seriesWithoutGpuLabelAreSkipped()
{
    // `up` series have no gpu label.
    int skipped = 0;
    const QVector<GpuSample> samples =
        MetricsPartBuilder::gpuSamples(parsed(QStringLiteral("vector_up.json"), false), QString(), &skipped);
    QVERIFY(samples.isEmpty());
    QCOMPARE(skipped, 3);
}

void TestMetricsPartBuilder::pcieIncreaseJoinsSamples()
{
    QVector<GpuSample> samples =
        MetricsPartBuilder::gpuSamples(parsed(QStringLiteral("vector_plan_gauges.json")), QString());
    MetricsPartBuilder::addPcieReplayIncrease(samples, parsed(QStringLiteral("vector_plan_pcie_increase.json")), QString());
    for (const GpuSample &s : samples) {
        QVERIFY(s.pcieReplaysIncrease.has_value());
        QVERIFY(qAbs(*s.pcieReplaysIncrease - 2.927503736920777) < 1e-12);
    }
}

void TestMetricsPartBuilder::perMetricSamplesMerge()
{
    // The same captured answer split by metric, as one query per metric would return it.
    const PrometheusResponse all = parsed(QStringLiteral("vector_plan_gauges.json"));
    QMap<QString, PrometheusResponse> byMetric;
    for (const PrometheusSeries &s : all.series)
        byMetric[s.label(u"__name__")].series << s;
    QCOMPARE(byMetric.size(), 9);
    QVector<GpuSample> merged;
    for (const PrometheusResponse &r : std::as_const(byMetric))
        MetricsPartBuilder::mergeGpuSamples(merged, MetricsPartBuilder::gpuSamples(r, QString()));
    const QVector<GpuSample> direct = MetricsPartBuilder::gpuSamples(all, QString());
    QCOMPARE(merged.size(), direct.size());
    for (const GpuSample &d : direct) {
        const GpuSample *m = find(merged, d.hosts.first(), d.gpu);
        QVERIFY(m);
        QCOMPARE(m->uuid, d.uuid);
        QCOMPARE(m->jobKey, d.jobKey);
        QCOMPARE(m->metrics.utilPercent, d.metrics.utilPercent);
        QCOMPARE(m->metrics.xid, d.metrics.xid);
        QCOMPARE(m->metrics.tensorActive, d.metrics.tensorActive);
        QCOMPARE(m->metrics.memFreeMiB, d.metrics.memFreeMiB);
        QVERIFY(!m->metrics.memoryTempC.has_value());
    }
}

void TestMetricsPartBuilder::exporterTargets()
{
    const QVector<ExporterTarget> targets =
        MetricsPartBuilder::exporterTargets(parsed(QStringLiteral("vector_plan_targets.json"), false));
    QCOMPARE(targets.size(), 2);
    QVERIFY(targets[0].up);
    QCOMPARE(targets[0].hosts, (QStringList{QStringLiteral("gpu-node01"), QStringLiteral("127.0.0.1")}));
    QVERIFY(!targets[1].up);
    QCOMPARE(targets[1].hosts.first(), QStringLiteral("gpu-node03"));
    QCOMPARE(targets[1].instance, QStringLiteral("127.0.0.1:19196"));
    QCOMPARE(targets[1].job, QStringLiteral("dcgm"));
}

void TestMetricsPartBuilder::usageSeriesMergeUtilAndMemory()
{
    const QVector<GpuUsageSeries> usage =
        MetricsPartBuilder::usageSeries(parsed(QStringLiteral("matrix_plan_usage.json")), QString());
    QCOMPARE(usage.size(), 4); // 8 series: util and memory of 4 GPUs
    for (const GpuUsageSeries &s : usage) {
        QCOMPARE(s.points.size(), 3);
        for (int i = 0; i < s.points.size(); ++i) {
            QVERIFY(s.points[i].utilPercent >= 0);
            QCOMPARE(s.points[i].memUsedMiB, float(40000 + s.gpu));
            if (i > 0)
                QCOMPARE(s.points[i].time, s.points[i - 1].time + 1);
        }
        QCOMPARE(s.jobKey, s.hosts.first() == QLatin1String("gpu-node02") ? QString() : QStringLiteral("101"));
    }
    QCOMPARE(usage[2].points[0].utilPercent, 18.f);
}

void TestMetricsPartBuilder::jobKey_data()
{
    QTest::addColumn<QString>("hpcJob");
    QTest::addColumn<QString>("ns");
    QTest::addColumn<QString>("pod");
    QTest::addColumn<QString>("key");
    QTest::newRow("slurm") << "4711" << "" << "" << "4711";
    QTest::newRow("kubernetes") << "" << "ml" << "train-7x2kq" << "ml/train-7x2kq";
    QTest::newRow("hpc_job wins") << "4711" << "ml" << "train-7x2kq" << "4711";
    QTest::newRow("pod without namespace") << "" << "" << "train-7x2kq" << "train-7x2kq";
    QTest::newRow("free GPU") << "" << "ml" << "" << "";
}

void TestMetricsPartBuilder::jobKey()
{
    QFETCH(QString, hpcJob);
    QFETCH(QString, ns);
    QFETCH(QString, pod);
    QFETCH(QString, key);
    PrometheusSeries s;
    if (!hpcJob.isEmpty())
        s.labels.append({QStringLiteral("hpc_job"), hpcJob});
    if (!ns.isEmpty())
        s.labels.append({QStringLiteral("namespace"), ns});
    if (!pod.isEmpty())
        s.labels.append({QStringLiteral("pod"), pod});
    QCOMPARE(MetricsPartBuilder::jobKey(s), key);
}

QTEST_GUILESS_MAIN(TestMetricsPartBuilder)
#include "tst_metrics_part_builder.moc"
