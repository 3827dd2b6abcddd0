// JobLinkErrors on query_range answers shaped as Prometheus 2.x sends them
// (tests/data/prometheus/link-errors/: DCGM's NVLink CRC flit counter on four nodes, two GPUs
// each, and node exporter's InfiniBand symbol errors per device and port): a counter that rises
// while a multi-node job runs names the job, the node, the counter and the increase; one that
// rose before the job, a reset exporter, a one-node job, a job not running, a counter nobody
// exports.
#include "prometheus/host_name_resolver.h"
#include "prometheus/job_link_errors.h"
#include "prometheus/metrics_source.h"
#include "prometheus/prometheus_response_parser.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

constexpr qint64 kStart = 1796270000; // the answers' first point; one a minute, 31 points
constexpr qint64 kNow = kStart + 30 * 60;

QByteArray data(const QString &name)
{
    QFile f(QStringLiteral(STRATA_TEST_DATA "/prometheus/link-errors/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    return f.readAll();
}

QVector<LinkCounterSeries> answer(const QString &file, const QString &counter)
{
    PrometheusResponseParser::Options o;
    o.expect = PrometheusResponse::ResultType::Matrix;
    const PrometheusResponse r = PrometheusResponseParser::parse(data(file), data(file + QStringLiteral(".status")).trimmed().toInt(), o);
    if (!r.ok)
        qFatal("%s: %s", qPrintable(file), qPrintable(r.error));
    return JobLinkErrors::fromResponse(r, counter, QString());
}

const QStringList kNodes{"gpu-node01", "gpu-node02", "gpu-node03", "gpu-node04"};

// "ID STATE NODES STARTED_MINUTE" (nodes comma separated).
Job job(const QString &spec)
{
    const QStringList f = spec.split(QLatin1Char(' '));
    Job j;
    j.id = f.at(0);
    j.name = QStringLiteral("pretrain");
    j.setState(f.at(1));
    j.nodes = f.at(2).split(QLatin1Char(','));
    j.startTime = kStart + f.at(3).toLongLong() * 60;
    return j;
}

} // namespace

class TestJobLinkErrors : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void increase_data()
    {
        QTest::addColumn<QVector<double>>("values"); // one a minute from kStart
        QTest::addColumn<int>("fromMinute");
        QTest::addColumn<double>("increase");
        QTest::newRow("flat") << QVector<double>{5, 5, 5} << 0 << 0.0;
        QTest::newRow("rising") << QVector<double>{5, 6, 9} << 0 << 4.0;
        QTest::newRow("rising before from") << QVector<double>{5, 9, 9} << 1 << 0.0;
        QTest::newRow("a reset counts the value after it") << QVector<double>{7, 0, 2, 3} << 0 << 3.0;
        QTest::newRow("one point in the window") << QVector<double>{1, 2, 3} << 2 << 0.0;
    }
    void increase()
    {
        QFETCH(QVector<double>, values);
        QFETCH(int, fromMinute);
        QFETCH(double, increase);
        QVector<LinkCounterSample> samples;
        for (int i = 0; i < values.size(); ++i)
            samples << LinkCounterSample{kStart + i * 60, values.at(i)};
        QCOMPARE(JobLinkErrors::increase(samples, kStart + fromMinute * 60, kNow), increase);
    }

    void find_data()
    {
        QTest::addColumn<QStringList>("jobs");
        QTest::addColumn<QStringList>("expected"); // "job node counter increase", sorted by job, node

        const QString all = kNodes.join(QLatin1Char(','));
        QTest::newRow("a job over four nodes") << QStringList{"4100 RUNNING " + all + " 10"}
            << QStringList{"4100 gpu-node02 node_infiniband_symbol_error_total 19",
                           "4100 gpu-node03 DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL 51",
                           "4100 gpu-node04 DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL 4"};
        QTest::newRow("a job started later sees only its part") << QStringList{"4103 RUNNING gpu-node03,gpu-node04 25"}
            << QStringList{"4103 gpu-node03 DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL 15",
                           "4103 gpu-node04 DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL 2"};
        QTest::newRow("errors before the job started") << QStringList{"4104 RUNNING gpu-node01,gpu-node02 0"}
            << QStringList{"4104 gpu-node01 DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL 40",
                           "4104 gpu-node02 node_infiniband_symbol_error_total 19"};
        QTest::newRow("rose before, flat since the job started") << QStringList{"4105 RUNNING gpu-node01,gpu-node02 10"}
            << QStringList{"4105 gpu-node02 node_infiniband_symbol_error_total 19"};
        QTest::newRow("one-node job") << QStringList{"4101 RUNNING gpu-node03 10"} << QStringList{};
        QTest::newRow("pending job") << QStringList{"4102 PENDING gpu-node03,gpu-node04 10"} << QStringList{};
        QTest::newRow("a node of no series") << QStringList{"4106 RUNNING gpu-node09,gpu-node01 10"} << QStringList{};
    }
    void find()
    {
        QFETCH(QStringList, jobs);
        QFETCH(QStringList, expected);
        QVector<LinkCounterSeries> series = answer(QStringLiteral("nvlink_crc_flit.json"), QStringLiteral("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL"));
        series += answer(QStringLiteral("infiniband_symbol_error.json"), QStringLiteral("node_infiniband_symbol_error_total"));
        series += answer(QStringLiteral("nvlink_recovery_absent.json"), QStringLiteral("DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL"));
        QCOMPARE(series.size(), 16);
        QStringList names = kNodes;
        names << QStringLiteral("gpu-node09");
        QHash<QString, int> byName;
        for (int i = 0; i < names.size(); ++i)
            byName.insert(names.at(i), i);
        const HostNameResolver resolver(names, {});
        QVector<int> seriesNode;
        for (const LinkCounterSeries &s : std::as_const(series))
            seriesNode << resolver.resolve(s.hosts);
        QVector<Job> jobList;
        for (const QString &j : jobs)
            jobList << job(j);
        const QVector<Finding> found = JobLinkErrors::find(jobList, series, seriesNode, byName, kNow);
        QStringList actual;
        for (const Finding &f : found) {
            QCOMPARE(f.code, JobLinkErrors::findingCode());
            QCOMPARE(f.severity, Finding::Severity::Warning);
            QCOMPARE(f.jobs, QStringList{f.job});
            const qsizetype open = f.message.indexOf(QLatin1Char('('), f.message.indexOf(QStringLiteral("rose by")));
            const QString counter = f.message.mid(open + 1).section(QLatin1Char(';'), 0, 0).section(QLatin1Char(')'), 0, 0);
            const QString by = f.message.section(QStringLiteral("rose by "), 1).section(QLatin1Char(' '), 0, 0);
            actual << QStringLiteral("%1 %2 %3 %4").arg(f.job, f.node, counter, by);
        }
        QCOMPARE(actual, expected);
    }

    void messageNamesWhere()
    {
        const QVector<LinkCounterSeries> series = answer(QStringLiteral("nvlink_crc_flit.json"), QStringLiteral("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL"));
        const HostNameResolver resolver(kNodes, {});
        QVector<int> seriesNode;
        for (const LinkCounterSeries &s : series)
            seriesNode << resolver.resolve(s.hosts);
        QHash<QString, int> byName;
        for (int i = 0; i < kNodes.size(); ++i)
            byName.insert(kNodes.at(i), i);
        const QVector<Finding> found = JobLinkErrors::find({job("4100 RUNNING gpu-node03,gpu-node04 10")}, series, seriesNode, byName, kNow);
        QCOMPARE(found.size(), 2);
        QCOMPARE(found.first().node, QStringLiteral("gpu-node03"));
        QVERIFY2(found.first().message.startsWith(QStringLiteral(
                     "job 4100 (pretrain): NVLink CRC flit errors on gpu-node03 rose by 51 "
                     "(DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL; GPU 5 +51) since the job started")),
                 qPrintable(found.first().message));
    }

    // The refresh asks for the counters only while a job runs over several nodes, from the
    // oldest such job's start.
    void requestAsksOnlyForMultiNodeJobs()
    {
        const MetricsSource::Request single = MetricsSource::Request::forJobs({job("1 RUNNING gpu-node01 5")});
        QCOMPARE(single.oldestRunningJobStart, kStart + 5 * 60);
        QCOMPARE(single.oldestMultiNodeJobStart, qint64(0));
        const MetricsSource::Request mixed = MetricsSource::Request::forJobs(
            {job("1 RUNNING gpu-node01 5"), job("2 RUNNING gpu-node02,gpu-node03 12"), job("3 RUNNING gpu-node03,gpu-node04 9"),
             job("4 PENDING gpu-node01,gpu-node02 1")});
        QCOMPARE(mixed.oldestRunningJobStart, kStart + 5 * 60);
        QCOMPARE(mixed.oldestMultiNodeJobStart, kStart + 9 * 60);
    }

    void countersAreTheExportersNames()
    {
        QStringList names;
        for (const JobLinkErrors::Counter &c : JobLinkErrors::counters())
            names << c.name;
        for (const char *expected : {"DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL",
                                     "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL",
                                     "node_infiniband_link_downed_total", "node_infiniband_link_error_recovery_total",
                                     "node_infiniband_symbol_error_total"})
            QVERIFY2(names.contains(QString::fromLatin1(expected)), expected);
    }
};

QTEST_GUILESS_MAIN(TestJobLinkErrors)
#include "tst_job_link_errors.moc"
