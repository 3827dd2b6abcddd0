// Attack (issue 23, finding 3): one node's slurmd or kubelet reports an absurd, negative,
// overflowing or malformed GPU count. The REAL node lists of both Slurm releases (22.05 `sinfo
// --json`, 24.11 `scontrol --json show nodes`) with one node's GRES replaced, and Kubernetes node
// objects with a hostile capacity or label, go through the real parsers and the code that
// materialises one Gpu per GPU. Promise: every count is read with overflow checks and bounded
// (GpuCount: 64 GPUs a node, 256 shares a GPU); a refused count leaves that node's GPUs unknown
// (no Gpu entries, "?" in the CLI, null in JSON) with a finding naming the node and the value,
// and every other node reads as before. Before the fix: 2,000,000,000 GPUs were materialised
// (the refresh never ended), "-3" and the wrapped sum "-294967296" were shown as GPU counts.
#include "cli/snapshot_text_printer.h"
#include "kubernetes/kube_node_parser.h"
#include "kubernetes/kubernetes_part_builder.h"
#include "model/cluster_snapshot.h"
#include "model/gpu_catalog.h"
#include "model/gpu_count.h"
#include "model/snapshot_json.h"
#include "slurm/gres.h"
#include "slurm/sinfo_json_parser.h"
#include "slurm/slurm_source.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace strata;

namespace {

QByteArray testData(const QString &relative)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/") + relative);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

// The capture with gpu-node02's GRES (and GRES in use) replaced, as its slurmd would report them.
QByteArray withNode02Gres(const QString &capture, const QString &gres, const QString &gresUsed)
{
    QJsonObject root = QJsonDocument::fromJson(testData(capture)).object();
    QJsonArray nodes = root.value(QLatin1String("nodes")).toArray();
    for (int i = 0; i < nodes.size(); ++i) {
        QJsonObject node = nodes[i].toObject();
        if (node.value(QLatin1String("name")).toString() != QLatin1String("gpu-node02"))
            continue;
        node.insert(QLatin1String("gres"), gres);
        node.insert(QLatin1String("gres_used"), gresUsed);
        nodes[i] = node;
    }
    root.insert(QLatin1String("nodes"), nodes);
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

const Node *findNode(const QVector<Node> &nodes, const QString &name)
{
    for (const Node &n : nodes)
        if (n.name == name)
            return &n;
    return nullptr;
}

// A Kubernetes node as a kubelet with the NVIDIA device plugin reports it, capacity and labels
// replaced by the row's.
QJsonObject kubeNode(const QString &name, const QJsonObject &extraCapacity, const QJsonObject &extraLabels)
{
    QJsonObject labels{{QStringLiteral("node.kubernetes.io/instance-type"), QStringLiteral("p5.48xlarge")},
                       {QStringLiteral("nvidia.com/gpu.product"), QStringLiteral("NVIDIA-H100-80GB-HBM3")},
                       {QStringLiteral("eks.amazonaws.com/nodegroup"), QStringLiteral("p5-train")}};
    for (auto it = extraLabels.begin(); it != extraLabels.end(); ++it)
        labels.insert(it.key(), it.value());
    QJsonObject capacity{{QStringLiteral("cpu"), QStringLiteral("192")}, {QStringLiteral("memory"), QStringLiteral("2070762616Ki")}};
    for (auto it = extraCapacity.begin(); it != extraCapacity.end(); ++it)
        capacity.insert(it.key(), it.value());
    return QJsonObject{
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("labels"), labels}}},
        {QStringLiteral("spec"), QJsonObject{}},
        {QStringLiteral("status"),
         QJsonObject{{QStringLiteral("capacity"), capacity},
                     {QStringLiteral("conditions"),
                      QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("Ready")},
                                             {QStringLiteral("status"), QStringLiteral("True")}}}}}},
    };
}

} // namespace

class TestAttackGpuCount : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void slurmGres_data();
    void slurmGres();
    void kubernetesNode_data();
    void kubernetesNode();
    void refusedNodeIsShownAsUnknown();
};

void TestAttackGpuCount::slurmGres_data()
{
    QTest::addColumn<QString>("capture");
    QTest::addColumn<QString>("gres");
    QTest::addColumn<int>("gpuCount");        // taken count; 0 when refused
    QTest::addColumn<QString>("refused");     // Node::gpuCountRefused
    for (const QString &capture : {QStringLiteral("22.05/sinfo.json"), QStringLiteral("24.11/scontrol_show_nodes.json")}) {
        const QString release = capture.left(5);
        const auto row = [&](const char *name, const QString &gres, int count, const QString &refused) {
            QTest::newRow(qPrintable(release + QLatin1Char(' ') + QLatin1String(name))) << capture << gres << count << refused;
        };
        row("as captured", QStringLiteral("gpu:h100:8"), 8, QString());
        row("the most a node holds", QStringLiteral("gpu:h100:64"), 64, QString());
        row("one past it", QStringLiteral("gpu:h100:65"), 0, QStringLiteral("GRES gpu:h100:65"));
        row("absurd 2000000000", QStringLiteral("gpu:h100:2000000000"), 0, QStringLiteral("GRES gpu:h100:2000000000"));
        row("past int 4000000000", QStringLiteral("gpu:h100:4000000000"), 0, QStringLiteral("GRES gpu:h100:4000000000"));
        // Two entries whose int sum wrapped to -294967296 before.
        row("sum past int", QStringLiteral("gpu:h100:2000000000,gpu:a100:2000000000"), 0,
            QStringLiteral("GRES gpu:h100:2000000000,gpu:a100:2000000000"));
        row("2^63", QStringLiteral("gpu:h100:9223372036854775808"), 0, QStringLiteral("GRES gpu:h100:9223372036854775808"));
        // What the real slurmctld 22.05 lists for a node created with Gres=gpu:h100:2000000000,
        // with 2^63 (clamped to int64's most) and with a count of -3 (read as a type "-3").
        row("Slurm's 2000000000", QStringLiteral("gpu:h100:1953125K"), 0, QStringLiteral("GRES gpu:h100:1953125K"));
        row("Slurm's 2^63", QStringLiteral("gpu:h100:9223372036854775807"), 0, QStringLiteral("GRES gpu:h100:9223372036854775807"));
        row("Slurm's -3", QStringLiteral("gpu:h100:1,gpu:-3:1"), 2, QString());
        row("negative", QStringLiteral("gpu:h100:-3"), 0, QStringLiteral("GRES gpu:h100:-3"));
        row("untyped negative", QStringLiteral("gpu:-3"), 0, QStringLiteral("GRES gpu:-3"));
        row("exponent", QStringLiteral("gpu:h100:1e9"), 0, QStringLiteral("GRES gpu:h100:1e9"));
        row("leading plus", QStringLiteral("gpu:h100:+8"), 0, QStringLiteral("GRES gpu:h100:+8"));
        row("whitespace in count", QStringLiteral("gpu:h100: 8"), 0, QStringLiteral("GRES gpu:h100: 8"));
        row("other GRES huge, GPUs fine", QStringLiteral("gpu:h100:8,nvme:4000000000"), 8, QString());
    }
}

void TestAttackGpuCount::slurmGres()
{
    QFETCH(QString, capture);
    QFETCH(QString, gres);
    QFETCH(int, gpuCount);
    QFETCH(QString, refused);
    SinfoParseResult parsed = SinfoJsonParser::parse(withNode02Gres(capture, gres, QStringLiteral("gpu:h100:0(IDX:N/A)")),
                                                     GpuCatalog::builtIn());
    QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
    QVector<Job> jobs;
    applyPlacements(parsed.nodes, jobs, {}); // what SlurmSource materialises per refresh
    const Node *hostile = findNode(parsed.nodes, QStringLiteral("gpu-node02"));
    QVERIFY(hostile);
    QCOMPARE(hostile->gpuCount, gpuCount);
    QCOMPARE(hostile->gpuCountRefused, refused);
    QCOMPARE(hostile->gpus.size(), qsizetype(gpuCount));
    QCOMPARE(hostile->gpusAllocated, 0);
    const std::optional<Finding> finding = GpuCount::finding(*hostile);
    QCOMPARE(finding.has_value(), !refused.isEmpty());
    if (finding) {
        QCOMPARE(finding->node, QStringLiteral("gpu-node02"));
        QCOMPARE(finding->code, QStringLiteral("gpu-count-refused"));
        QVERIFY2(finding->message.startsWith(QStringLiteral("gpu-node02 reported a GPU count Strata cannot take (")
                                             + refused + QLatin1Char(')')),
                 qPrintable(finding->message));
    }
    // The rest of the cluster reads as captured.
    for (const QString &other : {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node03"), QStringLiteral("gpu-node04")}) {
        const Node *n = findNode(parsed.nodes, other);
        QVERIFY(n);
        QCOMPARE(n->gpuCount, 8);
        QCOMPARE(n->gpus.size(), qsizetype(8));
        QVERIFY(n->gpuCountRefused.isEmpty());
    }
}

void TestAttackGpuCount::kubernetesNode_data()
{
    QTest::addColumn<QJsonObject>("capacity");
    QTest::addColumn<QJsonObject>("labels");
    QTest::addColumn<int>("gpuCount");
    QTest::addColumn<QString>("refused");
    const auto gpus = [](const QJsonValue &v) { return QJsonObject{{QStringLiteral("nvidia.com/gpu"), v}}; };
    const auto refusedGpus = [](const QString &v) { return QStringLiteral("capacity nvidia.com/gpu \"%1\"").arg(v); };
    QTest::newRow("as a p5 reports it") << gpus(QStringLiteral("8")) << QJsonObject{} << 8 << QString();
    QTest::newRow("the most a node holds") << gpus(QStringLiteral("64")) << QJsonObject{} << 64 << QString();
    QTest::newRow("one past it") << gpus(QStringLiteral("65")) << QJsonObject{} << 0 << refusedGpus(QStringLiteral("65"));
    QTest::newRow("absurd 2000000000") << gpus(QStringLiteral("2000000000")) << QJsonObject{} << 0
                                       << refusedGpus(QStringLiteral("2000000000"));
    QTest::newRow("past int 4000000000") << gpus(QStringLiteral("4000000000")) << QJsonObject{} << 0
                                         << refusedGpus(QStringLiteral("4000000000"));
    QTest::newRow("2^63") << gpus(QStringLiteral("9223372036854775808")) << QJsonObject{} << 0
                          << refusedGpus(QStringLiteral("9223372036854775808"));
    QTest::newRow("negative") << gpus(QStringLiteral("-3")) << QJsonObject{} << 0 << refusedGpus(QStringLiteral("-3"));
    QTest::newRow("exponent 1e9") << gpus(QStringLiteral("1e9")) << QJsonObject{} << 0 << refusedGpus(QStringLiteral("1e9"));
    QTest::newRow("fraction") << gpus(QStringLiteral("2.5")) << QJsonObject{} << 0 << refusedGpus(QStringLiteral("2.5"));
    // The quantity grammar allows a sign and the API never pads, but a stand-in may: both read.
    QTest::newRow("leading plus") << gpus(QStringLiteral("+8")) << QJsonObject{} << 8 << QString();
    QTest::newRow("whitespace") << gpus(QStringLiteral(" 8 ")) << QJsonObject{} << 8 << QString();
    QTest::newRow("JSON number") << gpus(2000000000.0) << QJsonObject{} << 0 << refusedGpus(QStringLiteral("2000000000"));
    QTest::newRow("GFD count absurd, no capacity")
        << QJsonObject{} << QJsonObject{{QStringLiteral("nvidia.com/gpu.count"), QStringLiteral("2000000000")}} << 0
        << QStringLiteral("label nvidia.com/gpu.count=\"2000000000\"");
    QTest::newRow("GFD count with plus")
        << QJsonObject{} << QJsonObject{{QStringLiteral("nvidia.com/gpu.count"), QStringLiteral("+8")}} << 0
        << QStringLiteral("label nvidia.com/gpu.count=\"+8\"");
    // Time-slicing: shares are counted, never materialised; replicas past 256 are no real setup.
    QTest::newRow("replicas absurd")
        << gpus(QStringLiteral("8"))
        << QJsonObject{{QStringLiteral("nvidia.com/gpu.replicas"), QStringLiteral("2000000000")},
                       {QStringLiteral("nvidia.com/gpu.sharing-strategy"), QStringLiteral("time-slicing")}}
        << 0 << QStringLiteral("label nvidia.com/gpu.replicas=\"2000000000\"");
    QTest::newRow("shares at one replica each")
        << gpus(QStringLiteral("16384"))
        << QJsonObject{{QStringLiteral("nvidia.com/gpu.replicas"), QStringLiteral("1")},
                       {QStringLiteral("nvidia.com/gpu.sharing-strategy"), QStringLiteral("time-slicing")}}
        << 0 << QStringLiteral("16384 GPUs");
    QTest::newRow("MIG devices absurd")
        << QJsonObject{{QStringLiteral("nvidia.com/mig-1g.10gb"), QStringLiteral("2000000000")}} << QJsonObject{} << 0
        << QStringLiteral("capacity nvidia.com/mig-1g.10gb \"2000000000\"");
}

void TestAttackGpuCount::kubernetesNode()
{
    QFETCH(QJsonObject, capacity);
    QFETCH(QJsonObject, labels);
    QFETCH(int, gpuCount);
    QFETCH(QString, refused);
    const QJsonObject list{{QStringLiteral("kind"), QStringLiteral("NodeList")},
                           {QStringLiteral("items"),
                            QJsonArray{kubeNode(QStringLiteral("kube-gpu-01"), {{QStringLiteral("nvidia.com/gpu"), QStringLiteral("8")}}, {}),
                                       kubeNode(QStringLiteral("kube-hostile"), capacity, labels)}}};
    const KubeNodeParseResult parsed = KubeNodeParser::parse(QJsonDocument(list).toJson(), GpuCatalog::builtIn());
    QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
    const OrchestratorPart part = KubernetesPartBuilder::build(parsed.nodes, {}, {}, 0);
    const Node *hostile = findNode(part.nodes, QStringLiteral("kube-hostile"));
    QVERIFY(hostile);
    QCOMPARE(hostile->gpuCount, gpuCount);
    QCOMPARE(hostile->gpuCountRefused, refused);
    QCOMPARE(hostile->gpus.size(), qsizetype(gpuCount));
    if (!refused.isEmpty()) {
        QVERIFY(!hostile->gpuSharing.isShared());
        const std::optional<Finding> finding = GpuCount::finding(*hostile);
        QVERIFY(finding);
        QCOMPARE(finding->node, QStringLiteral("kube-hostile"));
        QVERIFY2(finding->message.contains(refused), qPrintable(finding->message));
    }
    const Node *other = findNode(part.nodes, QStringLiteral("kube-gpu-01"));
    QVERIFY(other);
    QCOMPARE(other->gpuCount, 8);
    QCOMPARE(other->gpus.size(), qsizetype(8));
    for (const Partition &pool : part.partitions)
        if (pool.name == QLatin1String("p5-train"))
            QCOMPARE(pool.totalGpus, 8 + gpuCount);
}

void TestAttackGpuCount::refusedNodeIsShownAsUnknown()
{
    SinfoParseResult parsed = SinfoJsonParser::parse(
        withNode02Gres(QStringLiteral("22.05/sinfo.json"), QStringLiteral("gpu:h100:2000000000"),
                       QStringLiteral("gpu:h100:2000000000(IDX:0-1)")),
        GpuCatalog::builtIn());
    QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
    QVector<Job> jobs;
    applyPlacements(parsed.nodes, jobs, {});
    ClusterSnapshot snapshot;
    snapshot.clusterName = QStringLiteral("attack");
    snapshot.orchestrator = OrchestratorKind::Slurm;
    snapshot.nodes = parsed.nodes;
    snapshot.finalize();
    snapshot.finalize(); // twice: still one finding
    int refusedFindings = 0;
    for (const Finding &f : snapshot.findings)
        refusedFindings += f.code == QLatin1String("gpu-count-refused") ? 1 : 0;
    QCOMPARE(refusedFindings, 1);
    QCOMPARE(snapshot.totals().gpus, 24); // the three other nodes' 8 each

    const QString text = SnapshotTextPrinter::print(snapshot);
    QVERIFY2(text.contains(QRegularExpression(QStringLiteral("gpu-node02 .* \\?/\\? "))), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("gpu-count-refused")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("GRES gpu:h100:2000000000")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("/2000000000")), qPrintable(text));

    QByteArray json;
    SnapshotJson::writeIndented(snapshot, [&json](const QByteArray &piece) { json += piece; });
    const QJsonObject root = QJsonDocument::fromJson(json).object();
    bool seen = false;
    for (const QJsonValue &v : root.value(QLatin1String("nodes")).toArray()) {
        const QJsonObject node = v.toObject();
        if (node.value(QLatin1String("name")).toString() != QLatin1String("gpu-node02"))
            continue;
        seen = true;
        QVERIFY(node.value(QLatin1String("gpuCount")).isNull());
        QCOMPARE(node.value(QLatin1String("gpuCountRefused")).toString(), QStringLiteral("GRES gpu:h100:2000000000"));
        QCOMPARE(node.value(QLatin1String("gpus")).toArray().size(), 0);
    }
    QVERIFY(seen);
}

QTEST_GUILESS_MAIN(TestAttackGpuCount)
#include "tst_attack_gpu_count.moc"
