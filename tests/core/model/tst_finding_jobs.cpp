// FindingJobs: every finding about a GPU names the job holding it, every finding about a node
// all jobs placed there, through ClusterSnapshot::finalize and into the CLI's JSON.
#include "model/cluster_snapshot.h"
#include "model/finding_jobs.h"
#include "model/snapshot_json.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace strata;

namespace {

Job job(const QString &id, const QString &state, const QStringList &nodes, const QMap<QString, QVector<int>> &gpus = {})
{
    Job j;
    j.id = id;
    j.setState(state);
    j.nodes = nodes;
    j.gpus = gpus;
    return j;
}

// gpu-node01: GPUs 0-3 held by 101, 4-7 by 102; a CPU-only step of 103 runs there too.
// gpu-node02: GPU 0 in MIG mode with two jobs' instances, the rest free. 104 is pending and
// 105 completed, both naming gpu-node01 (a pending job's planned node, a finished job's).
ClusterSnapshot snapshot()
{
    ClusterSnapshot s;
    for (const QString &name : {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")}) {
        Node n;
        n.name = name;
        n.gpuCount = 8;
        for (int g = 0; g < 8; ++g) {
            Gpu gpu;
            gpu.index = g;
            n.gpus << gpu;
        }
        s.nodes << n;
    }
    for (int g = 0; g < 8; ++g)
        s.nodes[0].gpus[g].jobId = g < 4 ? QStringLiteral("101") : QStringLiteral("102");
    MigInstance a, b;
    a.id = 1, a.jobId = QStringLiteral("201");
    b.id = 2, b.jobId = QStringLiteral("202");
    s.nodes[1].gpus[0].migInstances = {a, b};
    s.jobs << job(QStringLiteral("101"), QStringLiteral("RUNNING"), {QStringLiteral("gpu-node01")},
                  {{QStringLiteral("gpu-node01"), {0, 1, 2, 3}}})
           << job(QStringLiteral("102"), QStringLiteral("RUNNING"), {QStringLiteral("gpu-node01")},
                  {{QStringLiteral("gpu-node01"), {4, 5, 6, 7}}})
           << job(QStringLiteral("103"), QStringLiteral("RUNNING"), {QStringLiteral("gpu-node01")})
           << job(QStringLiteral("104"), QStringLiteral("PENDING"), {QStringLiteral("gpu-node01")})
           << job(QStringLiteral("105"), QStringLiteral("COMPLETED"), {QStringLiteral("gpu-node01")})
           << job(QStringLiteral("201"), QStringLiteral("RUNNING"), {QStringLiteral("gpu-node02")})
           << job(QStringLiteral("202"), QStringLiteral("RUNNING"), {QStringLiteral("gpu-node02")});
    return s;
}

} // namespace

class TestFindingJobs : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesTheJobsAffected_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<int>("gpu");
        QTest::addColumn<QString>("alreadyNamed");
        QTest::addColumn<QStringList>("jobs");
        QTest::addColumn<QString>("job");
        QTest::newRow("XID on a held GPU") << "gpu-node01" << 5 << "" << QStringList{"102"} << "102";
        QTest::newRow("node-wide: every job placed there")
            << "gpu-node01" << -1 << "" << QStringList{"101", "102", "103"} << "101";
        QTest::newRow("MIG GPU: each instance's job") << "gpu-node02" << 0 << "" << QStringList{"201", "202"} << "201";
        QTest::newRow("a free GPU names none") << "gpu-node02" << 3 << "" << QStringList{} << "";
        QTest::newRow("an alert's hpc_job is kept") << "gpu-node01" << 5 << "999" << QStringList{} << "999";
        QTest::newRow("unknown node") << "elsewhere" << -1 << "" << QStringList{} << "";
        QTest::newRow("cluster-wide") << "" << -1 << "" << QStringList{} << "";
    }
    void namesTheJobsAffected()
    {
        QFETCH(QString, node);
        QFETCH(int, gpu);
        QFETCH(QString, alreadyNamed);
        QFETCH(QStringList, jobs);
        QFETCH(QString, job);
        ClusterSnapshot s = snapshot();
        Finding f = Finding::make(Finding::Severity::Critical, node, gpu, QStringLiteral("xid-79"), QStringLiteral("fell off the bus"));
        f.job = alreadyNamed;
        s.findings << f;
        s.finalize(); // runs FindingJobs once the snapshot is whole
        const Finding &named = s.findings.last();
        QCOMPARE(named.jobs, jobs);
        QCOMPARE(named.job, job);

        // And again (MetricsJoin runs it after adding its own): nothing changes.
        FindingJobs::attach(s.findings, s.nodes, s.jobs, s.nodeIndexByName);
        QCOMPARE(s.findings.last().jobs, jobs);

        const QJsonObject json = SnapshotJson::findingToJson(named);
        QCOMPARE(json.value(QLatin1String("job")).toString(), job);
        QCOMPARE(json.value(QLatin1String("job")).isNull(), job.isEmpty());
        QStringList inJson;
        for (const QJsonValue &v : json.value(QLatin1String("jobs")).toArray())
            inJson << v.toString();
        QCOMPARE(inJson, job.isEmpty() ? QStringList{} : jobs.isEmpty() ? QStringList{job} : jobs);
    }
};

QTEST_GUILESS_MAIN(TestFindingJobs)
#include "tst_finding_jobs.moc"
