// KubePodParser on kubectl's `get pods -A -o json` from the lab stand-in and on pods written
// from the API reference (CrashLoopBackOff, ImagePullBackOff, OOMKilled, Evicted, Terminating,
// DaemonSet, bare GPU pod, Unschedulable).
#include "kube_test_data.h"
#include "kubernetes/kube_pod_parser.h"

#include <QTest>

using ResourceCounts = QMap<QString, int>;
Q_DECLARE_METATYPE(ResourceCounts)

using namespace strata;

class TestKubePodParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pod_data();
    void pod();
    void apiPodListMatchesKubectlList();
    void gpuResources_data();
    void gpuResources();
    void unusableDocuments();
};

void TestKubePodParser::pod_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("phase");
    QTest::addColumn<QString>("status");
    QTest::addColumn<QString>("nodeName");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<QVector<int>>("gpuIndices");
    QTest::addColumn<QString>("ownerKind");
    QTest::addColumn<QString>("ownerName");
    QTest::addColumn<int>("restarts");
    QTest::addColumn<bool>("holdsNode");
    QTest::addColumn<QString>("messagePart");

    const QString s = QStringLiteral("standin_pods.json");
    const QString r = QStringLiteral("reference_pods.json");
    QTest::newRow("stand-in indexed trainer") << s << "ml-research/train-llm-0-qw42x" << "Running" << "Running"
        << "kube-gpu-01" << 8 << QVector<int>{0, 1, 2, 3, 4, 5, 6, 7} << "Job" << "train-llm" << 0 << true << "";
    QTest::newRow("stand-in 4 of 8 GPUs") << s << "default/serve-eval-df5ll" << "Running" << "Running" << "kube-gpu-03"
        << 4 << QVector<int>{0, 1, 2, 3} << "Job" << "serve-eval" << 0 << true << "";
    QTest::newRow("stand-in bare pod") << s << "default/debug-shell" << "Running" << "Running" << "kube-gpu-04" << 1
        << QVector<int>{0} << "" << "" << 0 << true << "";
    QTest::newRow("stand-in completed") << s << "default/done-ok-86ffd" << "Succeeded" << "Completed" << "kube-gpu-04"
        << 1 << QVector<int>{1} << "Job" << "done-ok" << 0 << false << "";
    QTest::newRow("stand-in exit 3") << s << "default/fails-2sx8k" << "Failed" << "Error" << "kube-gpu-04" << 0
        << QVector<int>{} << "Job" << "fails" << 0 << false << "";
    QTest::newRow("stand-in unschedulable") << s << "default/too-big-s8bqj" << "Pending" << "Pending" << "" << 16
        << QVector<int>{} << "Job" << "too-big" << 0 << false
        << "0/4 nodes are available: 3 Insufficient nvidia.com/gpu, 1 node(s) were unschedulable.";
    QTest::newRow("crash loop") << r << "research/crashy-b9q4z" << "Running" << "CrashLoopBackOff"
        << "ip-192-0-2-10.example.internal" << 1 << QVector<int>{} << "Job" << "crashy" << 5 << true << "back-off 5m0s";
    QTest::newRow("image pull") << r << "research/pull-fails-2kdhf" << "Pending" << "ImagePullBackOff"
        << "ip-192-0-2-13.example.internal" << 2 << QVector<int>{} << "Job" << "pull-fails" << 0 << true
        << "Back-off pulling image";
    QTest::newRow("OOM killed") << r << "research/oom-4n8vd" << "Failed" << "OOMKilled" << "ip-192-0-2-13.example.internal"
        << 2 << QVector<int>{} << "Job" << "oom" << 0 << false << "";
    QTest::newRow("terminating") << r << "research/stopping-hx2lm" << "Running" << "Terminating"
        << "ip-192-0-2-10.example.internal" << 2 << QVector<int>{} << "Job" << "stopping" << 0 << true << "";
    QTest::newRow("daemonset, CPU only") << r << "gpu-operator/nvidia-dcgm-exporter-t7wq9" << "Running" << "Running"
        << "ip-192-0-2-10.example.internal" << 0 << QVector<int>{} << "DaemonSet" << "nvidia-dcgm-exporter" << 0 << true << "";
    QTest::newRow("bare notebook, no indices") << r << "default/notebook-0" << "Running" << "Running"
        << "ip-192-0-2-13.example.internal" << 2 << QVector<int>{} << "" << "" << 0 << true << "";
    QTest::newRow("unschedulable, 7 nodes") << r << "research/waiting-gpus-5fzq2" << "Pending" << "Pending" << "" << 8
        << QVector<int>{} << "Job" << "waiting-gpus" << 0 << false << "2 Insufficient nvidia.com/gpu";
    QTest::newRow("evicted") << r << "research/evicted-9vvbc" << "Failed" << "Evicted" << "ip-192-0-2-11.example.internal"
        << 1 << QVector<int>{} << "Job" << "evicted" << 0 << false << "low on resource: ephemeral-storage";
}

void TestKubePodParser::pod()
{
    QFETCH(QString, file);
    QFETCH(QString, key);
    const KubePodParseResult result = KubePodParser::parse(kubeTestData(file));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    const auto it = std::find_if(result.pods.cbegin(), result.pods.cend(), [&](const KubePod &p) { return p.key() == key; });
    QVERIFY2(it != result.pods.cend(), qPrintable(key));
    QTEST(it->phase, "phase");
    QTEST(it->status, "status");
    QTEST(it->nodeName, "nodeName");
    QTEST(it->gpus, "gpus");
    QTEST(it->gpuIndices, "gpuIndices");
    QTEST(it->ownerKind, "ownerKind");
    QTEST(it->ownerName, "ownerName");
    QTEST(it->restarts, "restarts");
    QTEST(it->holdsNode(), "holdsNode");
    QFETCH(QString, messagePart);
    QVERIFY2(it->message.contains(messagePart), qPrintable(it->message));
    QVERIFY(it->createdAt > 1700000000);
    QVERIFY(!it->uid.isEmpty());
    if (!it->ownerKind.isEmpty())
        QVERIFY(!it->ownerUid.isEmpty());
    QVERIFY(!it->image.isEmpty());
}

void TestKubePodParser::apiPodListMatchesKubectlList()
{
    const KubePodParseResult kubectl = KubePodParser::parse(kubeTestData(QStringLiteral("standin_pods.json")));
    const KubePodParseResult api = KubePodParser::parse(kubeTestData(QStringLiteral("standin_api_podlist.json")));
    QVERIFY2(api.error.isEmpty(), qPrintable(api.error));
    QCOMPARE(api.pods.size(), kubectl.pods.size());
    QCOMPARE(api.pods.size(), 8);
    for (int i = 0; i < api.pods.size(); ++i) {
        QCOMPARE(api.pods[i].key(), kubectl.pods[i].key());
        QCOMPARE(api.pods[i].gpus, kubectl.pods[i].gpus);
        QCOMPARE(api.pods[i].status, kubectl.pods[i].status);
    }
    const KubePod trainer = kubectl.pods.at(6);
    QCOMPARE(trainer.command, QStringLiteral("sh -c 'echo rank $JOB_COMPLETION_INDEX on $NODE_NAME; sleep infinity'"));
    QCOMPARE(trainer.cpus, 96.0);
}

void TestKubePodParser::unusableDocuments()
{
    QVERIFY(KubePodParser::parse("{}").error.contains(QStringLiteral("expected a PodList")));
    QVERIFY(KubePodParser::parse("").error.contains(QStringLiteral("not JSON")));
    QVERIFY(KubePodParser::parse(kubeTestData(QStringLiteral("errors/kubectl_not_found.txt"))).error.contains(
        QStringLiteral("not JSON")));
    const KubePodParseResult empty = KubePodParser::parse(R"({"apiVersion":"v1","items":[],"kind":"List","metadata":{}})");
    QVERIFY(empty.error.isEmpty());
    QVERIFY(empty.pods.isEmpty());
}

void TestKubePodParser::gpuResources_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<ResourceCounts>("resources");
    QTest::addColumn<int>("gpus");
    QTest::newRow("share as nvidia.com/gpu") << "inference/t4-embed-7d9c6b5f4-2xkqz" << ResourceCounts{{"nvidia.com/gpu", 1}} << 1;
    QTest::newRow("renamed share") << "inference/h100-chat-5b8f7c9d6-4hzcd" << ResourceCounts{{"nvidia.com/gpu.shared", 1}} << 1;
    QTest::newRow("MIG devices") << "research/sweep-small-0" << ResourceCounts{{"nvidia.com/mig-1g.5gb", 3}} << 3;
    QTest::newRow("MIG 3g.40gb") << "research/finetune-mid" << ResourceCounts{{"nvidia.com/mig-3g.40gb", 1}} << 1;
}

void TestKubePodParser::gpuResources()
{
    QFETCH(QString, key);
    const KubePodParseResult result = KubePodParser::parse(kubeTestData(QStringLiteral("reference_gpu_sharing_pods.json")));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    const auto it = std::find_if(result.pods.cbegin(), result.pods.cend(), [&](const KubePod &p) { return p.key() == key; });
    QVERIFY(it != result.pods.cend());
    QTEST(it->gpuResources, "resources");
    QTEST(it->gpus, "gpus");
}

QTEST_GUILESS_MAIN(TestKubePodParser)
#include "tst_kube_pod_parser.moc"
