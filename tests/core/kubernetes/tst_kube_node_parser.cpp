// KubeNodeParser on kubectl's `get nodes -o json` from the lab stand-in and on nodes written
// from the API reference (NotReady, Unknown, pressure, Karpenter, HyperPod, CPU-only).
#include "kube_test_data.h"
#include "kubernetes/kube_node_parser.h"
#include "model/gpu_catalog.h"

#include <QTest>

using namespace strata;

class TestKubeNodeParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void node_data();
    void node();
    void wholeListsInNameOrder();
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

QTEST_GUILESS_MAIN(TestKubeNodeParser)
#include "tst_kube_node_parser.moc"
