// JobUsage: slicing the cluster-wide usage history per job, and the verdict sentence.
#include "prometheus/job_usage.h"

#include <QTest>

using namespace strata;

namespace {

constexpr qint64 kNow = 1'800'000'000;
constexpr qint64 kStep = 60;

// A GPU's history over the last `minutes`, one point a minute; util(minutesAgo) gives the value.
GpuUsageSeries history(const QString &host, int gpu, int minutes, const std::function<float(int)> &util,
                       const QString &job = {}, float mem = 1000)
{
    GpuUsageSeries s;
    s.hosts = {host};
    s.gpu = gpu;
    s.jobKey = job;
    for (int ago = minutes; ago >= 0; --ago)
        s.points.append(UsagePoint{kNow - ago * kStep, util(ago), mem});
    return s;
}

Job running(const QString &id, qint64 startedMinutesAgo, const QString &node, const QVector<int> &gpus)
{
    Job j;
    j.id = id;
    j.setState(QStringLiteral("RUNNING"));
    j.startTime = kNow - startedMinutesAgo * kStep;
    if (!node.isEmpty())
        j.gpus.insert(node, gpus);
    j.gpusRequested = int(gpus.size());
    return j;
}

JobUsage::Input input(const QVector<GpuUsageSeries> &series, const QStringList &nodes)
{
    JobUsage::Input in;
    in.series = &series;
    in.now = kNow;
    for (int i = 0; i < nodes.size(); ++i)
        in.nodeIndexByName.insert(nodes[i], i);
    for (const GpuUsageSeries &s : series)
        in.seriesNode << int(nodes.indexOf(s.hosts.first()));
    return in;
}

} // namespace

class TestJobUsage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void verdict_data();
    void verdict();
    void slicesFromTheJobsStart();
    void exporterJobLabelWins();
    void mixedExportersCoverEveryNode();
    void kubernetesPodsMapToTheirJob_data();
    void kubernetesPodsMapToTheirJob();
    void pendingJobsAreLeftAlone();
    void summariseIdleTail();
    void jobStartedAfterTheHistoryUsesCurrentReadings();
};

void TestJobUsage::verdict_data()
{
    QTest::addColumn<int>("held");
    QTest::addColumn<QList<double>>("means");
    QTest::addColumn<QList<int>>("idleMinutes");
    QTest::addColumn<QString>("expected");

    QTest::newRow("all busy") << 4 << QList<double>{93, 95, 91, 93} << QList<int>{0, 0, 0, 0}
                              << "all 4 GPUs busy (mean 93%)";
    QTest::newRow("one GPU busy") << 1 << QList<double>{97} << QList<int>{0} << "1 GPU busy (mean 97%)";
    QTest::newRow("3 of 8 idle") << 8 << QList<double>{90, 90, 90, 90, 90, 1, 2, 0} << QList<int>{0, 0, 0, 0, 0, 40, 55, 41}
                                 << "8 GPUs held, 3 idle for 40 min";
    QTest::newRow("idle but not for long") << 2 << QList<double>{90, 30} << QList<int>{0, 9}
                                           << "2 GPUs held, mean 60%, lowest 30%";
    QTest::newRow("middling") << 2 << QList<double>{45, 12} << QList<int>{0, 0} << "2 GPUs held, mean 29%, lowest 12%";
    QTest::newRow("metrics for part of the job") << 8 << QList<double>{95, 95, 95, 95} << QList<int>{0, 0, 0, 0}
                                                 << "8 GPUs held, mean 95%, lowest 95%; no metrics for 4 of 8";
    QTest::newRow("no metrics") << 4 << QList<double>{} << QList<int>{} << "no GPU metrics for this job";
}

void TestJobUsage::verdict()
{
    QFETCH(int, held);
    QFETCH(QList<double>, means);
    QFETCH(QList<int>, idleMinutes);
    QFETCH(QString, expected);
    QVector<JobUsage::GpuSummary> gpus;
    for (int i = 0; i < means.size(); ++i) {
        JobUsage::GpuSummary s;
        s.meanUtilPercent = means[i];
        s.idleSeconds = idleMinutes[i] * 60;
        s.points = 10;
        gpus << s;
    }
    QCOMPARE(JobUsage::verdict(held, gpus, HealthThresholds{}), expected);
}

void TestJobUsage::slicesFromTheJobsStart()
{
    // gpu-node01 GPU 0: idle (0%) for two hours, then 100% since the job began 30 min ago.
    // GPU 1: the job's too, at 0% from 19 minutes ago on.
    const QVector<GpuUsageSeries> series = {
        history(QStringLiteral("gpu-node01"), 0, 120, [](int ago) { return ago <= 30 ? 100.f : 0.f; }, {}, 2000),
        history(QStringLiteral("gpu-node01"), 1, 120, [](int ago) { return ago < 20 ? 0.f : 80.f; }, {}, 4000),
        history(QStringLiteral("gpu-node02"), 0, 120, [](int) { return 50.f; }),
    };
    QVector<Job> jobs = {running(QStringLiteral("10"), 30, QStringLiteral("gpu-node01"), {0, 1})};
    JobUsage::apply(jobs, input(series, {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")}), HealthThresholds{});
    const Job &j = jobs[0];
    QVERIFY(j.gpuUtilMean.has_value());
    // GPU 0: 31 points at 100. GPU 1: 11 points at 80 (30..20 min ago) and 20 at 0.
    QCOMPARE(*j.gpuUtilMin, 80.0 * 11 / 31);
    QCOMPARE(*j.gpuUtilMean, (100.0 + 80.0 * 11 / 31) / 2);
    QCOMPARE(*j.gpuMemUsedMeanMiB, 3000.0);
    QCOMPARE(j.efficiencyVerdict, QStringLiteral("2 GPUs held, 1 idle for 19 min"));
    QCOMPARE(j.gpuUtilBasis, QStringLiteral("window"));
}

void TestJobUsage::jobStartedAfterTheHistoryUsesCurrentReadings()
{
    // The history ends at kNow; job 30 started 30 s later (no point of its own yet), job 31 has
    // a window, job 32 has GPUs without readings. Node GPUs as the join leaves them.
    const QVector<GpuUsageSeries> series = {
        history(QStringLiteral("gpu-node01"), 0, 10, [](int) { return 90.f; }),
        history(QStringLiteral("gpu-node01"), 1, 10, [](int) { return 40.f; }),
    };
    QVector<Job> jobs = {running(QStringLiteral("30"), 0, QStringLiteral("gpu-node01"), {0, 1}),
                         running(QStringLiteral("31"), 5, QStringLiteral("gpu-node01"), {2}),
                         running(QStringLiteral("32"), 0, QStringLiteral("gpu-node01"), {3})};
    jobs[0].startTime = kNow + 30;
    QVector<GpuUsageSeries> withThird = series;
    withThird << history(QStringLiteral("gpu-node01"), 2, 10, [](int) { return 70.f; });
    JobUsage::apply(jobs, input(withThird, {QStringLiteral("gpu-node01")}), HealthThresholds{});
    QVERIFY(!jobs[0].gpuUtilMean);
    QCOMPARE(jobs[1].gpuUtilBasis, QStringLiteral("window"));

    Node node;
    node.name = QStringLiteral("gpu-node01");
    for (int i = 0; i < 4; ++i) {
        Gpu g;
        g.index = i;
        g.jobId = i < 2 ? QStringLiteral("30") : i == 2 ? QStringLiteral("31") : QStringLiteral("32");
        if (i < 3) {
            g.metrics.utilPercent = 97.0 - i;
            g.metrics.memUsedMiB = 1000.0 * (i + 1);
        }
        node.gpus << g;
    }
    JobUsage::applyCurrent(jobs, {node}, HealthThresholds{});
    QCOMPARE(jobs[0].gpuUtilBasis, QStringLiteral("current"));
    QCOMPARE(jobs[0].gpuUtilMean, std::optional<double>(96.5));
    QCOMPARE(jobs[0].gpuUtilMin, std::optional<double>(96));
    QCOMPARE(jobs[0].gpuMemUsedMeanMiB, std::optional<double>(1500));
    QCOMPARE(jobs[0].efficiencyVerdict,
             QStringLiteral("all 2 GPUs busy (mean 97%) (latest readings: no usage history since the job started yet)"));
    QCOMPARE(jobs[1].gpuUtilBasis, QStringLiteral("window")); // a window value stays
    QCOMPARE(jobs[1].gpuUtilMean, std::optional<double>(70));
    QVERIFY(!jobs[2].gpuUtilMean); // no readings: no value, never 0
    QCOMPARE(jobs[2].gpuUtilBasis, QString());
}

void TestJobUsage::exporterJobLabelWins()
{
    // The exporter labels GPU 0's series with the job (hpc_job); the scheduler's indices would
    // point at GPU 1, which another job's series covers.
    const QVector<GpuUsageSeries> series = {
        history(QStringLiteral("gpu-node01"), 0, 10, [](int) { return 90.f; }, QStringLiteral("20")),
        history(QStringLiteral("gpu-node01"), 1, 10, [](int) { return 10.f; }),
    };
    QVector<Job> jobs = {running(QStringLiteral("20"), 10, QStringLiteral("gpu-node01"), {1})};
    JobUsage::apply(jobs, input(series, {QStringLiteral("gpu-node01")}), HealthThresholds{});
    QCOMPARE(*jobs[0].gpuUtilMean, 90.0);
    QCOMPARE(jobs[0].efficiencyVerdict, QStringLiteral("1 GPU busy (mean 90%)"));
}

void TestJobUsage::mixedExportersCoverEveryNode()
{
    // gpu-node01's exporter names the job (the lab's gpu-node02 has the GPU Operator's
    // exported_pod), gpu-node02's names no workload: the job's GPUs there come from the
    // scheduler's placement, not dropped because another node labels its series.
    const QVector<GpuUsageSeries> series = {
        history(QStringLiteral("gpu-node01"), 0, 10, [](int) { return 90.f; }, QStringLiteral("20")),
        history(QStringLiteral("gpu-node01"), 1, 10, [](int) { return 90.f; }, QStringLiteral("20")),
        history(QStringLiteral("gpu-node02"), 0, 10, [](int) { return 30.f; }),
        history(QStringLiteral("gpu-node02"), 1, 10, [](int) { return 30.f; }),
        history(QStringLiteral("gpu-node02"), 2, 10, [](int) { return 99.f; }), // not the job's
    };
    Job job = running(QStringLiteral("20"), 10, QStringLiteral("gpu-node01"), {0, 1});
    job.gpus.insert(QStringLiteral("gpu-node02"), {0, 1});
    job.gpusRequested = 4;
    QVector<Job> jobs = {job};
    JobUsage::apply(jobs, input(series, {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")}), HealthThresholds{});
    QCOMPARE(*jobs[0].gpuUtilMean, 60.0);
    QCOMPARE(*jobs[0].gpuUtilMin, 30.0);
    QCOMPARE(jobs[0].efficiencyVerdict, QStringLiteral("4 GPUs held, mean 60%, lowest 30%"));
}

void TestJobUsage::kubernetesPodsMapToTheirJob_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("job");
    QTest::newRow("pod of a Job") << "ml/train-7x2kq" << "ml/train";
    QTest::newRow("pod of an indexed Job") << "ml/train-0-7x2kq" << "ml/train";
    QTest::newRow("the job itself") << "ml/train" << "ml/train";
    QTest::newRow("dashes in the job name") << "ml/llama-70b-sft-q8zr2" << "ml/llama-70b-sft";
    QTest::newRow("another namespace") << "dev/train-7x2kq" << "";
    QTest::newRow("unrelated") << "ml/eval-abcde" << "";
    QTest::newRow("slurm id") << "4711" << "4711";
}

void TestJobUsage::kubernetesPodsMapToTheirJob()
{
    QFETCH(QString, key);
    QFETCH(QString, job);
    const QHash<QString, int> ids = {{QStringLiteral("ml/train"), 0},
                                     {QStringLiteral("ml/llama-70b-sft"), 1},
                                     {QStringLiteral("4711"), 2}};
    QCOMPARE(JobUsage::jobIdForKey(key, ids), job);
}

void TestJobUsage::pendingJobsAreLeftAlone()
{
    const QVector<GpuUsageSeries> series = {history(QStringLiteral("gpu-node01"), 0, 10, [](int) { return 90.f; })};
    Job pending = running(QStringLiteral("30"), 10, QStringLiteral("gpu-node01"), {0});
    pending.setState(QStringLiteral("PENDING"));
    QVector<Job> jobs = {pending};
    JobUsage::apply(jobs, input(series, {QStringLiteral("gpu-node01")}), HealthThresholds{});
    QVERIFY(!jobs[0].gpuUtilMean.has_value());
    QVERIFY(jobs[0].efficiencyVerdict.isEmpty());
}

void TestJobUsage::summariseIdleTail()
{
    const GpuUsageSeries s = history(QStringLiteral("n"), 0, 60, [](int ago) { return ago <= 15 ? 1.f : (ago == 40 ? -1.f : 70.f); });
    const JobUsage::GpuSummary all = JobUsage::summarise(s.points, 0, kNow, HealthThresholds{});
    QCOMPARE(all.points, 60); // the gap (-1) is skipped
    QCOMPARE(all.idleSeconds, 15 * 60);
    const JobUsage::GpuSummary recent = JobUsage::summarise(s.points, kNow - 10 * kStep, kNow, HealthThresholds{});
    QCOMPARE(recent.points, 11);
    QCOMPARE(recent.meanUtilPercent, 1.0);
    QCOMPARE(recent.idleSeconds, 10 * 60); // idle since the slice began
}

QTEST_GUILESS_MAIN(TestJobUsage)
#include "tst_job_usage.moc"
