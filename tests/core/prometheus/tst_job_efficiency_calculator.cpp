// JobEfficiencyCalculator and HistoryQueryPlan: jobs' efficiency over a history period from
// cluster-wide range answers. The answers are written here in Prometheus's documented
// query_range format ({"status":"success","data":{"resultType":"matrix","result":[{"metric":
// {...},"values":[[t,"v"],...]}]}}) and read by the real parser.
#include "prometheus/history_query_plan.h"
#include "prometheus/job_efficiency_calculator.h"
#include "prometheus/prometheus_response_parser.h"

#include "model/history_period.h"

#include <QTest>

#include <functional>

using namespace strata;

namespace {

constexpr qint64 kStart = 1'796'083'200; // 2026-12-01T00:00:00Z
constexpr qint64 kStep = 60;
constexpr qint64 kEnd = kStart + 3600;

using Metric = HistoryQueryPlan::Metric;

struct SeriesSpec
{
    QString labels; // JSON members of "metric", e.g. "Hostname":"n1","gpu":"0"
    qint64 from = kStart + kStep, to = kEnd; // evaluation times, step kStep
    std::function<double(qint64)> value;
};

QByteArray matrix(const QVector<SeriesSpec> &series)
{
    QByteArray out = R"({"status":"success","data":{"resultType":"matrix","result":[)";
    for (int i = 0; i < series.size(); ++i) {
        const SeriesSpec &s = series[i];
        out += (i ? "," : "") + QByteArray(R"({"metric":{)") + s.labels.toUtf8() + R"(},"values":[)";
        for (qint64 t = s.from; t <= s.to; t += kStep)
            out += (t == s.from ? "" : ",") + QByteArray("[") + QByteArray::number(t) + ",\""
                + QByteArray::number(s.value(t), 'g', 17) + "\"]";
        out += "]}";
    }
    return out + "]}}";
}

PrometheusResponse parsed(const QVector<SeriesSpec> &series)
{
    PrometheusResponseParser::Options o;
    o.expect = PrometheusResponse::ResultType::Matrix;
    const PrometheusResponse r = PrometheusResponseParser::parse(matrix(series), 200, o);
    if (!r.ok)
        qFatal("test matrix did not parse: %s", qPrintable(r.error));
    return r;
}

QDateTime at(qint64 seconds)
{
    return QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC);
}

JobRecord record(const QString &id, qint64 started, qint64 ended, const QStringList &nodes, int gpus)
{
    JobRecord r;
    r.id = id;
    r.user = QStringLiteral("alice");
    if (started > 0)
        r.started = at(started);
    if (ended > 0)
        r.ended = at(ended);
    r.nodes = nodes;
    r.gpus = gpus;
    return r;
}

// The cluster of the tests: n1 and n2 with four GPUs each. Records:
//   0 "101" n1 GPUs 0,1 (indices recorded), 10:00-30:00; GPU 0 at 80 %, GPU 1 at 2 % (idle)
//   1 "102" all of n2 (WholeNodes), the whole hour at 50 %
//   2 "103" n3 (not a node the cluster listed), labelled hpc_job=103 by the exporter, 20:00-25:00 at 90 %
//   3 "104" two of n1's four GPUs, no indices: Unattributable
//   4 "105" never started
//   5 "106" held no GPUs
//   6 "107" n2 GPU 3 recorded, ended before the period
QVector<JobRecord> records()
{
    QVector<JobRecord> r;
    r << record(QStringLiteral("101"), kStart + 600, kStart + 1800, {QStringLiteral("n1")}, 2);
    r.last().gpuIndicesByNode.insert(QStringLiteral("n1"), {0, 1});
    r << record(QStringLiteral("102"), kStart - 7200, 0, {QStringLiteral("n2")}, 4);
    r << record(QStringLiteral("103"), kStart + 1200, kStart + 1500, {QStringLiteral("n3")}, 1);
    r << record(QStringLiteral("104"), kStart, kStart + 3000, {QStringLiteral("n1")}, 2);
    r << record(QStringLiteral("105"), 0, 0, {}, 1);
    r << record(QStringLiteral("106"), kStart, kStart + 600, {QStringLiteral("n1")}, 0);
    r << record(QStringLiteral("107"), kStart - 7200, kStart - 3600, {QStringLiteral("n2")}, 1);
    r.last().gpuIndicesByNode.insert(QStringLiteral("n2"), {3});
    return r;
}

JobEfficiencyCalculator::Nodes nodes()
{
    JobEfficiencyCalculator::Nodes n;
    n.names = {QStringLiteral("n1"), QStringLiteral("n2")};
    n.gpuCount.insert(QStringLiteral("n1"), 4);
    n.gpuCount.insert(QStringLiteral("n2"), 4);
    return n;
}

JobEfficiencyCalculator::Context context()
{
    JobEfficiencyCalculator::Context c;
    c.periodStart = kStart;
    c.periodEnd = kEnd;
    c.stepSeconds = kStep;
    return c;
}

bool inRun(qint64 t, qint64 from, qint64 to)
{
    return t - kStep >= from && t <= to;
}

// n1's GPU 0 and 1 carry 101 in its run and 100 % outside it (another job; must not leak in);
// n2's four GPUs 50 %; n3's labelled series only while 103 ran; a stranger host; a series
// without a gpu label.
QVector<SeriesSpec> utilSeries(qint64 from = kStart + kStep, qint64 to = kEnd)
{
    const auto n1 = [](double inside) {
        return [inside](qint64 t) { return inRun(t, kStart + 600, kStart + 1800) ? inside : 100.0; };
    };
    QVector<SeriesSpec> s;
    s << SeriesSpec{R"("Hostname":"n1.cluster.local","gpu":"0")", from, to, n1(80)};
    s << SeriesSpec{R"("Hostname":"n1.cluster.local","gpu":"1")", from, to, n1(2)};
    for (int g = 0; g < 4; ++g)
        s << SeriesSpec{QStringLiteral(R"("Hostname":"n2","gpu":"%1")").arg(g), from, to, [](qint64) { return 50.0; }};
    const qint64 labelledFrom = std::max(from, kStart + 1260), labelledTo = std::min(to, kStart + 1500);
    if (labelledFrom <= labelledTo)
        s << SeriesSpec{R"("Hostname":"n3","gpu":"0","hpc_job":"103")", labelledFrom, labelledTo,
                        [](qint64) { return 90.0; }};
    s << SeriesSpec{R"("Hostname":"stranger","gpu":"0")", from, to, [](qint64) { return 99.0; }};
    s << SeriesSpec{R"("Hostname":"n2")", from, to, [](qint64) { return 99.0; }};
    return s;
}

QVector<SeriesSpec> memSeries()
{
    QVector<SeriesSpec> s;
    s << SeriesSpec{R"("Hostname":"n1","gpu":"0")", kStart + kStep, kEnd,
                    [](qint64 t) { return inRun(t, kStart + 600, kStart + 1800) ? 1000.0 + (t - kStart) / 60 : 70000.0; }};
    s << SeriesSpec{R"("Hostname":"n1","gpu":"1")", kStart + kStep, kEnd, [](qint64) { return 500.0; }};
    s << SeriesSpec{R"("Hostname":"n3","gpu":"0","hpc_job":"103")", kStart + 1260, kStart + 1500,
                    [](qint64) { return 40000.0; }};
    return s;
}

QVector<SeriesSpec> powerSeries()
{
    QVector<SeriesSpec> s;
    s << SeriesSpec{R"("Hostname":"n1","gpu":"0")", kStart + kStep, kEnd,
                    [](qint64 t) { return inRun(t, kStart + 600, kStart + 1800) ? 300.0 : 700.0; }};
    s << SeriesSpec{R"("Hostname":"n1","gpu":"1")", kStart + kStep, kEnd, [](qint64) { return 60.0; }};
    return s;
}

} // namespace

class TestJobEfficiencyCalculator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void figuresPerBasis();
    void chunksAddUp();
    void failedAnswerAddsNothing();
    void hostileAnswersAndRecords();
    void step_data();
    void step();
    void chunks();
    void promql();
};

void TestJobEfficiencyCalculator::figuresPerBasis()
{
    QVector<JobRecord> r = records();
    JobEfficiencyCalculator calculator(r, nodes(), context());
    calculator.add(Metric::Util, parsed(utilSeries()));
    calculator.add(Metric::MemUsed, parsed(memSeries()));
    calculator.add(Metric::Power, parsed(powerSeries()));
    calculator.fill(r);

    // 101: 20 whole steps inside 10:00-30:00 on each of its two GPUs; the edge steps (and the
    // 100 % of the GPUs' other holder) stay out.
    const JobEfficiency &a = r[0].efficiency;
    QCOMPARE(a.basis, JobEfficiency::Basis::Indices);
    QCOMPARE(a.utilMeanPercent, 41.0); // (80 x 20 + 2 x 20) / 40
    QCOMPARE(a.gpusMeasured, 2);
    QVERIFY(qAbs(a.gpuHoursMeasured - 40.0 / 60.0) < 1e-9);
    QVERIFY(qAbs(a.gpuHoursIdle - 20.0 / 60.0) < 1e-9);
    QCOMPARE(a.memPeakMiB, 1030.0); // 1000 + 30 at 30:00, the last step inside; never the 70,000 outside
    QCOMPARE(a.powerMeanW, 180.0);  // (300 + 60) / 2
    QVERIFY(a.why.isEmpty());

    const JobEfficiency &b = r[1].efficiency;
    QCOMPARE(b.basis, JobEfficiency::Basis::WholeNodes);
    QCOMPARE(b.utilMeanPercent, 50.0);
    QCOMPARE(b.gpusMeasured, 4);
    QVERIFY(qAbs(b.gpuHoursMeasured - 4.0) < 1e-9); // inside the period only: 4 GPUs x 1 h
    QCOMPARE(b.gpuHoursIdle, 0.0);
    QCOMPARE(b.memPeakMiB, -1.0); // no memory series for n2: a dash, not a zero
    QCOMPARE(b.powerMeanW, -1.0);

    const JobEfficiency &c = r[2].efficiency;
    QCOMPARE(c.basis, JobEfficiency::Basis::Exact);
    QCOMPARE(c.utilMeanPercent, 90.0);
    QCOMPARE(c.gpusMeasured, 1);
    QVERIFY(qAbs(c.gpuHoursMeasured - 5.0 / 60.0) < 1e-9);
    QCOMPARE(c.memPeakMiB, 40000.0);

    QCOMPARE(r[3].efficiency.basis, JobEfficiency::Basis::Unattributable);
    QVERIFY(r[3].efficiency.why.contains(QStringLiteral("which GPUs")));
    QCOMPARE(r[3].efficiency.utilMeanPercent, -1.0);
    QCOMPARE(r[4].efficiency.basis, JobEfficiency::Basis::None);
    QCOMPARE(r[4].efficiency.why, QStringLiteral("never started"));
    QCOMPARE(r[5].efficiency.why, QStringLiteral("held no GPUs"));
    QCOMPARE(r[6].efficiency.why, QStringLiteral("did not run inside the period"));

    QCOMPARE(calculator.skippedSeries(), 1);   // n2 without a gpu label
    QCOMPARE(calculator.unmatchedSeries(), 1); // "stranger"
}

void TestJobEfficiencyCalculator::chunksAddUp()
{
    // The same hour in three chunks (as HistoryQueryPlan cuts a long period) gives the same
    // figures as in one answer.
    QVector<JobRecord> whole = records(), parts = records();
    JobEfficiencyCalculator one(whole, nodes(), context());
    one.add(Metric::Util, parsed(utilSeries()));
    one.fill(whole);
    JobEfficiencyCalculator three(parts, nodes(), context());
    three.add(Metric::Util, parsed(utilSeries(kStart + 60, kStart + 1200)));
    three.add(Metric::Util, parsed(utilSeries(kStart + 1260, kStart + 1440)));
    three.add(Metric::Util, parsed(utilSeries(kStart + 1500, kEnd)));
    three.fill(parts);
    for (int i = 0; i < whole.size(); ++i) {
        QCOMPARE(parts[i].efficiency.basis, whole[i].efficiency.basis);
        QCOMPARE(parts[i].efficiency.utilMeanPercent, whole[i].efficiency.utilMeanPercent);
        QCOMPARE(parts[i].efficiency.gpuHoursMeasured, whole[i].efficiency.gpuHoursMeasured);
        QCOMPARE(parts[i].efficiency.gpuHoursIdle, whole[i].efficiency.gpuHoursIdle);
        QCOMPARE(parts[i].efficiency.gpusMeasured, whole[i].efficiency.gpusMeasured);
    }
    QCOMPARE(parts[0].efficiency.utilMeanPercent, 41.0);
}

void TestJobEfficiencyCalculator::failedAnswerAddsNothing()
{
    QVector<JobRecord> r = records();
    JobEfficiencyCalculator calculator(r, nodes(), context());
    calculator.add(Metric::Util,
                   PrometheusResponseParser::parse(R"({"status":"error","errorType":"bad_data","error":"x"})", 400));
    calculator.fill(r);
    QCOMPARE(r[0].efficiency.basis, JobEfficiency::Basis::None);
    QVERIFY(r[0].efficiency.why.startsWith(QStringLiteral("no GPU samples")));
    QCOMPARE(r[0].efficiency.utilMeanPercent, -1.0);
}

void TestJobEfficiencyCalculator::hostileAnswersAndRecords()
{
    // A record claiming GPU index 2^31 and a node claiming 2^31 GPUs size nothing; gpu labels
    // that are no index, negative readings, NaN and DCGM's blank codes are not values.
    QVector<JobRecord> r;
    r << record(QStringLiteral("1"), kStart, kEnd, {QStringLiteral("n1")}, 2);
    r.last().gpuIndicesByNode.insert(QStringLiteral("n1"), {0, 2147483647, -5});
    r << record(QStringLiteral("2"), kStart, kEnd, {QStringLiteral("huge")}, 2147483647);
    JobEfficiencyCalculator::Nodes n = nodes();
    n.names << QStringLiteral("huge");
    n.gpuCount.insert(QStringLiteral("huge"), 2147483647);
    JobEfficiencyCalculator calculator(r, n, context());
    QVector<SeriesSpec> s;
    s << SeriesSpec{R"("Hostname":"n1","gpu":"0")", kStart + kStep, kEnd, [](qint64 t) {
                        const qint64 k = (t - kStart) / kStep % 4;
                        return k == 0 ? 60.0 : k == 1 ? -40.0 : k == 2 ? std::nan("") : 2147483647.0; // 60 or missing
                    }};
    s << SeriesSpec{R"("Hostname":"n1","gpu":"99999999999")", kStart + kStep, kEnd, [](qint64) { return 1.0; }};
    s << SeriesSpec{R"("Hostname":"n1","gpu":"-1")", kStart + kStep, kEnd, [](qint64) { return 1.0; }};
    s << SeriesSpec{R"("Hostname":"n1","gpu":"0x1")", kStart + kStep, kEnd, [](qint64) { return 1.0; }};
    calculator.add(Metric::Util, parsed(s));
    calculator.fill(r);
    QCOMPARE(r[0].efficiency.basis, JobEfficiency::Basis::Indices);
    QCOMPARE(r[0].efficiency.utilMeanPercent, 60.0);
    QCOMPARE(r[0].efficiency.gpusMeasured, 1);
    QVERIFY(qAbs(r[0].efficiency.gpuHoursMeasured - 15.0 / 60.0) < 1e-9); // 15 of 60 steps had a value
    // 2^31 GPUs on a node claiming 2^31: at most 64 of them looked for (GpuCount::kMaxPerNode), none reported.
    QCOMPARE(r[1].efficiency.basis, JobEfficiency::Basis::None);
    QVERIFY(r[1].efficiency.why.startsWith(QStringLiteral("no GPU samples")));
    QCOMPARE(calculator.skippedSeries(), 3);
}

void TestJobEfficiencyCalculator::step_data()
{
    QTest::addColumn<qint64>("period");
    QTest::addColumn<qint64>("step");
    QTest::newRow("1h") << qint64(3600) << qint64(60);
    QTest::newRow("24h") << qint64(86400) << qint64(60);
    QTest::newRow("7d") << qint64(7 * 86400) << qint64(420);
    QTest::newRow("30d") << qint64(30 * 86400) << qint64(1800);
    QTest::newRow("empty") << qint64(0) << qint64(60);
}

void TestJobEfficiencyCalculator::step()
{
    QFETCH(qint64, period);
    QFETCH(qint64, step);
    QCOMPARE(HistoryQueryPlan::stepFor(period, HistoryQueryPlan::Options{}), step);
}

void TestJobEfficiencyCalculator::chunks()
{
    HistoryQueryPlan::Options o;
    // 16,000 GPUs over 30 days at 30 min: 1440 points; 500,000 / 16,000 = 31 a chunk -> 47 chunks.
    const QVector<HistoryQueryPlan::Chunk> big = HistoryQueryPlan::chunks(kStart, kStart + 30 * 86400, 1800, 16000, o);
    QCOMPARE(big.size(), 47);
    QCOMPARE(big.first(), (HistoryQueryPlan::Chunk{kStart + 1800, kStart + 31 * 1800}));
    QCOMPARE(big.last().end, kStart + 30 * 86400);
    for (int i = 1; i < big.size(); ++i)
        QCOMPARE(big[i].start, big[i - 1].end + 1800); // no step read twice, none left out
    // A small cluster: one chunk, however long the period.
    const QVector<HistoryQueryPlan::Chunk> small = HistoryQueryPlan::chunks(kStart, kStart + 86400, 60, 8, o);
    QCOMPARE(small.size(), 1);
    QCOMPARE(small.first(), (HistoryQueryPlan::Chunk{kStart + 60, kStart + 86400}));
    // Never more than Prometheus's 11,000 points a series.
    const QVector<HistoryQueryPlan::Chunk> fine = HistoryQueryPlan::chunks(kStart, kStart + 30 * 86400, 60, 1, o);
    QCOMPARE(fine.size(), 4); // 43,200 points
    QCOMPARE(fine.first().end - fine.first().start, qint64(10999) * 60);
    // A period that is not a whole number of steps: the last point at or after its end.
    QCOMPARE(HistoryQueryPlan::chunks(kStart, kStart + 90, 60, 1, o).last().end, kStart + 120);
    QVERIFY(HistoryQueryPlan::chunks(kStart, kStart, 60, 1, o).isEmpty());
}

void TestJobEfficiencyCalculator::promql()
{
    HistoryQueryPlan::Options o;
    o.labels.extraMatchers = QStringLiteral("cluster=\"a\"");
    const HistoryQueryPlan plan(o);
    QCOMPARE(plan.promql(Metric::Util, 420),
             QStringLiteral("max by (Hostname, hostname, node, kubernetes_node, instance, gpu, hpc_job, pod, namespace, "
                            "exported_pod, exported_namespace) (avg_over_time(DCGM_FI_DEV_GPU_UTIL{GPU_I_ID=\"\", "
                            "cluster=\"a\"}[420s]))"));
    QVERIFY(plan.promql(Metric::MemUsed, 60).contains(QStringLiteral("max_over_time(DCGM_FI_DEV_FB_USED{")));
    QVERIFY(plan.promql(Metric::Power, 60).contains(QStringLiteral("avg_over_time(DCGM_FI_DEV_POWER_USAGE{")));
}

QTEST_GUILESS_MAIN(TestJobEfficiencyCalculator)
#include "tst_job_efficiency_calculator.moc"
