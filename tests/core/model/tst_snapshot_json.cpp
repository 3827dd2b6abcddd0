// SnapshotJson: the documented keys of `strata snapshot --format json`, their types, and that
// a missing metric is null (never 0) while a real 0 stays 0.
#include "model/snapshot_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace strata;

namespace {

Node h100Node(const QString &name, int gpusAllocated)
{
    Node n;
    n.name = name;
    n.state = gpusAllocated > 0 ? QStringLiteral("mixed") : QStringLiteral("idle");
    n.partitions = {QStringLiteral("train")};
    n.features = {QStringLiteral("p5.48xlarge")};
    n.instanceType = QStringLiteral("p5.48xlarge");
    n.cpus = 192;
    n.memoryMiB = 2000000;
    n.gpuModel = QStringLiteral("H100");
    n.gpuCount = 8;
    n.gpusAllocated = gpusAllocated;
    for (int i = 0; i < 8; ++i) {
        Gpu g;
        g.index = i;
        g.model = n.gpuModel;
        n.gpus << g;
    }
    return n;
}

// Two nodes, a 2-node job holding GPUs 6 on node01 and 0 on node02, a pending job, a drained
// node without GPUs, and metrics on exactly one GPU (one of them a real zero).
ClusterSnapshot sampleSnapshot()
{
    ClusterSnapshot s;
    s.clusterName = QStringLiteral("strata-lab");
    s.orchestrator = OrchestratorKind::Slurm;
    s.takenAt = QDateTime(QDate(2026, 12, 2), QTime(13, 55, 20), Qt::UTC);
    Node a = h100Node(QStringLiteral("gpu-node01"), 1);
    a.gpuIndicesAllocated = {6};
    a.gpus[6].jobId = QStringLiteral("6");
    a.gpus[6].metrics.utilPercent = 97.5;
    a.gpus[6].metrics.xid = 0.0;
    a.gpus[6].seenByExporter = true;
    // node exporter answered for gpu-node01: one EFA port down, /fsx mounted.
    FabricPort port;
    port.device = QStringLiteral("efa_1");
    port.port = QStringLiteral("1");
    port.stateId = 1;
    port.physicalStateId = 3;
    port.rateBytesPerSecond = 12.5e9;
    a.fabric.ports = {port};
    a.fabric.fabricKnown = true;
    SharedMount fsx;
    fsx.mountpoint = QStringLiteral("/fsx");
    fsx.fstype = QStringLiteral("lustre");
    fsx.sizeBytes = 1.2e12;
    a.fabric.mounts = {fsx};
    a.fabric.storageKnown = true;
    Node b = h100Node(QStringLiteral("gpu-node02"), 1);
    b.gpuIndicesAllocated = {0};
    b.gpus[0].jobId = QStringLiteral("6");
    Node c;
    c.name = QStringLiteral("cpu-node01");
    c.state = QStringLiteral("drained");
    c.stateFlags = {QStringLiteral("DRAIN")};
    c.reason = QStringLiteral("Action:Reboot xid=79");
    c.partitions = {QStringLiteral("train"), QStringLiteral("inference")};
    s.nodes = {c, a, b};

    Job running;
    running.id = QStringLiteral("6");
    running.name = QStringLiteral("multi;node $(rm -rf /) `id`\n");
    running.user = QStringLiteral("root");
    running.setState(QStringLiteral("RUNNING"));
    running.partition = QStringLiteral("train");
    running.nodes = {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")};
    running.gpus = {{QStringLiteral("gpu-node01"), {6}}, {QStringLiteral("gpu-node02"), {0}}};
    running.gpusRequested = 2;
    running.timeUsedSeconds = 12;
    running.timeLimitSeconds = 0;
    running.framework = QStringLiteral("vllm");
    running.kind = QStringLiteral("serving");
    auto app = std::make_shared<AppMetrics>();
    app->server = QStringLiteral("vllm");
    app->tokensPerSecond = 480.0;
    app->requestsRunning = 0.0; // a real zero stays 0
    running.app = app;
    Job pending;
    pending.id = QStringLiteral("7_3");
    pending.arrayJobId = QStringLiteral("7");
    pending.arrayTaskId = QStringLiteral("3");
    pending.name = QStringLiteral("sweep");
    pending.user = QStringLiteral("alice");
    pending.setState(QStringLiteral("PENDING"));
    pending.reason = QStringLiteral("Resources");
    pending.partition = QStringLiteral("train");
    pending.gpusRequested = 3;
    s.jobs = {running, pending};
    Partition p;
    p.name = QStringLiteral("train");
    p.state = QStringLiteral("UP");
    p.isDefault = true;
    p.nodes = {QStringLiteral("cpu-node01"), QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")};
    p.maxTimeSeconds = 0;
    p.totalGpus = 16;
    s.partitions = {p};
    SourceStatus st;
    st.source = SourceKind::Slurm;
    st.configured = st.ok = true;
    s.sources = {st};
    s.finalize();
    return s;
}

// Through text and back, as a consumer of `strata snapshot --format json` reads it.
QJsonObject roundTrip(const QJsonObject &o)
{
    return QJsonDocument::fromJson(QJsonDocument(o).toJson()).object();
}

QJsonObject byKey(const QJsonArray &array, const QString &key, const QString &value)
{
    for (const QJsonValue &v : array)
        if (v.toObject().value(key).toString() == value)
            return v.toObject();
    return {};
}

} // namespace

class TestSnapshotJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nodeKeys_data();
    void nodeKeys();
    void jobKeys_data();
    void jobKeys();
    void jobGpusMapNodeToIndices();
    void kubernetesWorkload();
    void missingMetricsAreNull_data();
    void missingMetricsAreNull();
    void unknownValuesAreNull();
    void topLevel();
    void gpuSharing();
    void mixedGpuModels();
    void writtenInPiecesAsTheDocumentWrites_data();
    void writtenInPiecesAsTheDocumentWrites();
};

void TestSnapshotJson::nodeKeys_data()
{
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    const auto row = [](const char *node, const char *key, const QJsonValue &v) {
        QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(node, key))) << QString::fromLatin1(node) << QString::fromLatin1(key) << v;
    };
    row("gpu-node01", "name", QStringLiteral("gpu-node01"));
    row("gpu-node01", "state", QStringLiteral("mixed"));
    row("gpu-node01", "instanceType", QStringLiteral("p5.48xlarge"));
    row("gpu-node01", "partitions", QJsonArray{QStringLiteral("train")});
    row("gpu-node01", "gpuModel", QStringLiteral("H100"));
    row("gpu-node01", "gpuCount", 8);
    row("gpu-node01", "gpusAllocated", 1);
    row("gpu-node01", "gpuIndicesAllocated", QJsonArray{6});
    row("gpu-node01", "cpus", 192);
    row("cpu-node01", "state", QStringLiteral("drained"));
    row("cpu-node01", "stateFlags", QJsonArray{QStringLiteral("DRAIN")});
    row("cpu-node01", "reason", QStringLiteral("Action:Reboot xid=79"));
    row("cpu-node01", "partitions", QJsonArray{QStringLiteral("train"), QStringLiteral("inference")});
    row("cpu-node01", "instanceType", QJsonValue(QJsonValue::Null));
    row("cpu-node01", "gpuModel", QJsonValue(QJsonValue::Null));
    row("cpu-node01", "gpuCount", 0);
    row("cpu-node01", "gpus", QJsonArray{});
    row("cpu-node01", "network", QJsonValue(QJsonValue::Null)); // nothing from node exporter: unknown
    row("cpu-node01", "storage", QJsonValue(QJsonValue::Null));
    row("gpu-node01", "network",
        QJsonObject{{QStringLiteral("ports"),
                     QJsonArray{QJsonObject{{QStringLiteral("device"), QStringLiteral("efa_1")},
                                            {QStringLiteral("port"), QStringLiteral("1")},
                                            {QStringLiteral("state"), QStringLiteral("DOWN")},
                                            {QStringLiteral("physicalState"), QStringLiteral("Disabled")},
                                            {QStringLiteral("up"), false},
                                            {QStringLiteral("rateBytesPerSecond"), 12.5e9},
                                            {QStringLiteral("receiveBytesPerSecond"), QJsonValue(QJsonValue::Null)},
                                            {QStringLiteral("transmitBytesPerSecond"), QJsonValue(QJsonValue::Null)}}}}});
    row("gpu-node01", "storage",
        QJsonObject{{QStringLiteral("mounts"),
                     QJsonArray{QJsonObject{{QStringLiteral("mountpoint"), QStringLiteral("/fsx")},
                                            {QStringLiteral("fstype"), QStringLiteral("lustre")},
                                            {QStringLiteral("device"), QString()},
                                            {QStringLiteral("sizeBytes"), 1.2e12},
                                            {QStringLiteral("availableBytes"), QJsonValue(QJsonValue::Null)},
                                            {QStringLiteral("readOnly"), false}}}}});
}

void TestSnapshotJson::nodeKeys()
{
    QFETCH(QString, node);
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    const QJsonObject json = roundTrip(SnapshotJson::toJson(sampleSnapshot()));
    const QJsonObject n = byKey(json.value(QLatin1String("nodes")).toArray(), QStringLiteral("name"), node);
    QVERIFY2(!n.isEmpty(), qPrintable(node));
    QVERIFY2(n.contains(key), qPrintable(key));
    QCOMPARE(n.value(key), value);
}

void TestSnapshotJson::jobKeys_data()
{
    QTest::addColumn<QString>("job");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    const auto row = [](const char *job, const char *key, const QJsonValue &v) {
        QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(job, key))) << QString::fromLatin1(job) << QString::fromLatin1(key) << v;
    };
    row("6", "id", QStringLiteral("6"));
    row("6", "name", QStringLiteral("multi;node $(rm -rf /) `id`\n"));
    row("6", "user", QStringLiteral("root"));
    row("6", "state", QStringLiteral("RUNNING"));
    row("6", "partition", QStringLiteral("train"));
    row("6", "nodes", QJsonArray{QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")});
    row("6", "gpusRequested", 2);
    row("6", "timeUsedSeconds", 12);
    row("6", "timeLimitSeconds", 0);
    row("6", "arrayJobId", QJsonValue(QJsonValue::Null));
    row("7_3", "arrayJobId", QStringLiteral("7"));
    row("7_3", "arrayTaskId", QStringLiteral("3"));
    row("7_3", "state", QStringLiteral("PENDING"));
    row("7_3", "reason", QStringLiteral("Resources"));
    row("7_3", "nodes", QJsonArray{});
    row("7_3", "gpus", QJsonObject{});
    row("7_3", "timeUsedSeconds", QJsonValue(QJsonValue::Null));
    row("6", "framework", QStringLiteral("vllm"));
    row("6", "app", QJsonObject{{QStringLiteral("server"), QStringLiteral("vllm")},
                                {QStringLiteral("tokensPerSecond"), 480.0},
                                {QStringLiteral("requestsRunning"), 0.0},
                                {QStringLiteral("requestsWaiting"), QJsonValue(QJsonValue::Null)},
                                {QStringLiteral("requestsPerSecond"), QJsonValue(QJsonValue::Null)},
                                {QStringLiteral("timeToFirstTokenSeconds"), QJsonValue(QJsonValue::Null)},
                                {QStringLiteral("timePerOutputTokenSeconds"), QJsonValue(QJsonValue::Null)},
                                {QStringLiteral("requestLatencySeconds"), QJsonValue(QJsonValue::Null)},
                                {QStringLiteral("stepSeconds"), QJsonValue(QJsonValue::Null)},
                                {QStringLiteral("samplesPerSecond"), QJsonValue(QJsonValue::Null)},
                                {QStringLiteral("loss"), QJsonValue(QJsonValue::Null)}});
    row("7_3", "app", QJsonValue(QJsonValue::Null));
    row("7_3", "framework", QJsonValue(QJsonValue::Null));
    // Slurm jobs are no Kubernetes workloads: null kind, no pods or roles.
    row("6", "workloadKind", QJsonValue(QJsonValue::Null));
    row("6", "workloadApiVersion", QJsonValue(QJsonValue::Null));
    row("6", "pods", QJsonArray{});
    row("6", "roles", QJsonArray{});
    row("6", "restarts", 0);
}

void TestSnapshotJson::jobKeys()
{
    QFETCH(QString, job);
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    const QJsonObject json = roundTrip(SnapshotJson::toJson(sampleSnapshot()));
    const QJsonObject j = byKey(json.value(QLatin1String("jobs")).toArray(), QStringLiteral("id"), job);
    QVERIFY2(!j.isEmpty(), qPrintable(job));
    QVERIFY2(j.contains(key), qPrintable(key));
    QCOMPARE(j.value(key), value);
}

void TestSnapshotJson::kubernetesWorkload()
{
    ClusterSnapshot s;
    Job j;
    j.id = QStringLiteral("ml/PyTorchJob/llama");
    j.workloadKind = QStringLiteral("PyTorchJob");
    j.workloadApiVersion = QStringLiteral("kubeflow.org/v1");
    j.pods = {QStringLiteral("ml/llama-master-0"), QStringLiteral("ml/llama-worker-0")};
    j.restarts = 3;
    WorkloadRole master;
    master.name = QStringLiteral("Master");
    master.desired = 1;
    master.active = 1;
    j.roles << master;
    s.jobs << j;
    const QJsonObject job = roundTrip(SnapshotJson::toJson(s)).value(QLatin1String("jobs")).toArray().at(0).toObject();
    QCOMPARE(job.value(QLatin1String("workloadKind")).toString(), QStringLiteral("PyTorchJob"));
    QCOMPARE(job.value(QLatin1String("workloadApiVersion")).toString(), QStringLiteral("kubeflow.org/v1"));
    QCOMPARE(job.value(QLatin1String("pods")).toArray(),
             (QJsonArray{QStringLiteral("ml/llama-master-0"), QStringLiteral("ml/llama-worker-0")}));
    QCOMPARE(job.value(QLatin1String("restarts")).toInt(), 3);
    // Counts the controller does not report are null, never 0.
    QCOMPARE(job.value(QLatin1String("roles")).toArray(),
             (QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("Master")},
                                     {QStringLiteral("desired"), 1},
                                     {QStringLiteral("active"), 1},
                                     {QStringLiteral("ready"), QJsonValue(QJsonValue::Null)},
                                     {QStringLiteral("succeeded"), QJsonValue(QJsonValue::Null)},
                                     {QStringLiteral("failed"), QJsonValue(QJsonValue::Null)}}}));
}

void TestSnapshotJson::jobGpusMapNodeToIndices()
{
    const QJsonObject json = roundTrip(SnapshotJson::toJson(sampleSnapshot()));
    const QJsonObject job = byKey(json.value(QLatin1String("jobs")).toArray(), QStringLiteral("id"), QStringLiteral("6"));
    QCOMPARE(job.value(QLatin1String("gpus")).toObject(),
             (QJsonObject{{QStringLiteral("gpu-node01"), QJsonArray{6}}, {QStringLiteral("gpu-node02"), QJsonArray{0}}}));
    // The node side names the same job on the same GPU.
    const QJsonObject node = byKey(json.value(QLatin1String("nodes")).toArray(), QStringLiteral("name"), QStringLiteral("gpu-node02"));
    const QJsonArray gpus = node.value(QLatin1String("gpus")).toArray();
    QCOMPARE(gpus.size(), 8);
    QCOMPARE(gpus[0].toObject().value(QLatin1String("job")).toString(), QStringLiteral("6"));
    QCOMPARE(gpus[0].toObject().value(QLatin1String("index")).toInt(), 0);
    QVERIFY(gpus[1].toObject().value(QLatin1String("job")).isNull());
}

void TestSnapshotJson::missingMetricsAreNull_data()
{
    QTest::addColumn<int>("gpu");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    for (const char *key : {"util", "tensorActive", "memUsedMiB", "memFreeMiB", "tempC", "powerW", "smClockMHz",
                            "xid", "pcieReplays", "uncorrectableRemappedRows", "rowRemapFailure"}) {
        QTest::newRow(qPrintable(QStringLiteral("gpu 0 %1").arg(key))) << 0 << QString::fromLatin1(key) << QJsonValue(QJsonValue::Null);
    }
    QTest::newRow("gpu 6 util measured") << 6 << "util" << QJsonValue(97.5);
    QTest::newRow("gpu 6 xid real zero") << 6 << "xid" << QJsonValue(0.0);
    QTest::newRow("gpu 6 temp missing") << 6 << "tempC" << QJsonValue(QJsonValue::Null);
    QTest::newRow("gpu 0 uuid unknown") << 0 << "uuid" << QJsonValue(QJsonValue::Null);
    QTest::newRow("gpu 0 seenByExporter") << 0 << "seenByExporter" << QJsonValue(false);
    QTest::newRow("gpu 6 seenByExporter") << 6 << "seenByExporter" << QJsonValue(true);
}

void TestSnapshotJson::missingMetricsAreNull()
{
    QFETCH(int, gpu);
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    const QJsonObject json = roundTrip(SnapshotJson::toJson(sampleSnapshot()));
    const QJsonObject node = byKey(json.value(QLatin1String("nodes")).toArray(), QStringLiteral("name"), QStringLiteral("gpu-node01"));
    const QJsonObject g = node.value(QLatin1String("gpus")).toArray().at(gpu).toObject();
    QVERIFY2(g.contains(key), qPrintable(key));
    QCOMPARE(g.value(key), value);
}

void TestSnapshotJson::unknownValuesAreNull()
{
    const QJsonObject json = roundTrip(SnapshotJson::toJson(sampleSnapshot()));
    const QJsonObject job = byKey(json.value(QLatin1String("jobs")).toArray(), QStringLiteral("id"), QStringLiteral("6"));
    for (const char *key : {"gpuUtilMean", "gpuUtilMin", "efficiency"})
        QVERIFY2(job.value(QLatin1String(key)).isNull(), key);
    const QJsonObject partition = json.value(QLatin1String("partitions")).toArray().at(0).toObject();
    QCOMPARE(partition.value(QLatin1String("maxTimeSeconds")), QJsonValue(0));
    QCOMPARE(partition.value(QLatin1String("totalGpus")), QJsonValue(16));
    QCOMPARE(partition.value(QLatin1String("default")), QJsonValue(true));
}

void TestSnapshotJson::topLevel()
{
    const QJsonObject json = roundTrip(SnapshotJson::toJson(sampleSnapshot()));
    QCOMPARE(json.value(QLatin1String("schema")).toString(), QStringLiteral("strata.snapshot/1"));
    QCOMPARE(json.value(QLatin1String("cluster")).toString(), QStringLiteral("strata-lab"));
    QCOMPARE(json.value(QLatin1String("orchestrator")).toString(), QStringLiteral("slurm"));
    QCOMPARE(json.value(QLatin1String("takenAt")).toString(), QStringLiteral("2026-12-02T13:55:20Z"));
    QCOMPARE(json.value(QLatin1String("nodes")).toArray().size(), 3);
    QCOMPARE(json.value(QLatin1String("jobs")).toArray().size(), 2);
    const QJsonObject totals = json.value(QLatin1String("totals")).toObject();
    QCOMPARE(totals.value(QLatin1String("nodes")).toInt(), 3);
    QCOMPARE(totals.value(QLatin1String("gpus")).toInt(), 16);
    QCOMPARE(totals.value(QLatin1String("gpusBusy")).toInt(), 2);
    QCOMPARE(totals.value(QLatin1String("gpusIdle")).toInt(), 14);
    QCOMPARE(totals.value(QLatin1String("jobsRunning")).toInt(), 1);
    QCOMPARE(totals.value(QLatin1String("jobsPending")).toInt(), 1);
    // The instance layer: one group per instance type, GPU-less nodes as "unknown".
    const QJsonArray instances = json.value(QLatin1String("instances")).toArray();
    const QJsonObject p5 = byKey(instances, QStringLiteral("instanceType"), QStringLiteral("p5.48xlarge"));
    QCOMPARE(p5.value(QLatin1String("nodes")).toInt(), 2);
    QCOMPARE(p5.value(QLatin1String("gpus")).toInt(), 16);
    QCOMPARE(byKey(instances, QStringLiteral("instanceType"), QStringLiteral("unknown")).value(QLatin1String("nodes")).toInt(), 1);
    // The workload layer: running and pending jobs by framework.
    const QJsonArray workloads = json.value(QLatin1String("workloads")).toArray();
    QCOMPARE(workloads.size(), 2);
    const QJsonObject vllm = byKey(workloads, QStringLiteral("framework"), QStringLiteral("vllm"));
    QCOMPARE(vllm.value(QLatin1String("kinds")).toArray(), QJsonArray{QStringLiteral("serving")});
    QCOMPARE(vllm.value(QLatin1String("jobsRunning")).toInt(), 1);
    QCOMPARE(vllm.value(QLatin1String("jobsPending")).toInt(), 0);
    QCOMPARE(vllm.value(QLatin1String("gpusHeld")).toInt(), 2);
    QCOMPARE(vllm.value(QLatin1String("tokensPerSecond")).toDouble(), 480.0);
    const QJsonObject other = byKey(workloads, QStringLiteral("framework"), QStringLiteral("unrecognised"));
    QCOMPARE(other.value(QLatin1String("jobsPending")).toInt(), 1);
    QCOMPARE(other.value(QLatin1String("kinds")).toArray(), QJsonArray{});
    QVERIFY(other.value(QLatin1String("tokensPerSecond")).isNull());
}

void TestSnapshotJson::gpuSharing()
{
    // Whole GPUs: null. Time-slicing: shares; MIG: devices per profile (allocated for each).
    ClusterSnapshot snapshot;
    Node t4 = h100Node(QStringLiteral("t4-node"), 0);
    t4.gpuModel = QStringLiteral("T4");
    t4.gpuCount = 1;
    t4.gpus.resize(1);
    t4.gpusAllocated = 1;
    t4.gpuSharing.strategy = QStringLiteral("time-slicing");
    t4.gpuSharing.resource = QStringLiteral("nvidia.com/gpu");
    t4.gpuSharing.replicas = 8;
    t4.gpuSharing.shares = 8;
    t4.gpuSharing.sharesAllocated = 3;
    Node mig = h100Node(QStringLiteral("mig-node"), 0);
    mig.gpuSharing.strategy = QStringLiteral("mig-mixed");
    mig.gpuSharing.migSlicesPerGpu = 7;
    mig.gpuSharing.migDevices = {{QStringLiteral("1g.10gb"), 7}, {QStringLiteral("3g.40gb"), 2}};
    mig.gpuSharing.migDevicesAllocated = {{QStringLiteral("1g.10gb"), 2}};
    snapshot.nodes = {t4, mig, h100Node(QStringLiteral("whole-node"), 0)};
    const QJsonArray nodes = roundTrip(SnapshotJson::toJson(snapshot)).value(QLatin1String("nodes")).toArray();

    const QJsonObject whole = byKey(nodes, QStringLiteral("name"), QStringLiteral("whole-node"));
    QVERIFY(whole.contains(QLatin1String("gpuSharing")));
    QCOMPARE(whole.value(QLatin1String("gpuSharing")), QJsonValue(QJsonValue::Null));

    const QJsonObject shared = byKey(nodes, QStringLiteral("name"), QStringLiteral("t4-node"))
                                   .value(QLatin1String("gpuSharing")).toObject();
    QCOMPARE(shared.value(QLatin1String("strategy")).toString(), QStringLiteral("time-slicing"));
    QCOMPARE(shared.value(QLatin1String("resource")).toString(), QStringLiteral("nvidia.com/gpu"));
    QCOMPARE(shared.value(QLatin1String("replicas")).toInt(), 8);
    QCOMPARE(shared.value(QLatin1String("shares")).toInt(), 8);
    QCOMPARE(shared.value(QLatin1String("sharesAllocated")).toInt(), 3);
    QCOMPARE(shared.value(QLatin1String("migDevices")).toObject(), QJsonObject());
    QCOMPARE(byKey(nodes, QStringLiteral("name"), QStringLiteral("t4-node")).value(QLatin1String("gpuCount")).toInt(), 1);

    const QJsonObject m = byKey(nodes, QStringLiteral("name"), QStringLiteral("mig-node"))
                              .value(QLatin1String("gpuSharing")).toObject();
    QCOMPARE(m.value(QLatin1String("strategy")).toString(), QStringLiteral("mig-mixed"));
    QCOMPARE(m.value(QLatin1String("resource")), QJsonValue(QJsonValue::Null));
    QCOMPARE(m.value(QLatin1String("replicas")), QJsonValue(QJsonValue::Null));
    QCOMPARE(m.value(QLatin1String("shares")), QJsonValue(QJsonValue::Null));
    QCOMPARE(m.value(QLatin1String("migDevices")).toObject(), (QJsonObject{{"1g.10gb", 7}, {"3g.40gb", 2}}));
    QCOMPARE(m.value(QLatin1String("migDevicesAllocated")).toObject(), (QJsonObject{{"1g.10gb", 2}, {"3g.40gb", 0}}));
}

void TestSnapshotJson::mixedGpuModels()
{
    // A node with GRES gpu:h100:2,gpu:h200:4: each GPU its model, the node "H100+H200", and its
    // instance group counting GPUs per model (what peak figures are summed over).
    ClusterSnapshot snapshot;
    Node mixed = h100Node(QStringLiteral("gpu-mixed01"), 0);
    mixed.instanceType.clear();
    mixed.gpuCount = 6;
    mixed.gpus.resize(6);
    for (int i = 2; i < 6; ++i)
        mixed.gpus[i].model = QStringLiteral("H200");
    mixed.gpuModel = QStringLiteral("H100+H200");
    snapshot.nodes = {mixed, h100Node(QStringLiteral("gpu-node01"), 0)};
    snapshot.finalize();
    const QJsonObject json = roundTrip(SnapshotJson::toJson(snapshot));
    const QJsonObject node = byKey(json.value(QLatin1String("nodes")).toArray(), QStringLiteral("name"), QStringLiteral("gpu-mixed01"));
    QCOMPARE(node.value(QLatin1String("gpuModel")).toString(), QStringLiteral("H100+H200"));
    const QJsonArray gpus = node.value(QLatin1String("gpus")).toArray();
    QCOMPARE(gpus.size(), 6);
    QCOMPARE(gpus[1].toObject().value(QLatin1String("model")).toString(), QStringLiteral("H100"));
    QCOMPARE(gpus[2].toObject().value(QLatin1String("model")).toString(), QStringLiteral("H200"));
    const QJsonArray instances = json.value(QLatin1String("instances")).toArray();
    const QJsonObject unknown = byKey(instances, QStringLiteral("instanceType"), QStringLiteral("unknown"));
    QCOMPARE(unknown.value(QLatin1String("gpuModel")).toString(), QStringLiteral("H100+H200"));
    QCOMPARE(unknown.value(QLatin1String("gpusByModel")).toObject(), (QJsonObject{{"H100", 2}, {"H200", 4}}));
    const QJsonObject p5 = byKey(instances, QStringLiteral("instanceType"), QStringLiteral("p5.48xlarge"));
    QCOMPARE(p5.value(QLatin1String("gpuModel")).toString(), QStringLiteral("H100"));
    QCOMPARE(p5.value(QLatin1String("gpusByModel")).toObject(), (QJsonObject{{"H100", 8}}));
}

QTEST_GUILESS_MAIN(TestSnapshotJson)
// writeIndented is QJsonDocument's indented text of toJson, byte for byte, whatever the piece
// size: with jobs, without, and with hostile job names (quotes, newlines, unicode).
void TestSnapshotJson::writtenInPiecesAsTheDocumentWrites_data()
{
    QTest::addColumn<int>("jobs");
    QTest::addColumn<qsizetype>("chunkBytes");
    QTest::newRow("sample, 1 MB pieces") << -1 << qsizetype(1 << 20);
    QTest::newRow("sample, 1-byte pieces") << -1 << qsizetype(1);
    QTest::newRow("no jobs") << 0 << qsizetype(1 << 20);
    QTest::newRow("one job") << 1 << qsizetype(64);
    QTest::newRow("500 jobs, 4 KB pieces") << 500 << qsizetype(4096);
}

void TestSnapshotJson::writtenInPiecesAsTheDocumentWrites()
{
    QFETCH(int, jobs);
    QFETCH(qsizetype, chunkBytes);
    ClusterSnapshot s = sampleSnapshot();
    if (jobs >= 0) {
        const QVector<Job> sample = s.jobs;
        QVERIFY(!sample.isEmpty());
        s.jobs.clear();
        for (int i = 0; i < jobs; ++i) {
            Job j = sample[i % sample.size()];
            j.id = QString::number(1000 + i);
            j.name = i % 2 ? QStringLiteral("evil \"name\"\n\t\\ with \u00e9\u4e2d") : QStringLiteral("train-%1").arg(i);
            s.jobs << j;
        }
    }
    const QByteArray expected = QJsonDocument(SnapshotJson::toJson(s)).toJson(QJsonDocument::Indented);
    QByteArray written;
    int pieces = 0;
    SnapshotJson::writeIndented(s, [&](const QByteArray &piece) {
        written += piece;
        ++pieces;
    }, chunkBytes);
    QCOMPARE(written, expected);
    QVERIFY(QJsonDocument::fromJson(written).isObject());
    QCOMPARE(QJsonDocument::fromJson(written).object().value(QLatin1String("jobs")).toArray().size(),
             jobs >= 0 ? jobs : sampleSnapshot().jobs.size());
    if (chunkBytes == 1 && !s.jobs.isEmpty())
        QCOMPARE(pieces, int(s.jobs.size()) + 1); // a piece per job, then the rest
}

#include "tst_snapshot_json.moc"
