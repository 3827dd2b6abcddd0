// MetricSeriesQuery (`strata metrics`, UI charts): metric names, durations, the PromQL for one
// node, and turning a real query_range answer into series. That the PromQL selects the right
// series on a real Prometheus is checked in tst_metrics_source.
#include "prometheus/metric_series_query.h"
#include "prometheus/prometheus_response_parser.h"
#include "profile/cluster_profile.h"

#include <QFile>
#include <QTest>

#include <cmath>

using namespace strata;

class TestMetricSeriesQuery : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void resolveMetric_data();
    void resolveMetric();
    void parseDuration_data();
    void parseDuration();
    void stepFor();
    void promqlForNodeAndGpu();
    void promqlWithProfileLabelAndRelabel();
    void fromCapturedMatrix();
    void errors();
    void blankCodesAreGaps();
};

void TestMetricSeriesQuery::resolveMetric_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected"); // empty: rejected
    QTest::newRow("util") << "util" << "DCGM_FI_DEV_GPU_UTIL";
    QTest::newRow("temp") << "temp" << "DCGM_FI_DEV_GPU_TEMP";
    QTest::newRow("power") << "power" << "DCGM_FI_DEV_POWER_USAGE";
    QTest::newRow("memory") << "memory" << "DCGM_FI_DEV_FB_USED";
    QTest::newRow("tensor") << "tensor" << "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE";
    QTest::newRow("sm-clock") << "sm-clock" << "DCGM_FI_DEV_SM_CLOCK";
    QTest::newRow("case-insensitive") << "Util" << "DCGM_FI_DEV_GPU_UTIL";
    QTest::newRow("raw known") << "DCGM_FI_DEV_XID_ERRORS" << "DCGM_FI_DEV_XID_ERRORS";
    QTest::newRow("raw unknown DCGM field") << "DCGM_FI_PROF_NVLINK_TX_BYTES" << "DCGM_FI_PROF_NVLINK_TX_BYTES";
    QTest::newRow("not a metric") << "utilisation" << "";
    QTest::newRow("PromQL injection") << "DCGM_FI_DEV_GPU_UTIL} or up{" << "";
}

void TestMetricSeriesQuery::resolveMetric()
{
    QFETCH(QString, name);
    QFETCH(QString, expected);
    QString error;
    const std::optional<QString> resolved = MetricSeriesQuery::resolveMetric(name, &error);
    QCOMPARE(resolved.value_or(QString()), expected);
    QCOMPARE(error.isEmpty(), !expected.isEmpty());
    if (!error.isEmpty())
        QVERIFY(error.contains(QStringLiteral("use one of util, tensor, mem-copy, memory,")));
}

void TestMetricSeriesQuery::parseDuration_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("seconds"); // 0: rejected
    QTest::newRow("seconds") << "90s" << qint64(90);
    QTest::newRow("bare number") << "600" << qint64(600);
    QTest::newRow("minutes") << "30m" << qint64(1800);
    QTest::newRow("hour") << "1h" << qint64(3600);
    QTest::newRow("days") << "2d" << qint64(172800);
    QTest::newRow("week") << "1w" << qint64(604800);
    QTest::newRow("zero") << "0h" << qint64(0);
    QTest::newRow("negative") << "-1h" << qint64(0);
    QTest::newRow("unit only") << "h" << qint64(0);
    QTest::newRow("compound") << "1h30m" << qint64(0);
}

void TestMetricSeriesQuery::parseDuration()
{
    QFETCH(QString, text);
    QFETCH(qint64, seconds);
    QCOMPARE(MetricSeriesQuery::parseDuration(text).value_or(0), seconds);
}

void TestMetricSeriesQuery::stepFor()
{
    MetricSeriesQuery::Request r;
    r.sinceSeconds = 3600;
    QCOMPARE(MetricSeriesQuery::stepFor(r), 15); // 3600 / 240
    r.sinceSeconds = 86400;
    QCOMPARE(MetricSeriesQuery::stepFor(r), 360);
    r.sinceSeconds = 600;
    QCOMPARE(MetricSeriesQuery::stepFor(r), 15); // never finer than a scrape
    r.stepSeconds = 5;
    QCOMPARE(MetricSeriesQuery::stepFor(r), 5);
}

void TestMetricSeriesQuery::promqlForNodeAndGpu()
{
    MetricSeriesQuery::Request r;
    r.node = QStringLiteral("gpu-node01");
    r.gpu = 3;
    const QString q = MetricSeriesQuery::promql(r, QStringLiteral("DCGM_FI_DEV_GPU_TEMP"), ClusterProfile{});
    const QString host = QStringLiteral("(?i)(gpu-node01)(\\\\..+)?");
    QCOMPARE(q, QStringLiteral("max by (gpu, UUID) (DCGM_FI_DEV_GPU_TEMP{Hostname=~\"%1\", gpu=\"3\"} or "
                               "DCGM_FI_DEV_GPU_TEMP{hostname=~\"%1\", gpu=\"3\"} or "
                               "DCGM_FI_DEV_GPU_TEMP{node=~\"%1\", gpu=\"3\"} or "
                               "DCGM_FI_DEV_GPU_TEMP{kubernetes_node=~\"%1\", gpu=\"3\"} or "
                               "DCGM_FI_DEV_GPU_TEMP{instance=~\"%1(:[0-9]+)?\", gpu=\"3\"})")
                    .arg(host));
}

void TestMetricSeriesQuery::promqlWithProfileLabelAndRelabel()
{
    ClusterProfile profile;
    profile.hostLabel = QStringLiteral("kubernetes_node");
    profile.hostRelabel.insert(QStringLiteral("ip-10-0-0-5.ec2.internal"), QStringLiteral("gpu-node02"));
    profile.hostRelabel.insert(QStringLiteral("ip-10-0-0-6"), QStringLiteral("gpu-node03"));
    MetricSeriesQuery::Request r;
    r.node = QStringLiteral("gpu-node02");
    const QString q = MetricSeriesQuery::promql(r, QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), profile);
    QVERIFY2(q.contains(QStringLiteral("DCGM_FI_DEV_GPU_UTIL{kubernetes_node=~\"(?i)(gpu-node02|ip-10-0-0-5)(\\\\..+)?\"}")),
             qPrintable(q));
    QVERIFY(!q.contains(QStringLiteral("Hostname")));
    QVERIFY(!q.contains(QStringLiteral("ip-10-0-0-6")));
    QVERIFY(!q.contains(QStringLiteral("gpu=")));
}

void TestMetricSeriesQuery::fromCapturedMatrix()
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/prometheus/strata-capture/matrix_dcgm_util.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    PrometheusResponse response = PrometheusResponseParser::parse(file.readAll(), 200);
    QVERIFY(response.ok);
    // The answer for one node: keep gpu-node02's two series, in reverse order.
    PrometheusResponse node02 = response;
    node02.series.clear();
    for (const PrometheusSeries &s : response.series)
        if (s.label(u"hostname") == QLatin1String("gpu-node02"))
            node02.series.prepend(s);
    QCOMPARE(node02.series.size(), 2);
    MetricSeriesQuery::Request r;
    r.node = QStringLiteral("gpu-node02");
    const MetricSeriesResult result = MetricSeriesQuery::fromResponse(node02, r);
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.series.size(), 2);
    QCOMPARE(result.series[0].gpu, 0); // sorted by GPU
    QCOMPARE(result.series[1].gpu, 1);
    QCOMPARE(result.series[0].node, QStringLiteral("gpu-node02"));
    QVERIFY(result.series[1].uuid.startsWith(QStringLiteral("GPU-")));
    QCOMPARE(result.series[0].samples.size(), 2);
    QVERIFY(result.series[0].samples[1].time > result.series[0].samples[0].time);
}

void TestMetricSeriesQuery::errors()
{
    MetricSeriesQuery::Request r;
    r.node = QStringLiteral("gpu-node09");
    PrometheusResponse empty;
    empty.ok = true;
    empty.resultType = PrometheusResponse::ResultType::Matrix;
    QCOMPARE(MetricSeriesQuery::fromResponse(empty, r).error,
             QStringLiteral("no data for gpu-node09 in this window: check the node name and that its DCGM exporter is scraped"));
    r.gpu = 9;
    QVERIFY(MetricSeriesQuery::fromResponse(empty, r).error.startsWith(QStringLiteral("no data for GPU 9 of gpu-node09")));
    PrometheusResponse failed;
    failed.error = QStringLiteral("Prometheus at http://x not reachable: Connection refused");
    QCOMPARE(MetricSeriesQuery::fromResponse(failed, r).error,
             QStringLiteral("metrics unavailable: Prometheus at http://x not reachable: Connection refused"));
}

void TestMetricSeriesQuery::blankCodesAreGaps()
{
    const auto answer = [](const QList<double> &values) {
        PrometheusResponse r;
        r.ok = true;
        PrometheusSeries s;
        s.labels = {{QStringLiteral("gpu"), QStringLiteral("0")}};
        for (int i = 0; i < values.size(); ++i)
            s.samples.append({1800000000.0 + 60 * i, values[i]});
        r.series << s;
        return r;
    };
    MetricSeriesQuery::Request r;
    r.node = QStringLiteral("gpu-node01");
    r.metric = QStringLiteral("memory-temp");
    const QList<double> blanks{61, 2147483647.0, 9223372036854775808.0, 140737488355330.0, 4294967295.0};
    MetricSeriesResult known = MetricSeriesQuery::fromResponse(answer(blanks), r);
    QCOMPARE(known.series.size(), 1);
    QCOMPARE(known.series[0].samples[0].value, 61.0);
    for (int i = 1; i < blanks.size(); ++i)
        QVERIFY2(std::isnan(known.series[0].samples[i].value), qPrintable(QString::number(i)));
    // A field Strata does not know may be a big counter: only the blank bands are gaps.
    r.metric = QStringLiteral("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL");
    MetricSeriesResult raw = MetricSeriesQuery::fromResponse(answer({3.5e15, 9223372036854775794.0, 2147483634.0}), r);
    QCOMPARE(raw.series[0].samples[0].value, 3.5e15);
    QVERIFY(std::isnan(raw.series[0].samples[1].value));
    QVERIFY(std::isnan(raw.series[0].samples[2].value));
}

QTEST_GUILESS_MAIN(TestMetricSeriesQuery)
#include "tst_metric_series_query.moc"
