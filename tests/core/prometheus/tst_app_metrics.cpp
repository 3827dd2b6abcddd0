// AppMetricsQuery on Prometheus 2.42's real answer in the lab (tests/data/prometheus/app/,
// capture.sh): a real PyTorch DDP job (job 1: torchrun, 2 nodes x 2 processes, gloo on CPU,
// exporting strata_train_*) and the vLLM metrics stand-in (job 3: vLLM's names at 480 tokens/s,
// TTFT 0.12 s), each scraped with its Slurm job id as hpc_job. The query sent is the one
// captured with.
#include "prometheus/app_metrics_query.h"
#include "prometheus/prometheus_response_parser.h"

#include <QFile>
#include <cmath>
#include <QTest>

using namespace strata;

namespace {

QByteArray data(const QString &name)
{
    QFile f(QStringLiteral(STRATA_TEST_DATA "/prometheus/app/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    return f.readAll();
}

PrometheusResponse running()
{
    PrometheusResponseParser::Options o;
    o.expect = PrometheusResponse::ResultType::Vector;
    return PrometheusResponseParser::parse(data(QStringLiteral("running.json")),
                                           data(QStringLiteral("running.json.status")).trimmed().toInt(), o);
}

} // namespace

class TestAppMetrics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sendsTheCapturedQuery()
    {
        QCOMPARE(AppMetricsQuery::promql(60), QString::fromUtf8(data(QStringLiteral("query.promql"))).trimmed());
    }

    void readsTrainingAndServing()
    {
        const PrometheusResponse r = running();
        QVERIFY2(r.ok, qPrintable(r.error));
        const QVector<AppMetricsQuery::JobAppMetrics> app = AppMetricsQuery::build(r);
        QCOMPARE(app.size(), 2);
        const QHash<QString, AppMetrics> jobs =
            AppMetricsQuery::byJob({QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3")}, app);
        QCOMPARE(jobs.size(), 2);

        const AppMetrics t = jobs.value(QStringLiteral("1"));
        QCOMPARE(t.server, QStringLiteral("training"));
        QVERIFY(t.stepSeconds && qFuzzyCompare(*t.stepSeconds, 0.32760027050971985));
        QVERIFY(t.samplesPerSecond && *t.samplesPerSecond > 250 && *t.samplesPerSecond < 260); // 32 x 4 ranks / 0.5 s
        QVERIFY(t.tokensPerSecond && qFuzzyCompare(*t.tokensPerSecond, *t.samplesPerSecond * 128));
        QVERIFY(t.loss && *t.loss > 0 && *t.loss < 1);
        QVERIFY(!t.requestsRunning && !t.timeToFirstTokenSeconds);

        QVERIFY(!jobs.contains(QStringLiteral("2"))); // a job without an exporter: nothing, not zeros

        const AppMetrics v = jobs.value(QStringLiteral("3"));
        QCOMPARE(v.server, QStringLiteral("vllm"));
        QCOMPARE(v.requestsRunning, std::optional<double>(8));
        QCOMPARE(v.requestsWaiting, std::optional<double>(1));
        QVERIFY(v.tokensPerSecond && qAbs(*v.tokensPerSecond - 480) < 10);
        QVERIFY(v.timeToFirstTokenSeconds && qAbs(*v.timeToFirstTokenSeconds - 0.12) < 1e-9);
        QVERIFY(v.timePerOutputTokenSeconds && qAbs(*v.timePerOutputTokenSeconds - 1.0 / 60) < 1e-9); // 8/480 s
        QVERIFY(!v.stepSeconds && !v.loss);
    }

    // A job's chart: one line of tokens/s or step time. The Slurm form is the file the lab test
    // (test_app_metrics.sh) sends to the lab's Prometheus, with JOBID replaced.
    void jobSeries()
    {
        QCOMPARE(AppMetricsQuery::jobSeriesPromql(QStringLiteral("tokens"), QStringLiteral("JOBID")), QString());
        const QString tokens = QString::fromUtf8(data(QStringLiteral("job_tokens.promql"))).trimmed();
        QCOMPARE(AppMetricsQuery::jobSeriesPromql(QStringLiteral("tokens"), QStringLiteral("1234")),
                 QString(tokens).replace(QStringLiteral("JOBID"), QStringLiteral("1234")));
        QCOMPARE(AppMetricsQuery::jobSeriesPromql(QStringLiteral("step"), QStringLiteral("77_3")),
                 QStringLiteral("max(strata_train_step_seconds{hpc_job=\"77_3\"})"));
        // Kubernetes: the Job's pods under either label form, the name's dots escaped.
        QCOMPARE(AppMetricsQuery::jobSeriesPromql(QStringLiteral("step"), QStringLiteral("ml/llama.train")),
                 QStringLiteral("max(strata_train_step_seconds{namespace=\"ml\",pod=~\"llama\\\\.train-.+\"}) or "
                                "max(strata_train_step_seconds{exported_namespace=\"ml\",exported_pod=~\"llama\\\\.train-.+\"})"));
        // Anything else never reaches a query: no selector can be broken out of.
        for (const char *hostile : {"1\"} or up{a=\"", "ns/pod\"}", "1 or 2", "../x", ""})
            QCOMPARE(AppMetricsQuery::jobSeriesPromql(QStringLiteral("tokens"), QString::fromUtf8(hostile)), QString());
        QCOMPARE(AppMetricsQuery::jobSeriesPromql(QStringLiteral("loss"), QStringLiteral("1")), QString());
    }

    // A Kubernetes pod of a Job ("ns/name-abcde" -> job "ns/name"), and NaN (an idle histogram's
    // 0/0) left out rather than shown.
    void joinsPodsAndDropsNaN()
    {
        PrometheusResponse r;
        r.ok = true;
        PrometheusSeries s;
        s.labels = {{QStringLiteral("exported_namespace"), QStringLiteral("serving")},
                    {QStringLiteral("exported_pod"), QStringLiteral("llama-7xk2p")},
                    {QStringLiteral("strata_app"), QStringLiteral("tgi:tokens")}};
        s.samples = {PrometheusSample{0, 900}};
        r.series << s;
        s.labels[2].second = QStringLiteral("tgi:tpot");
        s.samples = {PrometheusSample{0, std::nan("")}};
        r.series << s;
        const QHash<QString, AppMetrics> jobs = AppMetricsQuery::byJob({QStringLiteral("serving/llama")}, AppMetricsQuery::build(r));
        QCOMPARE(jobs.size(), 1);
        const AppMetrics a = jobs.value(QStringLiteral("serving/llama"));
        QCOMPARE(a.server, QStringLiteral("tgi"));
        QCOMPARE(a.tokensPerSecond, std::optional<double>(900));
        QVERIFY(!a.timePerOutputTokenSeconds);
    }
};

QTEST_GUILESS_MAIN(TestAppMetrics)
#include "tst_app_metrics.moc"
