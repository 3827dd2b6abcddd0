// The DCGM stand-in's reading of `scontrol show job -d -o`, on real captured Slurm 22.05 output.
#include "slurm_job_gpu_parser.h"

#include <QFile>
#include <QTest>

using namespace strata::lab;

class TestSlurmJobGpuParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runningJobs_data();
    void runningJobs();
    void hostlist_data();
    void hostlist();
    void indexList_data();
    void indexList();
    void requestedUtil_data();
    void requestedUtil();
};

namespace {
QByteArray readData(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file.fileName()));
    return file.readAll();
}

QStringList describe(const std::vector<JobGpuAllocation> &allocations)
{
    QStringList out;
    for (const JobGpuAllocation &a : allocations) {
        QStringList indices;
        for (int i : a.gpuIndices)
            indices << QString::number(i);
        out << QStringLiteral("%1 %2 %3").arg(a.jobId, a.node, indices.join(u','));
    }
    out.sort();
    return out;
}
} // namespace

void TestSlurmJobGpuParser::runningJobs_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("expected");
    // Main capture: pending, held, finished and CPU-only jobs hold nothing; array tasks 7_0/7_1
    // are jobs 14/15; job 6 spans two nodes with different indices.
    QTest::newRow("mixed cluster") << "scontrol_show_job_d_o.txt"
                                   << QStringList{"14 gpu-node02 1,2,3", "15 gpu-node02 4,5,6",
                                                  "5 gpu-node01 0,1,2,3,4,5", "6 gpu-node01 6",
                                                  "6 gpu-node02 0"};
    // Names with newline/\x1f/\x1e, and a 2-node job whose details scontrol groups.
    QTest::newRow("adversarial names, grouped nodes")
        << "adversarial/scontrol_show_job_d_o.txt"
        << QStringList{"5 gpu-node03 0,1", "5 gpu-node04 0,1"};
    QTest::newRow("no jobs") << "empty_scontrol_show_job_d_o.txt" << QStringList{};
    // Job 3's name forges a record of job 1 on gpu-node04, followed on that line by job 3's
    // real gpu-node02 IDX 0: job 1 is printed twice and job 3's fields follow a forged id, so
    // neither is labelled (a free GPU, never another job's).
    for (const char *version : {"22.05", "24.11"})
        QTest::addRow("forged record, %s", version)
            << QStringLiteral("forged-record/scontrol_show_job_d_o-%1.txt").arg(QLatin1String(version))
            << QStringList{"2 gpu-node01 2,3,4"};
}

void TestSlurmJobGpuParser::runningJobs()
{
    QFETCH(QString, file);
    QFETCH(QStringList, expected);
    QCOMPARE(describe(parseRunningJobGpus(readData(file))), expected);
}

void TestSlurmJobGpuParser::hostlist_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QStringList>("hosts");
    QTest::newRow("single") << "gpu-node01" << QStringList{"gpu-node01"};
    QTest::newRow("range") << "gpu-node[01-03]" << QStringList{"gpu-node01", "gpu-node02", "gpu-node03"};
    QTest::newRow("range and list") << "gpu-node[01,03-04]"
                                    << QStringList{"gpu-node01", "gpu-node03", "gpu-node04"};
    QTest::newRow("two prefixes") << "a[8-10],login1" << QStringList{"a8", "a9", "a10", "login1"};
    QTest::newRow("reversed range kept") << "n[3-1]" << QStringList{"n[3-1]"};
}

void TestSlurmJobGpuParser::hostlist()
{
    QFETCH(QString, expression);
    QFETCH(QStringList, hosts);
    QCOMPARE(expandSlurmHostlist(expression), hosts);
}

void TestSlurmJobGpuParser::indexList_data()
{
    QTest::addColumn<QString>("list");
    QTest::addColumn<QList<int>>("indices");
    QTest::newRow("range") << "0-3" << QList<int>{0, 1, 2, 3};
    QTest::newRow("mixed") << "0,2-3,7" << QList<int>{0, 2, 3, 7};
    QTest::newRow("N/A") << "N/A" << QList<int>{};
    QTest::newRow("empty") << "" << QList<int>{};
}

void TestSlurmJobGpuParser::indexList()
{
    QFETCH(QString, list);
    QFETCH(QList<int>, indices);
    QCOMPARE(expandIndexList(list), indices);
}

void TestSlurmJobGpuParser::requestedUtil_data()
{
    QTest::addColumn<QString>("fields");
    QTest::addColumn<int>("percent");
    QTest::newRow("asked") << " UserId=root(0) GroupId=root(0) Comment=strata-lab-gpu-util=30 Reboot=0" << 30;
    QTest::newRow("last field") << " UserId=root(0) Comment=strata-lab-gpu-util=0" << 0;
    QTest::newRow("over 100") << " UserId=root(0) Comment=strata-lab-gpu-util=101 Reboot=0" << -1;
    QTest::newRow("more after the number") << " Comment=strata-lab-gpu-util=30x Reboot=0" << -1;
    QTest::newRow("another comment") << " Comment=ask-for-30 Reboot=0" << -1;
    QTest::newRow("none") << " UserId=root(0) GroupId=root(0) Reboot=0" << -1;
}

void TestSlurmJobGpuParser::requestedUtil()
{
    QFETCH(QString, fields);
    QFETCH(int, percent);
    QCOMPARE(requestedGpuUtil(fields), percent);
}

QTEST_GUILESS_MAIN(TestSlurmJobGpuParser)
#include "tst_slurm_job_gpu_parser.moc"
