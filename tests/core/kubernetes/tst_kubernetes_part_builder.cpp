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

using MigCounts = QMap<QString, int>;
Q_DECLARE_METATYPE(MigCounts)

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
    void sharedGpus_data();
    void sharedGpus();
    void sharedOnlyGpus_data();
    void sharedOnlyGpus();
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

void TestKubernetesPartBuilder::sharedGpus_data()
{
    // Pods requesting shares (nvidia.com/gpu on a time-sliced node, nvidia.com/gpu.shared when
    // renamed) and MIG devices (nvidia.com/mig-*, or nvidia.com/gpu under MIG single) are counted
    // against those, never as whole GPUs; gpusAllocated is the physical GPUs known to hold one.
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("gpuCount");
    QTest::addColumn<int>("gpusAllocated");
    QTest::addColumn<int>("sharesAllocated");
    QTest::addColumn<MigCounts>("migAllocated");
    QTest::addColumn<QString>("summary");
    QTest::newRow("T4: 3 of 4 shares, its 1 GPU busy") << "ip-192-0-2-31.example.internal" << 1 << 1 << 3 << MigCounts{}
        << "time-slicing x4: 3/4 shares";
    QTest::newRow("A10G: nothing bound") << "ip-192-0-2-32.example.internal" << 1 << 0 << 0 << MigCounts{}
        << "time-slicing x2: 0/2 shares";
    QTest::newRow("H100 renamed: 2 of 32 shares, at least 1 GPU") << "ip-192-0-2-33.example.internal" << 8 << 1 << 2
        << MigCounts{} << "time-slicing x4: 2/32 shares";
    QTest::newRow("L4 MPS: 1 share") << "ip-192-0-2-34.example.internal" << 1 << 1 << 1 << MigCounts{} << "MPS x4: 1/4 shares";
    QTest::newRow("A100 MIG mixed: 5 of 56 1g.5gb") << "ip-192-0-2-35.example.internal" << 8 << 1 << 0
        << MigCounts{{"1g.5gb", 5}} << "MIG 1g.5gb 5/56";
    QTest::newRow("A100 PCIe: the 3g.40gb") << "gpu-lab-07" << 1 << 1 << 0 << MigCounts{{"3g.40gb", 1}}
        << "MIG 1g.10gb 0/1, 2g.20gb 0/1, 3g.40gb 1/1";
    QTest::newRow("H100 MIG single: 2 devices") << "ip-192-0-2-38.example.internal" << 8 << 1 << 0 << MigCounts{{"1g.10gb", 2}}
        << "MIG 1g.10gb 2/56";
    QTest::newRow("GKE T4: 1 of 2 shares") << "gke-lab-t4-shared-6f1c2a90-x7k2" << 1 << 1 << 1 << MigCounts{}
        << "time-slicing x2: 1/2 shares";
    QTest::newRow("GKE A100: 1 running, 1 finished") << "gke-lab-a100-mig-3b0e71c2-q4vd" << 1 << 1 << 0
        << MigCounts{{"1g.5gb", 1}} << "MIG 1g.5gb 1/7";
    QTest::newRow("GKE H100 whole: free") << "gke-lab-h100-8e5d0c41-m2pz" << 8 << 0 << 0 << MigCounts{} << "";
}

void TestKubernetesPartBuilder::sharedGpus()
{
    QFETCH(QString, name);
    const OrchestratorPart part = KubernetesPartBuilder::build(
        KubeNodeParser::parse(kubeTestData(QStringLiteral("reference_gpu_sharing_nodes.json")), GpuCatalog::builtIn()).nodes,
        KubePodParser::parse(kubeTestData(QStringLiteral("reference_gpu_sharing_pods.json"))).pods, {}, kReferenceNow);
    const Node *node = findNode(part, name);
    QVERIFY(node);
    QTEST(node->gpuCount, "gpuCount");
    QCOMPARE(node->gpus.size(), node->gpuCount);
    QTEST(node->gpusAllocated, "gpusAllocated");
    QTEST(node->gpuSharing.sharesAllocated, "sharesAllocated");
    QTEST(node->gpuSharing.migDevicesAllocated, "migAllocated");
    QTEST(node->gpuSharing.summary(), "summary");
    QVERIFY(node->gpuIndicesAllocated.isEmpty());
    // Bare pods with GPU devices of any kind are jobs; each asked for what it holds.
    const Job *notebook = findJob(part, QStringLiteral("research/sweep-small-0"));
    QVERIFY(notebook);
    QCOMPARE(notebook->gpusRequested, 3);
    // Node pools count physical GPUs.
    for (const Partition &pool : part.partitions)
        if (pool.name == QLatin1String("a100-mig"))
            QCOMPARE(pool.totalGpus, 8 + 1); // EKS p4d pool + the GKE a100-mig pool
}

void TestKubernetesPartBuilder::sharedOnlyGpus_data()
{
    // Pods asking for nvidia.com/gpu.shared on nodes that offer nothing else
    // (reference_gpu_shared_only_*.json) hold shares of the node's physical GPUs.
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("gpuCount");
    QTest::addColumn<int>("gpusAllocated");
    QTest::addColumn<int>("sharesAllocated");
    QTest::addColumn<QString>("summary");
    QTest::newRow("p5 without GFD: 21 of 128 shares, at least 2 GPUs") << "ip-192-0-2-40.example.internal" << 8 << 2 << 21
        << "time-slicing x16: 21/128 shares";
    QTest::newRow("p5 with GFD: 4 shares, at least 1 GPU") << "ip-192-0-2-41.example.internal" << 8 << 1 << 4
        << "time-slicing x16: 4/128 shares";
    QTest::newRow("refused: no GPUs, no shares") << "ip-192-0-2-42.example.internal" << 0 << 0 << 0 << "";
}

void TestKubernetesPartBuilder::sharedOnlyGpus()
{
    QFETCH(QString, name);
    const OrchestratorPart part = KubernetesPartBuilder::build(
        KubeNodeParser::parse(kubeTestData(QStringLiteral("reference_gpu_shared_only_nodes.json")), GpuCatalog::builtIn()).nodes,
        KubePodParser::parse(kubeTestData(QStringLiteral("reference_gpu_shared_only_pods.json"))).pods, {}, kReferenceNow);
    const Node *node = findNode(part, name);
    QVERIFY(node);
    QTEST(node->gpuCount, "gpuCount");
    QCOMPARE(node->gpus.size(), node->gpuCount);
    for (const Gpu &gpu : node->gpus)
        QCOMPARE(gpu.model, QStringLiteral("H100"));
    QTEST(node->gpusAllocated, "gpusAllocated");
    QTEST(node->gpuSharing.sharesAllocated, "sharesAllocated");
    QTEST(node->gpuSharing.summary(), "summary");
}

QTEST_GUILESS_MAIN(TestKubernetesPartBuilder)
#include "tst_kubernetes_part_builder.moc"
