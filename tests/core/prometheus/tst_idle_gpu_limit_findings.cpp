// IdleGpuLimitFindings: a running job whose GPUs all stayed idle past its partition's limit is
// named (job, owner, how long, the action offered), and the finding goes when the data changes.
#include "prometheus/idle_gpu_limit_findings.h"

#include <QTest>

#include <functional>

using namespace strata;

namespace {

constexpr qint64 kNow = 1'800'000'000;
constexpr qint64 kStep = 60;

GpuUsageSeries history(const QString &host, int gpu, int minutes, const std::function<float(int)> &util)
{
    GpuUsageSeries s;
    s.hosts = {host};
    s.gpu = gpu;
    for (int ago = minutes; ago >= 0; --ago)
        s.points.append(UsagePoint{kNow - ago * kStep, util(ago), 1000});
    return s;
}

Job running(const QString &id, const QString &partition, qint64 startedMinutesAgo, const QVector<int> &gpus)
{
    Job j;
    j.id = id;
    j.user = QStringLiteral("alice");
    j.partition = partition;
    j.setState(QStringLiteral("RUNNING"));
    j.startTime = kNow - startedMinutesAgo * kStep;
    j.gpus.insert(QStringLiteral("n1"), gpus);
    j.gpusRequested = int(gpus.size());
    return j;
}

JobUsage::Input input(const QVector<GpuUsageSeries> &series)
{
    JobUsage::Input in;
    in.series = &series;
    in.now = kNow;
    in.nodeIndexByName.insert(QStringLiteral("n1"), 0);
    for (int i = 0; i < series.size(); ++i)
        in.seriesNode << 0;
    return in;
}

IdleGpuLimits limits(const char *text)
{
    QString why;
    return *IdleGpuLimits::parse(QString::fromLatin1(text), &why);
}

const auto busyUntil = [](int minutesAgo) { return [minutesAgo](int ago) { return ago > minutesAgo ? 90.f : 1.f; }; };

} // namespace

class TestIdleGpuLimitFindings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void firesPastTheLimit()
    {
        // Two GPUs busy until 45 minutes ago, idle since: past gpu's 30 min.
        const QVector<GpuUsageSeries> series{history(QStringLiteral("n1"), 0, 120, busyUntil(45)),
                                             history(QStringLiteral("n1"), 1, 120, busyUntil(45))};
        const QVector<Job> jobs{running(QStringLiteral("4242"), QStringLiteral("gpu"), 100, {0, 1})};
        const QVector<Finding> f = IdleGpuLimitFindings::find(jobs, input(series), HealthThresholds{}, limits("gpu:30m,*:2h"));
        QCOMPARE(f.size(), 1);
        QCOMPARE(f[0].code, QStringLiteral("idle-gpu-limit"));
        QCOMPARE(f[0].severity, Finding::Severity::Warning);
        QCOMPARE(f[0].job, QStringLiteral("4242"));
        QCOMPARE(f[0].jobs, QStringList{QStringLiteral("4242")});
        QCOMPARE(f[0].node, QStringLiteral("n1"));
        QCOMPARE(f[0].message, QStringLiteral("job 4242 (alice, partition gpu) has held 2 GPUs idle for 45 min, past the "
                                              "partition's limit of 30 min: `strata cancel 4242` frees them (Strata does "
                                              "not cancel it)"));
    }

    void quietBelowTheLimitOrWithoutOne()
    {
        const QVector<GpuUsageSeries> series{history(QStringLiteral("n1"), 0, 120, busyUntil(45))};
        // The default "*" of 2 h applies to partition debug: 45 min is under it.
        QVERIFY(IdleGpuLimitFindings::find({running(QStringLiteral("1"), QStringLiteral("debug"), 100, {0})}, input(series),
                                           HealthThresholds{}, limits("gpu:30m,*:2h"))
                    .isEmpty());
        // No entry for the partition and no "*": no limit.
        QVERIFY(IdleGpuLimitFindings::find({running(QStringLiteral("1"), QStringLiteral("debug"), 100, {0})}, input(series),
                                           HealthThresholds{}, limits("gpu:30m"))
                    .isEmpty());
        // No limits in the profile at all.
        QVERIFY(IdleGpuLimitFindings::find({running(QStringLiteral("1"), QStringLiteral("gpu"), 100, {0})}, input(series),
                                           HealthThresholds{}, IdleGpuLimits{})
                    .isEmpty());
    }

    void oneBusyGpuOrOneUnmeasuredKeepsItQuiet()
    {
        const QVector<Job> jobs{running(QStringLiteral("7"), QStringLiteral("gpu"), 100, {0, 1})};
        const QVector<GpuUsageSeries> oneBusy{history(QStringLiteral("n1"), 0, 120, busyUntil(45)),
                                              history(QStringLiteral("n1"), 1, 120, [](int) { return 70.f; })};
        QVERIFY(IdleGpuLimitFindings::find(jobs, input(oneBusy), HealthThresholds{}, limits("gpu:30m")).isEmpty());
        const QVector<GpuUsageSeries> oneMissing{history(QStringLiteral("n1"), 0, 120, busyUntil(45))};
        QVERIFY(IdleGpuLimitFindings::find(jobs, input(oneMissing), HealthThresholds{}, limits("gpu:30m")).isEmpty());
    }

    void clearsWhenTheGpusWorkAgain()
    {
        const QVector<Job> jobs{running(QStringLiteral("9"), QStringLiteral("gpu"), 100, {0})};
        const QVector<GpuUsageSeries> idle{history(QStringLiteral("n1"), 0, 120, busyUntil(40))};
        QCOMPARE(IdleGpuLimitFindings::find(jobs, input(idle), HealthThresholds{}, limits("gpu:30m")).size(), 1);
        // The next refresh: busy again in the last two minutes.
        const QVector<GpuUsageSeries> working{
            history(QStringLiteral("n1"), 0, 120, [](int ago) { return ago <= 2 || ago > 40 ? 90.f : 1.f; })};
        QVERIFY(IdleGpuLimitFindings::find(jobs, input(working), HealthThresholds{}, limits("gpu:30m")).isEmpty());
    }

    void idleSinceItsStart()
    {
        // Never busy: idle from the job's start (50 min ago), not from the history's start.
        const QVector<GpuUsageSeries> series{history(QStringLiteral("n1"), 0, 120, [](int) { return 0.f; })};
        const QVector<Finding> f = IdleGpuLimitFindings::find({running(QStringLiteral("5"), QStringLiteral("gpu"), 50, {0})},
                                                              input(series), HealthThresholds{}, limits("gpu:30m"));
        QCOMPARE(f.size(), 1);
        QVERIFY2(f[0].message.contains(QStringLiteral("1 GPU idle for 50 min")), qPrintable(f[0].message));
    }
};

QTEST_GUILESS_MAIN(TestIdleGpuLimitFindings)
#include "tst_idle_gpu_limit_findings.moc"
