// The DCGM stand-in's reading of the kube stand-in's gpu-allocations.json (its kubelets' GPU
// assignments): which GPU each running pod holds, with the labels the real exporter's pod
// mapping writes and the utilisation the pod's annotation asks.

#include "kube_gpu_allocation_parser.h"

#include <QTest>

using namespace strata::lab;

class TestKubeGpuAllocationParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void allocations_data();
    void allocations();
    void malformed_data();
    void malformed();
};

namespace {
// As the kube stand-in wrote it (lab/kube_standin/controller_loop.py) for a 2-pod Job with
// strata.io/lab-gpu-util "40", plus a 2-GPU bare pod without the annotation.
const char *kWritten = R"({
 "comment": "GPU allocations of the Strata kube stand-in (from the pod annotation strata.lab/gpu-indices); not a Kubernetes API object.",
 "nodes": {
  "kube-gpu-01": {"allocations": [
    {"container": "main", "gpu": 0, "job": "train-a", "namespace": "default", "pod": "train-a-kv66m", "utilPercent": 40},
    {"container": "worker", "gpu": 1, "job": "", "namespace": "research", "pod": "bare", "utilPercent": 40},
    {"container": "worker", "gpu": 2, "job": "", "namespace": "research", "pod": "bare"}],
   "gpuCount": 8, "gpuProduct": "NVIDIA-H100-80GB-HBM3"},
  "kube-gpu-02": {"allocations": [
    {"container": "main", "gpu": 0, "job": "train-a", "namespace": "default", "pod": "train-a-qzwxq", "utilPercent": 40}],
   "gpuCount": 8, "gpuProduct": "NVIDIA-H100-80GB-HBM3"},
  "kube-gpu-03": {"allocations": [], "gpuCount": 8, "gpuProduct": "NVIDIA-H200"}
 },
 "resourceVersion": "41"
})";
} // namespace

void TestKubeGpuAllocationParser::allocations_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("node");
    QTest::addColumn<int>("gpu");
    QTest::addColumn<QString>("labels"); // name=value,... in order; empty: not held
    QTest::addColumn<int>("util");
    QTest::addColumn<int>("held");
    QTest::addColumn<int>("skipped");

    const QByteArray written(kWritten);
    QTest::newRow("job pod, util asked") << written << "kube-gpu-01" << 0
                                         << "pod=train-a-kv66m,namespace=default,container=main" << 40 << 4 << 0;
    QTest::newRow("other node") << written << "kube-gpu-02" << 0
                                << "pod=train-a-qzwxq,namespace=default,container=main" << 40 << 4 << 0;
    QTest::newRow("no util annotation: busy") << written << "kube-gpu-01" << 2
                                              << "pod=bare,namespace=research,container=worker" << -1 << 4 << 0;
    QTest::newRow("free GPU") << written << "kube-gpu-03" << 0 << "" << -1 << 4 << 0;
    // Hostile entries are skipped and counted, never guessed: an index past 63, a fraction, a
    // negative one, a string, no pod, no namespace; a util out of 0..100 is no util.
    QTest::newRow("hostile entries") << QByteArray(R"({"nodes": {"n": {"allocations": [
        {"gpu": 2147483648, "namespace": "a", "pod": "p"}, {"gpu": 1.5, "namespace": "a", "pod": "p"},
        {"gpu": -1, "namespace": "a", "pod": "p"}, {"gpu": "3", "namespace": "a", "pod": "p"},
        {"gpu": 4, "namespace": "a"}, {"gpu": 5, "pod": "p"},
        {"gpu": 6, "namespace": "a", "pod": "p\"q\nr", "container": "c", "utilPercent": 1e9}]}}})")
                                     << "n" << 6 << "pod=p\"q\nr,namespace=a,container=c" << -1 << 1 << 6;
}

void TestKubeGpuAllocationParser::allocations()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, node);
    QFETCH(int, gpu);
    QFETCH(QString, labels);
    QFETCH(int, util);
    QFETCH(int, held);
    QFETCH(int, skipped);

    const KubeGpuAllocations parsed = parseKubeGpuAllocations(json);
    QCOMPARE(parsed.error, QString());
    QCOMPARE(int(parsed.holders.size()), held);
    QCOMPARE(parsed.skipped, skipped);
    const auto it = parsed.holders.find(GpuKey{node, gpu});
    if (labels.isEmpty()) {
        QVERIFY(it == parsed.holders.end());
        return;
    }
    QVERIFY(it != parsed.holders.end());
    QStringList got;
    for (const auto &[name, value] : it->second.labels)
        got << QString::fromStdString(name + "=" + value);
    QCOMPARE(got.join(u','), labels);
    QCOMPARE(it->second.utilPercent, util);
    QVERIFY(it->second.kubernetesPod);
}

void TestKubeGpuAllocationParser::malformed_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error");
    QTest::newRow("truncated") << QByteArray(R"({"nodes": {"kube-gpu-01": )")
                               << "GPU allocations are not JSON: unterminated object at byte 26";
    QTest::newRow("no nodes") << QByteArray(R"({"comment": "x"})") << "GPU allocations have no \"nodes\" object";
    QTest::newRow("empty file") << QByteArray() << "GPU allocations are not JSON: illegal value at byte 0";
}

void TestKubeGpuAllocationParser::malformed()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    const KubeGpuAllocations parsed = parseKubeGpuAllocations(json);
    QCOMPARE(parsed.error, error);
    QCOMPARE(int(parsed.holders.size()), 0);
}

QTEST_GUILESS_MAIN(TestKubeGpuAllocationParser)
#include "tst_kube_gpu_allocation_parser.moc"
