// KubernetesPartBuilder joining parsed nodes, pods and Jobs: GPU allocation per node, job
// states and placements, bare GPU pods, node pools. On the stand-in capture (where GPU
// indices are known) and on the reference objects (where, as on real clusters, they are not).
#include "kube_test_data.h"
#include "kubernetes/kube_job_parser.h"
#include "kubernetes/kube_node_parser.h"
#include "kubernetes/kube_pod_parser.h"
#include "kubernetes/kubernetes_part_builder.h"
#include "model/gpu_catalog.h"

#include <QTest>

using namespace strata;

namespace {

OrchestratorPart buildFrom(const QString &prefix, qint64 now)
{
    return KubernetesPartBuilder::build(
        KubeNodeParser::parse(kubeTestData(prefix + QStringLiteral("_nodes.json")), GpuCatalog::builtIn()).nodes,
        KubePodParser::parse(kubeTestData(prefix + QStringLiteral("_pods.json"))).pods,
        KubeJobParser::parse(kubeTestData(prefix + QStringLiteral("_jobs.json"))).jobs, now);
}

const Node *findNode(const OrchestratorPart &part, const QString &name)
{
    for (const Node &n : part.nodes)
        if (n.name == name)
            return &n;
    return nullptr;
}

const Job *findJob(const OrchestratorPart &part, const QString &id)
{
    for (const Job &j : part.jobs)
        if (j.id == id)
            return &j;
    return nullptr;
}

// 2026-11-30T09:00:00Z, an hour after the reference objects' creation.
constexpr qint64 kReferenceNow = 1796029200;

} // namespace

class TestKubernetesPartBuilder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void standinNodes_data();
    void standinNodes();
    void standinJobs_data();
    void standinJobs();
    void referenceNodes();
    void referenceJobs_data();
    void referenceJobs();
    void nodePools();
};

void TestKubernetesPartBuilder::standinNodes_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("gpusAllocated");
    QTest::addColumn<QVector<int>>("indices");
    QTest::addColumn<QStringList>("gpuHolders"); // Gpu::jobId by index, "" free
    QTest::addColumn<int>("cpusAllocated");
    const QString trainer0 = QStringLiteral("ml-research/train-llm-0-qw42x");
    QTest::newRow("all 8 to rank 0") << "kube-gpu-01" << 8 << QVector<int>{0, 1, 2, 3, 4, 5, 6, 7}
                                     << QStringList(8, trainer0) << 96;
    QTest::newRow("4 of 8") << "kube-gpu-03" << 4 << QVector<int>{0, 1, 2, 3}
                            << QStringList{"default/serve-eval-df5ll", "default/serve-eval-df5ll", "default/serve-eval-df5ll",
                                           "default/serve-eval-df5ll", "", "", "", ""}
                            << 16;
    // done-ok's pod finished (Completed): it no longer holds GPU 1.
    QTest::newRow("cordoned, one bare pod") << "kube-gpu-04" << 1 << QVector<int>{0}
                                            << QStringList{"default/debug-shell", "", "", "", "", "", "", ""} << 0;
}

void TestKubernetesPartBuilder::standinNodes()
{
    const OrchestratorPart part = buildFrom(QStringLiteral("standin"), 1796230000);
    QFETCH(QString, name);
    const Node *n = findNode(part, name);
    QVERIFY(n);
    QTEST(n->gpusAllocated, "gpusAllocated");
    QTEST(n->gpuIndicesAllocated, "indices");
    QFETCH(QStringList, gpuHolders);
    QCOMPARE(n->gpus.size(), gpuHolders.size());
    for (int i = 0; i < n->gpus.size(); ++i) {
        QCOMPARE(n->gpus[i].index, i);
        QCOMPARE(n->gpus[i].jobId, gpuHolders[i]);
        QCOMPARE(n->gpus[i].model, n->gpuModel);
    }
    QTEST(n->cpusAllocated, "cpusAllocated");
}

void TestKubernetesPartBuilder::standinJobs_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QString>("reasonPart");
    QTest::addColumn<QStringList>("nodes");
    QTest::addColumn<int>("gpusRequested");
    QTest::addColumn<int>("gpusHeld");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("partition");
    QTest::newRow("two-node training") << "ml-research/train-llm" << "RUNNING" << "" << QStringList{"kube-gpu-01", "kube-gpu-02"}
                                       << 16 << 16 << "alice" << "ml-research";
    QTest::newRow("half a node") << "default/serve-eval" << "RUNNING" << "" << QStringList{"kube-gpu-03"} << 4 << 4
                                 << "default" << "default";
    QTest::newRow("does not fit") << "default/too-big" << "PENDING" << "3 Insufficient nvidia.com/gpu" << QStringList{}
                                  << 16 << 0 << "default" << "default";
    QTest::newRow("completed") << "default/done-ok" << "SUCCEEDED" << "" << QStringList{"kube-gpu-04"} << 1 << 0
                               << "default" << "default";
    QTest::newRow("backoff") << "default/fails" << "FAILED" << "BackoffLimitExceeded: Job has reached the specified backoff limit"
                             << QStringList{"kube-gpu-04"} << 0 << 0 << "default" << "default";
    QTest::newRow("bare pod") << "default/debug-shell" << "RUNNING" << "" << QStringList{"kube-gpu-04"} << 1 << 1
                              << "default" << "default";
}

void TestKubernetesPartBuilder::standinJobs()
{
    const OrchestratorPart part = buildFrom(QStringLiteral("standin"), 1796230000);
    QCOMPARE(part.jobs.size(), 6);
    QFETCH(QString, id);
    const Job *j = findJob(part, id);
    QVERIFY2(j, qPrintable(id));
    QTEST(j->state, "state");
    QFETCH(QString, reasonPart);
    QVERIFY2(j->reason.contains(reasonPart), qPrintable(j->reason));
    QTEST(j->nodes, "nodes");
    QTEST(j->gpusRequested, "gpusRequested");
    QTEST(j->gpuCountHeld(), "gpusHeld");
    QTEST(j->user, "user");
    QTEST(j->partition, "partition");
    QCOMPARE(j->name, id.section(u'/', 1));
    QVERIFY(j->submitTime > 0);
    QCOMPARE(j->timeLimitSeconds, qint64(0));
    if (j->isRunning())
        for (const QString &node : j->nodes)
            QCOMPARE(j->gpus.value(node).size(), j->gpusRequested / j->nodes.size());
}

void TestKubernetesPartBuilder::referenceNodes()
{
    const OrchestratorPart part = buildFrom(QStringLiteral("reference"), kReferenceNow);
    // llama-ft 4 + crashy 1 (restarting, still bound) + stopping 2 (terminating holds until gone);
    // the DCGM exporter asks for no GPU.
    const Node *a = findNode(part, QStringLiteral("ip-192-0-2-10.example.internal"));
    QCOMPARE(a->gpusAllocated, 7);
    QVERIFY(a->gpuIndicesAllocated.isEmpty()); // real clusters do not say which
    for (const Gpu &g : a->gpus)
        QVERIFY(g.jobId.isEmpty());
    QCOMPARE(a->gpus.size(), 8);
    QCOMPARE(a->cpusAllocated, 49); // 48 + 0.1 rounded up
    // pull-fails (Pending but bound: its GPUs are taken) 2 + notebook 2; the OOM-killed pod left.
    QCOMPARE(findNode(part, QStringLiteral("ip-192-0-2-13.example.internal"))->gpusAllocated, 4);
    QCOMPARE(findNode(part, QStringLiteral("ip-192-0-2-11.example.internal"))->gpusAllocated, 0); // evicted
    QCOMPARE(findNode(part, QStringLiteral("ip-192-0-2-14.example.internal"))->gpus.size(), 0);
}

void TestKubernetesPartBuilder::referenceJobs_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QString>("reasonPart");
    QTest::addColumn<int>("gpusRequested");
    QTest::addColumn<qint64>("timeUsed");
    QTest::addColumn<qint64>("timeLimit");
    QTest::addColumn<QString>("user");
    QTest::newRow("running, no indices") << "research/llama-ft" << "RUNNING" << "" << 4 << qint64(3600) << qint64(0) << "bob";
    QTest::newRow("deadline") << "research/deadline" << "FAILED"
                              << "DeadlineExceeded: Job was active longer than specified deadline" << 1 << qint64(600)
                              << qint64(600) << "research";
    QTest::newRow("suspended") << "research/paused" << "SUSPENDED" << "" << 1 << qint64(-1) << qint64(0) << "research";
    QTest::newRow("work queue, no pods yet") << "research/queue-workers" << "PENDING" << "no pods yet" << 6 << qint64(-1)
                                             << qint64(0) << "research";
    QTest::newRow("sweep done") << "research/sweep" << "SUCCEEDED" << "" << 2 << qint64(2530) << qint64(0) << "research";
    QTest::newRow("deleting") << "research/stopping" << "TERMINATING" << "" << 2 << qint64(3600) << qint64(0) << "research";
    QTest::newRow("unschedulable") << "research/waiting-gpus" << "PENDING" << "0/7 nodes are available: 1 node(s) had "
                                   << 8 << qint64(3600) << qint64(0) << "research";
    QTest::newRow("bare notebook") << "default/notebook-0" << "RUNNING" << "" << 2 << qint64(3600) << qint64(0) << "default";
}

void TestKubernetesPartBuilder::referenceJobs()
{
    const OrchestratorPart part = buildFrom(QStringLiteral("reference"), kReferenceNow);
    QFETCH(QString, id);
    const Job *j = findJob(part, id);
    QVERIFY2(j, qPrintable(id));
    QTEST(j->state, "state");
    QFETCH(QString, reasonPart);
    QVERIFY2(j->reason.contains(reasonPart), qPrintable(j->reason));
    QTEST(j->gpusRequested, "gpusRequested");
    QTEST(j->timeUsedSeconds, "timeUsed");
    QTEST(j->timeLimitSeconds, "timeLimit");
    QTEST(j->user, "user");
    QCOMPARE(j->gpuCountHeld(), 0); // indices unknown: never made up
    // Pods of Jobs that are not listed (crashy, oom, ...) and the DaemonSet pod make no jobs.
    QVERIFY(!findJob(part, QStringLiteral("research/crashy")));
    QVERIFY(!findJob(part, QStringLiteral("gpu-operator/nvidia-dcgm-exporter-t7wq9")));
}

void TestKubernetesPartBuilder::nodePools()
{
    const OrchestratorPart part = buildFrom(QStringLiteral("standin"), 1796230000);
    QCOMPARE(part.partitions.size(), 2);
    QCOMPARE(part.partitions[0].name, QStringLiteral("p5-train"));
    QCOMPARE(part.partitions[0].nodes, (QStringList{"kube-gpu-01", "kube-gpu-02"}));
    QCOMPARE(part.partitions[0].totalGpus, 16);
    QCOMPARE(part.partitions[0].totalCpus, 384);
    QCOMPARE(part.partitions[1].name, QStringLiteral("p5en-serve"));
    QCOMPARE(part.partitions[1].state, QStringLiteral("UP"));
    const OrchestratorPart reference = buildFrom(QStringLiteral("reference"), kReferenceNow);
    QStringList names;
    for (const Partition &p : reference.partitions) {
        names << p.name;
        if (p.name == QStringLiteral("gpu-b"))
            QCOMPARE(p.state, QStringLiteral("DOWN")); // its only node is not ready
    }
    QCOMPARE(names, (QStringList{"gpu-a", "gpu-b", "gpu-b200", "system", "worker-group-1"}));
}

QTEST_GUILESS_MAIN(TestKubernetesPartBuilder)
#include "tst_kubernetes_part_builder.moc"
