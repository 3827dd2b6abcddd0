// MetricsQueryPlan: the PromQL of one refresh (pinned: the capture script asks exactly these,
// see tests/data/prometheus/strata-capture) and the usage window arithmetic.
#include "prometheus/metrics_query_plan.h"

#include <QTest>

using namespace strata;

class TestMetricsQueryPlan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultQueries();
    void profileHostLabelAndExtraMatchers();
    void gaugesInParts();
    void usageRange_data();
    void usageRange();
    void escaping();
};

void TestMetricsQueryPlan::defaultQueries()
{
    const MetricsQueryPlan plan(MetricsQueryPlan::Options{});
    const QString by = QStringLiteral("Hostname, hostname, node, kubernetes_node, instance, gpu, UUID, modelName, GPU_I_ID, "
                                      "GPU_I_PROFILE, hpc_job, pod, namespace, exported_pod, exported_namespace");
    QCOMPARE(plan.gauges(),
             QStringLiteral("max by (__name__, %1) ({__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_PROF_PIPE_TENSOR_ACTIVE|"
                            "DCGM_FI_DEV_MEM_COPY_UTIL|DCGM_FI_DEV_FB_USED|DCGM_FI_DEV_FB_FREE|DCGM_FI_DEV_GPU_TEMP|"
                            "DCGM_FI_DEV_MEMORY_TEMP|DCGM_FI_DEV_POWER_USAGE|DCGM_FI_DEV_SM_CLOCK|DCGM_FI_DEV_MEM_CLOCK|"
                            "DCGM_FI_DEV_XID_ERRORS|DCGM_FI_DEV_PCIE_REPLAY_COUNTER|DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS|"
                            "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS|DCGM_FI_DEV_ROW_REMAP_FAILURE|"
                            "DCGM_FI_PROF_GR_ENGINE_ACTIVE\"})")
                 .arg(by));
    QCOMPARE(plan.pcieReplayIncrease(10),
             QStringLiteral("max by (%1) (increase({__name__=\"DCGM_FI_DEV_PCIE_REPLAY_COUNTER\"}[10m]))").arg(by));
    QCOMPARE(plan.exporterTargets(), QStringLiteral("up{job=~\".*dcgm.*\"}"));
    const QString usageBy = QStringLiteral("__name__, Hostname, hostname, node, kubernetes_node, instance, gpu, GPU_I_ID, "
                                           "hpc_job, pod, namespace, exported_pod, exported_namespace");
    QCOMPARE(plan.usage(), QStringLiteral("max by (%1) "
                                          "({__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED\"} or on(%1) "
                                          "{__name__=\"DCGM_FI_PROF_GR_ENGINE_ACTIVE\", GPU_I_ID!=\"\"})")
                               .arg(usageBy));
    QCOMPARE(plan.keptLabels().first(), QStringLiteral("__name__"));
    QCOMPARE(plan.keptLabels().size(), 16);
}

void TestMetricsQueryPlan::profileHostLabelAndExtraMatchers()
{
    MetricsQueryPlan::Options options;
    options.hostLabel = QStringLiteral("kubernetes_node");
    options.extraMatchers = QStringLiteral("cluster=\"a\"");
    options.exporterJobRegex = QStringLiteral("gpu-metrics");
    const MetricsQueryPlan plan(options);
    QVERIFY(plan.gauges().startsWith(QStringLiteral("max by (__name__, kubernetes_node, node, instance, gpu,")));
    QCOMPARE(plan.keptLabels().count(QStringLiteral("kubernetes_node")), 1);
    QVERIFY(!plan.gauges().contains(QStringLiteral("Hostname")));
    QVERIFY(plan.gauges().endsWith(QStringLiteral("DCGM_FI_PROF_GR_ENGINE_ACTIVE\", cluster=\"a\"})")));
    QCOMPARE(plan.exporterTargets(), QStringLiteral("up{job=~\"gpu-metrics\", cluster=\"a\"}"));
    QVERIFY(plan.keptLabels().contains(QStringLiteral("kubernetes_node")));
}

// The parts of the gauge query ask every gauge of the whole exactly once, with the same labels.
void TestMetricsQueryPlan::gaugesInParts()
{
    const MetricsQueryPlan plan(MetricsQueryPlan::Options{});
    QCOMPARE(plan.gauges(0, 1), plan.gauges());
    const auto namesOf = [](const QString &promql) {
        const qsizetype from = promql.indexOf(QStringLiteral("__name__=~\"")) + 11;
        return promql.mid(from, promql.indexOf(QLatin1Char('"'), from) - from).split(QLatin1Char('|'));
    };
    const QStringList all = namesOf(plan.gauges());
    QCOMPARE(all.size(), 16);
    const QString prefix = plan.gauges().left(plan.gauges().indexOf(QStringLiteral("({")));
    QStringList seen;
    for (int part = 0; part < 4; ++part) {
        const QString q = plan.gauges(part, 4);
        QVERIFY2(q.startsWith(prefix), qPrintable(q));
        const QStringList names = namesOf(q);
        QCOMPARE(names.size(), 4);
        seen << names;
    }
    QCOMPARE(seen.size(), all.size());
    QStringList a = all, b = seen;
    a.sort();
    b.sort();
    QCOMPARE(b, a);
    // Out-of-range arguments are clamped, never an empty or invalid selector.
    QCOMPARE(namesOf(plan.gauges(0, 100)).size(), 1);
    QCOMPARE(namesOf(plan.gauges(9, 4)), namesOf(plan.gauges(3, 4)));
    QCOMPARE(plan.gauges(0, 0), plan.gauges());
}

void TestMetricsQueryPlan::usageRange_data()
{
    QTest::addColumn<qint64>("oldestStart");
    QTest::addColumn<qint64>("now");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<qint64>("step");
    QTest::addColumn<qint64>("start");

    const qint64 now = 1'800'000'000;
    QTest::newRow("no running jobs") << qint64(0) << now << false << qint64(0) << qint64(0);
    QTest::newRow("started in the future") << now + 10 << now << false << qint64(0) << qint64(0);
    QTest::newRow("10 min: minimum step") << now - 600 << now << true << qint64(60) << now - 600;
    QTest::newRow("odd window rounds up") << now - 601 << now << true << qint64(60) << now - 660;
    QTest::newRow("2 h: 120 points") << now - 7200 << now << true << qint64(61) << now - 7259;
    QTest::newRow("1 day: 120 points") << now - 86400 << now << true << qint64(727) << now - 86513;
    QTest::newRow("30 days capped at 7") << now - 30 * 86400 << now << true << qint64(5083) << now - 604877;
}

void TestMetricsQueryPlan::usageRange()
{
    QFETCH(qint64, oldestStart);
    QFETCH(qint64, now);
    QFETCH(bool, valid);
    QFETCH(qint64, step);
    QFETCH(qint64, start);
    const MetricsQueryPlan::Range r = MetricsQueryPlan::usageRange(oldestStart, now, 120, 60, 7 * 86400);
    QCOMPARE(r.isValid(), valid);
    if (!valid)
        return;
    QCOMPARE(r.stepSeconds, step);
    QCOMPARE(r.start, start);
    QCOMPARE(r.end, now);
    const qint64 points = (r.end - r.start) / r.stepSeconds + 1;
    QVERIFY2(points <= 120, qPrintable(QString::number(points)));
    QCOMPARE((r.end - r.start) % r.stepSeconds, 0);
    QVERIFY(r.start <= std::max(oldestStart, now - 7 * 86400));
}

void TestMetricsQueryPlan::escaping()
{
    QCOMPARE(MetricsQueryPlan::escapeString(QStringLiteral("a\"b\\c")), QStringLiteral("a\\\"b\\\\c"));
    QCOMPARE(MetricsQueryPlan::escapeRegex(QStringLiteral("gpu.node(1)+")), QStringLiteral("gpu\\.node\\(1\\)\\+"));
    QCOMPARE(MetricsQueryPlan::escapeRegex(QStringLiteral("gpu-node01")), QStringLiteral("gpu-node01"));
}

QTEST_GUILESS_MAIN(TestMetricsQueryPlan)
#include "tst_metrics_query_plan.moc"
