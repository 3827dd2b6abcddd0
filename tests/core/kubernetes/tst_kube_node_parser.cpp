// KubeNodeParser on kubectl's `get nodes -o json` from the lab stand-in and on nodes written
// from the API reference (NotReady, Unknown, pressure, Karpenter, HyperPod, CPU-only).
#include "kube_test_data.h"
#include "kubernetes/kube_node_parser.h"
#include "model/gpu_catalog.h"

#include <QTest>

using MigCounts = QMap<QString, int>;
Q_DECLARE_METATYPE(MigCounts)

using namespace strata;

class TestKubeNodeParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void node_data();
    void node();
    void wholeListsInNameOrder();
    void gpuSharing_data();
    void gpuSharing();
    void sharedOnly_data();
    void sharedOnly();
    void unusableDocuments_data();
    void unusableDocuments();
};

void TestKubeNodeParser::node_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("instanceType");
    QTest::addColumn<QString>("gpuModel");
    QTest::addColumn<int>("gpuCount");
    QTest::addColumn<QString>("partition");
    QTest::addColumn<int>("cpus");
    QTest::addColumn<QStringList>("someFeatures");

    const QString standin = QStringLiteral("standin_nodes.json");
    const QString reference = QStringLiteral("reference_nodes.json");
    QTest::newRow("stand-in H100 ready") << standin << "kube-gpu-01" << "ready" << QStringList{"READY"} << ""
        << "p5.48xlarge" << "H100" << 8 << "p5-train" << 192
        << QStringList{"sagemaker.amazonaws.com/node-health-status=Schedulable", "taint:nvidia.com/gpu:NoSchedule",
                       "nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3", "eks.amazonaws.com/capacityType=ON_DEMAND"};
    QTest::newRow("stand-in H200 ready") << standin << "kube-gpu-03" << "ready" << QStringList{"READY"} << ""
        << "p5en.48xlarge" << "H200" << 8 << "p5en-serve" << 192 << QStringList{"topology.kubernetes.io/zone=lab-zone-a"};
    QTest::newRow("stand-in cordoned, HyperPod says reboot")
        << standin << "kube-gpu-04" << "cordoned" << QStringList{"READY", "CORDONED", "DRAIN", "UNHEALTHY"}
        << "Action:Reboot xid=79 GPU 3 fell off the bus" << "p5en.48xlarge" << "H200" << 8 << "p5en-serve" << 192
        << QStringList{"sagemaker.amazonaws.com/node-health-status=UnschedulablePendingReboot",
                       "taint:node.kubernetes.io/unschedulable:NoSchedule"};
    QTest::newRow("EKS ready, taint with value") << reference << "ip-192-0-2-10.example.internal" << "ready"
        << QStringList{"READY"} << "" << "p5.48xlarge" << "H100" << 8 << "gpu-a" << 192
        << QStringList{"taint:nvidia.com/gpu=true:NoSchedule", "topology.kubernetes.io/zone=us-example-1a"};
    QTest::newRow("not ready: CNI") << reference << "ip-192-0-2-11.example.internal" << "notready" << QStringList{"NOTREADY"}
        << "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin "
           "returns error: cni plugin not initialized"
        << "p5.48xlarge" << "H100" << 8 << "gpu-a" << 192 << QStringList{"taint:node.kubernetes.io/not-ready:NoExecute"};
    QTest::newRow("unknown and cordoned") << reference << "ip-192-0-2-12.example.internal" << "notready"
        << QStringList{"UNKNOWN", "CORDONED", "DRAIN"} << "Kubelet stopped posting node status." << "p5en.48xlarge"
        << "H200" << 8 << "gpu-b" << 192 << QStringList{};
    QTest::newRow("memory pressure, Karpenter B200") << reference << "ip-192-0-2-13.example.internal" << "ready"
        << QStringList{"READY", "MEMORY_PRESSURE"} << "MemoryPressure: kubelet has insufficient memory available"
        << "p6-b200.48xlarge" << "B200" << 8 << "gpu-b200" << 192 << QStringList{"karpenter.sh/capacity-type=on-demand"};
    QTest::newRow("CPU-only system node") << reference << "ip-192-0-2-14.example.internal" << "ready" << QStringList{"READY"}
        << "" << "m7i.4xlarge" << "" << 0 << "system" << 16 << QStringList{"role=system"};
    QTest::newRow("HyperPod pending replacement") << reference << "hyperpod-i-0abc0000000000001" << "cordoned"
        << QStringList{"READY", "CORDONED", "DRAIN", "UNHEALTHY"} << "node-health-status: UnschedulablePendingReplacement"
        << "ml.p5.48xlarge" << "H100" << 8 << "worker-group-1" << 192
        << QStringList{"taint:sagemaker.amazonaws.com/node-health-status=UnschedulablePendingReplacement:NoSchedule"};
    QTest::newRow("drained by Strata") << reference << "ip-192-0-2-15.example.internal" << "cordoned"
        << QStringList{"READY", "CORDONED", "DRAIN"} << "burn-in: gemm 41% below peers on GPU 5" << "p5.48xlarge"
        << "H100" << 8 << "gpu-a" << 192 << QStringList{};
}

void TestKubeNodeParser::node()
{
    QFETCH(QString, file);
    QFETCH(QString, name);
    const KubeNodeParseResult result = KubeNodeParser::parse(kubeTestData(file), GpuCatalog::builtIn());
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    const auto it = std::find_if(result.nodes.cbegin(), result.nodes.cend(), [&](const Node &n) { return n.name == name; });
    QVERIFY2(it != result.nodes.cend(), qPrintable(name));
    const Node &n = *it;
    QTEST(n.state, "state");
    QTEST(n.stateFlags, "flags");
    QTEST(n.reason, "reason");
    QTEST(n.instanceType, "instanceType");
    QTEST(n.gpuModel, "gpuModel");
    QTEST(n.gpuCount, "gpuCount");
    QFETCH(QString, partition);
    QCOMPARE(n.partitions, QStringList{partition});
    QTEST(n.cpus, "cpus");
    QFETCH(QStringList, someFeatures);
    for (const QString &feature : someFeatures)
        QVERIFY2(n.features.contains(feature), qPrintable(feature + QStringLiteral(" not in ") + n.features.join(u' ')));
    QCOMPARE(n.isDrained(), n.stateFlags.contains(QStringLiteral("CORDONED")));
    QCOMPARE(n.isDown(), n.state == QStringLiteral("notready"));
    QVERIFY(n.memoryMiB > 0);
    QCOMPARE(n.gpusAllocated, 0); // pods fill it, in KubernetesPartBuilder
}

void TestKubeNodeParser::wholeListsInNameOrder()
{
    const KubeNodeParseResult standin = KubeNodeParser::parse(kubeTestData(QStringLiteral("standin_nodes.json")),
                                                              GpuCatalog::builtIn());
    QStringList names;
    for (const Node &n : standin.nodes)
        names << n.name;
    QCOMPARE(names, (QStringList{"kube-gpu-01", "kube-gpu-02", "kube-gpu-03", "kube-gpu-04"}));
    QCOMPARE(standin.nodes.at(0).memoryMiB, qint64(2097027192LL / 1024));
    // The API's own NodeList page (items without kind, a continue token) reads the same.
    const KubeNodeParseResult page = KubeNodeParser::parse(kubeTestData(QStringLiteral("standin_api_nodelist_page1.json")),
                                                           GpuCatalog::builtIn());
    QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
    QCOMPARE(page.nodes.size(), 2);
    QCOMPARE(page.nodes.at(1).name, QStringLiteral("kube-gpu-02"));
    QCOMPARE(page.nodes.at(1).gpuModel, QStringLiteral("H100"));
    // The API's whole NodeList (`kubectl get --raw /api/v1/nodes`, what a refresh reads): the
    // same nodes as kubectl's `-o json`.
    const KubeNodeParseResult api = KubeNodeParser::parse(kubeTestData(QStringLiteral("standin_raw_nodes.json")),
                                                          GpuCatalog::builtIn());
    QVERIFY2(api.error.isEmpty(), qPrintable(api.error));
    QCOMPARE(api.nodes.size(), standin.nodes.size());
    for (int i = 0; i < api.nodes.size(); ++i) {
        const Node &a = api.nodes.at(i), &k = standin.nodes.at(i);
        QCOMPARE(a.name, k.name);
        QCOMPARE(a.gpuModel, k.gpuModel);
        QCOMPARE(a.gpuCount, k.gpuCount);
        QCOMPARE(a.state, k.state);
        QCOMPARE(a.reason, k.reason);
        QCOMPARE(a.partitions, k.partitions);
        QCOMPARE(a.memoryMiB, k.memoryMiB);
    }
    QCOMPARE(api.nodes.at(3).state, QStringLiteral("cordoned"));
    QCOMPARE(KubeNodeParser::parse(kubeTestData(QStringLiteral("reference_nodes.json")), GpuCatalog::builtIn()).nodes.size(), 7);
}

void TestKubeNodeParser::unusableDocuments_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("errorPart");
    QTest::newRow("kubectl's table, not JSON") << kubeTestData(QStringLiteral("standin_get_nodes.txt")) << "not JSON";
    QTest::newRow("truncated") << kubeTestData(QStringLiteral("standin_nodes.json")).left(5000) << "not JSON";
    QTest::newRow("a Status error") << kubeTestData(QStringLiteral("errors/status_404_node.json"))
                                    << "nodes \"no-such-node\" not found";
    QTest::newRow("pods instead of nodes") << kubeTestData(QStringLiteral("standin_api_podlist.json")) << "PodList";
}

void TestKubeNodeParser::unusableDocuments()
{
    QFETCH(QByteArray, input);
    QFETCH(QString, errorPart);
    const KubeNodeParseResult result = KubeNodeParser::parse(input, GpuCatalog::builtIn());
    QVERIFY2(result.error.contains(errorPart), qPrintable(result.error));
    QVERIFY(result.nodes.isEmpty());
}


void TestKubeNodeParser::gpuSharing_data()
{
    // Nodes shaped as the GPU Operator / GPU feature discovery and GKE label them
    // (reference_gpu_sharing_nodes.json): Node::gpuCount is always the physical GPUs.
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("gpuCount");
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<QString>("resource");
    QTest::addColumn<int>("replicas");
    QTest::addColumn<int>("shares");
    QTest::addColumn<MigCounts>("mig");
    QTest::addColumn<int>("migSlicesPerGpu");
    QTest::newRow("T4 time-sliced x4: 1 GPU, 4 shares") << "ip-192-0-2-31.example.internal" << "T4" << 1 << "time-slicing"
        << "nvidia.com/gpu" << 4 << 4 << MigCounts{} << 0;
    QTest::newRow("A10G time-sliced x2 (real label set)") << "ip-192-0-2-32.example.internal" << "A10G" << 1 << "time-slicing"
        << "nvidia.com/gpu" << 2 << 2 << MigCounts{} << 0;
    QTest::newRow("H100 renamed to gpu.shared") << "ip-192-0-2-33.example.internal" << "H100" << 8 << "time-slicing"
        << "nvidia.com/gpu.shared" << 4 << 32 << MigCounts{} << 7;
    QTest::newRow("L4 MPS x4") << "ip-192-0-2-34.example.internal" << "L4" << 1 << "mps" << "nvidia.com/gpu" << 4 << 4
        << MigCounts{} << 0;
    QTest::newRow("A100 40GB MIG mixed 56 x 1g.5gb") << "ip-192-0-2-35.example.internal" << "A100-SXM4-40GB" << 8 << "mig-mixed"
        << "" << 0 << 0 << MigCounts{{"1g.5gb", 56}} << 7;
    QTest::newRow("A100 80GB PCIe MIG mixed 3 profiles") << "gpu-lab-07" << "A100-PCIe-80GB" << 1 << "mig-mixed" << "" << 0 << 0
        << MigCounts{{"1g.10gb", 1}, {"2g.20gb", 1}, {"3g.40gb", 1}} << 7;
    QTest::newRow("H100 MIG single: 56 devices of 8 GPUs") << "ip-192-0-2-38.example.internal" << "H100" << 8 << "mig-single"
        << "nvidia.com/gpu" << 0 << 0 << MigCounts{{"1g.10gb", 56}} << 7;
    QTest::newRow("GKE T4 time-sharing x2") << "gke-lab-t4-shared-6f1c2a90-x7k2" << "T4" << 1 << "time-slicing" << "nvidia.com/gpu"
        << 2 << 2 << MigCounts{} << 0;
    QTest::newRow("GKE A100 partitions 1g.5gb") << "gke-lab-a100-mig-3b0e71c2-q4vd" << "A100-SXM4-40GB" << 1 << "mig-single"
        << "nvidia.com/gpu" << 0 << 0 << MigCounts{{"1g.5gb", 7}} << 7;
    QTest::newRow("GKE H100 whole") << "gke-lab-h100-8e5d0c41-m2pz" << "H100" << 8 << "" << "" << 0 << 0 << MigCounts{} << 7;
}

void TestKubeNodeParser::gpuSharing()
{
    QFETCH(QString, name);
    const KubeNodeParseResult result = KubeNodeParser::parse(kubeTestData(QStringLiteral("reference_gpu_sharing_nodes.json")),
                                                             GpuCatalog::builtIn());
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.nodes.size(), 10);
    const auto it = std::find_if(result.nodes.cbegin(), result.nodes.cend(), [&](const Node &n) { return n.name == name; });
    QVERIFY(it != result.nodes.cend());
    QTEST(it->gpuModel, "model");
    QTEST(it->gpuCount, "gpuCount");
    const GpuSharing &s = it->gpuSharing;
    QTEST(s.strategy, "strategy");
    QTEST(s.resource, "resource");
    QTEST(s.replicas, "replicas");
    QTEST(s.shares, "shares");
    QTEST(s.migDevices, "mig");
    QTEST(s.migSlicesPerGpu, "migSlicesPerGpu");
    QCOMPARE(s.sharesAllocated, 0);
    QVERIFY(s.migDevicesAllocated.isEmpty());
    QCOMPARE(it->gpusAllocated, 0);
}

void TestKubeNodeParser::sharedOnly_data()
{
    // EKS nodes whose GPUs the device plugin offers only as nvidia.com/gpu.shared (time-slicing
    // with renameByDefault), nvidia.com/gpu 0 or absent (reference_gpu_shared_only_nodes.json):
    // the physical GPUs come from gpu.count, else the instance type, and the shares are shown.
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("gpuCount");
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<QString>("resource");
    QTest::addColumn<int>("replicas");
    QTest::addColumn<int>("shares");
    QTest::addColumn<QString>("refused");
    QTest::newRow("p5 without GFD: 8 H100 from the instance type, x16") << "ip-192-0-2-40.example.internal" << "H100" << 8
        << "time-slicing" << "nvidia.com/gpu.shared" << 16 << 128 << "";
    QTest::newRow("p5 with gpu.count and gpu.replicas, no strategy label") << "ip-192-0-2-41.example.internal" << "H100" << 8
        << "time-slicing" << "nvidia.com/gpu.shared" << 16 << 128 << "";
    // GpuCount::kMaxSharesPerGpu: 16,384 shares of one A10G is no count; the GPUs are unknown.
    QTest::newRow("g5.xlarge with 16384 shares: refused") << "ip-192-0-2-42.example.internal" << "A10G" << 0 << "" << ""
        << 0 << 0 << "capacity nvidia.com/gpu.shared \"16384\"";
}

void TestKubeNodeParser::sharedOnly()
{
    QFETCH(QString, name);
    const KubeNodeParseResult result = KubeNodeParser::parse(kubeTestData(QStringLiteral("reference_gpu_shared_only_nodes.json")),
                                                             GpuCatalog::builtIn());
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.nodes.size(), 3);
    const auto it = std::find_if(result.nodes.cbegin(), result.nodes.cend(), [&](const Node &n) { return n.name == name; });
    QVERIFY(it != result.nodes.cend());
    QCOMPARE(it->instanceType, it->name == QLatin1String("ip-192-0-2-42.example.internal") ? QStringLiteral("g5.xlarge")
                                                                                          : QStringLiteral("p5.48xlarge"));
    QTEST(it->gpuModel, "model");
    QTEST(it->gpuCount, "gpuCount");
    QTEST(it->gpuCountRefused, "refused");
    QTEST(it->gpuSharing.strategy, "strategy");
    QTEST(it->gpuSharing.resource, "resource");
    QTEST(it->gpuSharing.replicas, "replicas");
    QTEST(it->gpuSharing.shares, "shares");
    QCOMPARE(it->gpusAllocated, 0);
}

QTEST_GUILESS_MAIN(TestKubeNodeParser)
#include "tst_kube_node_parser.moc"
