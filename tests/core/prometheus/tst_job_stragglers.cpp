// JobStragglers: a node that sets the pace of a multi-node job, from the usage history, against
// the job's other nodes with a robust statistic: an outlier, a tight job, a dip, a noisy job, too
// few nodes or steps, a coarse history, and series the exporter labels with the job.
#include "prometheus/job_stragglers.h"

#include <QTest>

#include <functional>

using namespace strata;

namespace {

constexpr qint64 kNow = 1'800'000'000;

// One node's utilisation by step: util(node, stepsAgo).
using Profile = std::function<float(int node, int stepsAgo)>;

struct Case
{
    int nodes = 4;
    int gpusPerNode = 8;
    int startedStepsAgo = 30;
    int historySteps = 30;
    qint64 step = 60;
    bool labelled = false; // the exporter's hpc_job label names the job
    Profile util;
};

struct Built
{
    QVector<GpuUsageSeries> series;
    QVector<Job> jobs;
    JobUsage::Input input;
};

QString nodeName(int n)
{
    return QStringLiteral("gpu-node%1").arg(n + 1, 2, 10, QLatin1Char('0'));
}

void build(const Case &c, Built &b)
{
    Job job;
    job.id = QStringLiteral("4242");
    job.name = QStringLiteral("pretrain-70b");
    job.setState(QStringLiteral("RUNNING"));
    job.startTime = kNow - c.startedStepsAgo * c.step;
    for (int n = 0; n < c.nodes; ++n) {
        QVector<int> gpus;
        for (int g = 0; g < c.gpusPerNode; ++g) {
            gpus << g;
            GpuUsageSeries s;
            s.hosts = {nodeName(n)};
            s.gpu = g;
            if (c.labelled)
                s.jobKey = job.id;
            for (int ago = c.historySteps; ago >= 0; --ago)
                s.points.append(UsagePoint{kNow - ago * c.step, c.util(n, ago) + float(g % 3) - 1, 30000});
            b.series << s;
        }
        if (!c.labelled)
            job.gpus.insert(nodeName(n), gpus);
    }
    job.gpusRequested = c.nodes * c.gpusPerNode;
    b.jobs = {job};
    b.input.series = &b.series;
    b.input.now = kNow;
    b.input.stepSeconds = c.step;
    for (int n = 0; n < c.nodes; ++n)
        b.input.nodeIndexByName.insert(nodeName(n), n);
    for (const GpuUsageSeries &s : std::as_const(b.series))
        b.input.seriesNode << int(s.hosts.first().right(2).toInt() - 1);
}

} // namespace

Q_DECLARE_METATYPE(Case)

class TestJobStragglers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void find_data()
    {
        QTest::addColumn<Case>("c");
        QTest::addColumn<QStringList>("stragglers"); // nodes named, in order
        QTest::addColumn<QString>("evidence");       // a part of the first message

        Case slowNode;
        slowNode.util = [](int node, int) { return node == 2 ? 41.f : 92.f; };
        QTest::newRow("one node of four at 41 % for the whole window")
            << slowNode << QStringList{QStringLiteral("gpu-node03")}
            << QStringLiteral("job 4242 (pretrain-70b): gpu-node03's GPUs averaged 41 % utilisation while the job's other "
                              "3 nodes averaged 92 % (median), in 11 of 11 steps of the last 10 min");

        Case tight;
        tight.util = [](int node, int ago) { return 88.f + float((node * 7 + ago) % 6); };
        QTest::newRow("a tight job: none") << tight << QStringList{} << QString();

        Case dip;
        dip.util = [](int node, int ago) { return node == 1 && ago < 2 ? 10.f : 92.f; };
        QTest::newRow("a dip of two steps in eleven: none") << dip << QStringList{} << QString();

        Case mostly;
        mostly.util = [](int node, int ago) { return node == 1 && ago != 4 ? 50.f : 92.f; };
        QTest::newRow("lagging in 10 of 11 steps") << mostly << QStringList{QStringLiteral("gpu-node02")}
                                                   << QStringLiteral("in 10 of 11 steps");

        Case pair;
        pair.nodes = 2;
        pair.util = [](int node, int) { return node == 0 ? 35.f : 90.f; };
        QTest::newRow("two nodes: the lower one only") << pair << QStringList{QStringLiteral("gpu-node01")}
                                                       << QStringLiteral("the job's other node averaged 90 %");

        Case noisy;
        noisy.nodes = 6;
        noisy.util = [](int node, int) { return QVector<float>{40, 95, 55, 85, 70, 30}.at(node); };
        QTest::newRow("a noisy job (wide spread): the gap must clear 3 spreads, none")
            << noisy << QStringList{} << QString();

        Case single;
        single.nodes = 1;
        single.util = [](int, int) { return 10.f; };
        QTest::newRow("one node: nothing to compare") << single << QStringList{} << QString();

        Case young;
        young.startedStepsAgo = 1;
        young.util = slowNode.util;
        QTest::newRow("started a step ago: two steps, too few") << young << QStringList{} << QString();

        Case coarse;
        coarse.step = 360; // a day-old job's history: 6-minute steps
        coarse.historySteps = 60;
        coarse.startedStepsAgo = 240;
        coarse.util = slowNode.util;
        QTest::newRow("a coarse history: the window grows to three steps of 6 min") << coarse << QStringList{QStringLiteral("gpu-node03")}
                                                                << QStringLiteral("in 4 of 4 steps of the last 18 min");

        Case labelled;
        labelled.labelled = true;
        labelled.util = slowNode.util;
        QTest::newRow("series labelled with the job (hpc_job)") << labelled << QStringList{QStringLiteral("gpu-node03")}
                                                                  << QStringLiteral("gpu-node03's GPUs averaged 41 %");

        Case two;
        two.nodes = 8;
        two.util = [](int node, int) { return node == 3 || node == 6 ? 30.f : 93.f; };
        QTest::newRow("two slow nodes of eight") << two << QStringList{QStringLiteral("gpu-node04"), QStringLiteral("gpu-node07")}
                                                 << QStringLiteral("other 7 nodes averaged 93 %");
    }

    void find()
    {
        QFETCH(Case, c);
        QFETCH(QStringList, stragglers);
        QFETCH(QString, evidence);
        Built b;
        build(c, b);
        const QVector<Finding> found = JobStragglers::find(b.jobs, b.input, HealthThresholds{});
        QStringList nodes;
        for (const Finding &f : found) {
            nodes << f.node;
            QCOMPARE(f.code, QStringLiteral("job-straggler"));
            QCOMPARE(f.severity, Finding::Severity::Warning);
            QCOMPARE(f.gpu, -1);
            QCOMPARE(f.job, QStringLiteral("4242"));
            QCOMPARE(f.jobs, QStringList{QStringLiteral("4242")});
        }
        QCOMPARE(nodes, stragglers);
        if (!evidence.isEmpty())
            QVERIFY2(found.first().message.contains(evidence), qPrintable(found.first().message));
    }

    void endedJobsAndNoHistoryFindNothing()
    {
        Case c;
        c.util = [](int node, int) { return node == 2 ? 41.f : 92.f; };
        Built b;
        build(c, b);
        b.jobs[0].setState(QStringLiteral("COMPLETED"));
        QVERIFY(JobStragglers::find(b.jobs, b.input, HealthThresholds{}).isEmpty());
        JobUsage::Input none;
        QVERIFY(JobStragglers::find(b.jobs, none, HealthThresholds{}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestJobStragglers)
#include "tst_job_stragglers.moc"
