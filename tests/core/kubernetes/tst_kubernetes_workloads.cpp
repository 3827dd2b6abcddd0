// KubernetesPartBuilder with workload kinds: the lab stand-in's capture of the done-when
// set (a PyTorchJob 2x8, a LeaderWorkerSet, a RayJob with its RayCluster and submitter Job, a
// vLLM Deployment, a Kueue-pending JobSet with its suspended Job) grouped as one workload each
// with its nodes, GPU indices, pods, roles and state; KubeOwnerChain on owners Strata does not
// list, static pods, cycles and deleted Jobs.
#include "kube_test_data.h"
#include "kubernetes/kube_job_parser.h"
#include "kubernetes/kube_node_parser.h"
#include "kubernetes/kube_owner_chain.h"
#include "kubernetes/kube_pod_parser.h"
#include "kubernetes/kube_workload_parser.h"
#include "kubernetes/kubernetes_part_builder.h"
#include "model/cluster_snapshot.h"
#include "model/gpu_catalog.h"

#include <QTest>

using namespace strata;

using GpuMap = QMap<QString, QVector<int>>;
Q_DECLARE_METATYPE(GpuMap)

namespace {

QVector<KubeWorkload> standinWorkloads()
{
    const std::pair<const char *, const char *> lists[] = {
        {"deployments", "Deployment"}, {"replicasets", "ReplicaSet"}, {"statefulsets", "StatefulSet"},
        {"pytorchjobs", "PyTorchJob"}, {"jobsets", "JobSet"}, {"rayjobs", "RayJob"},
        {"rayclusters", "RayCluster"}, {"leaderworkersets", "LeaderWorkerSet"}};
    const QMap<QString, QString> versions{{"Deployment", "apps/v1"}, {"ReplicaSet", "apps/v1"}, {"StatefulSet", "apps/v1"},
                                          {"PyTorchJob", "kubeflow.org/v1"}, {"JobSet", "jobset.x-k8s.io/v1alpha2"},
                                          {"RayJob", "ray.io/v1"}, {"RayCluster", "ray.io/v1"},
                                          {"LeaderWorkerSet", "leaderworkerset.x-k8s.io/v1"}};
    QVector<KubeWorkload> all;
    for (const auto &[file, kind] : lists) {
        const KubeWorkloadParseResult parsed = KubeWorkloadParser::parse(
            kubeTestData(QStringLiteral("standin_workloads_%1.json").arg(QLatin1String(file))), QLatin1StringView(kind),
            versions.value(QLatin1String(kind)));
        if (!parsed.error.isEmpty())
            qFatal("%s: %s", file, qPrintable(parsed.error));
        all += parsed.workloads;
    }
    return all;
}

OrchestratorPart standinPart()
{
    return KubernetesPartBuilder::build(
        KubeNodeParser::parse(kubeTestData(QStringLiteral("standin_nodes.json")), GpuCatalog::builtIn()).nodes,
        KubePodParser::parse(kubeTestData(QStringLiteral("standin_workloads_pods.json"))).pods,
        KubeJobParser::parse(kubeTestData(QStringLiteral("standin_workloads_jobs.json"))).jobs, standinWorkloads(),
        1796230000);
}

const Job *findJob(const OrchestratorPart &part, const QString &id)
{
    for (const Job &j : part.jobs)
        if (j.id == id)
            return &j;
    return nullptr;
}

KubePod pod(const QString &name, const QString &uid, const QString &ownerKind, const QString &ownerUid, int gpus)
{
    KubePod p;
    p.namespaceName = QStringLiteral("ns");
    p.name = name;
    p.uid = uid;
    p.ownerKind = ownerKind;
    p.ownerName = ownerKind.isEmpty() ? QString() : QStringLiteral("owner-") + ownerUid;
    p.ownerUid = ownerUid;
    p.ownerApiVersion = ownerKind == QLatin1String("Job") ? QStringLiteral("batch/v1") : QStringLiteral("example.com/v1");
    p.gpus = gpus;
    p.phase = QStringLiteral("Running");
    p.nodeName = QStringLiteral("n1");
    return p;
}

KubeWorkload workload(const QString &kind, const QString &name, const QString &uid, const QString &ownerKind,
                      const QString &ownerUid)
{
    KubeWorkload w;
    w.kind = kind;
    w.apiVersion = QStringLiteral("apps/v1");
    w.namespaceName = QStringLiteral("ns");
    w.name = name;
    w.uid = uid;
    w.owner = {QStringLiteral("apps/v1"), ownerKind, QStringLiteral("owner-") + ownerUid, ownerUid};
    if (ownerKind.isEmpty())
        w.owner = {};
    return w;
}

} // namespace

class TestKubernetesWorkloads : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void standin_data();
    void standin();
    void standinOnlyWorkloads();
    void gpuLeadsToItsWorkload();
    void chains();
    void workloadIds_data();
    void workloadIds();
};

void TestKubernetesWorkloads::standin_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("apiVersion");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QString>("reasonPart");
    QTest::addColumn<QStringList>("nodes");
    QTest::addColumn<GpuMap>("gpus");
    QTest::addColumn<int>("pods");
    QTest::addColumn<int>("gpusRequested");
    QTest::addColumn<QString>("queue");
    QTest::addColumn<int>("roles");
    const QVector<int> all8{0, 1, 2, 3, 4, 5, 6, 7};
    QTest::newRow("PyTorchJob 2x8") << "default/PyTorchJob/llama-pretrain" << "PyTorchJob" << "kubeflow.org/v1" << "RUNNING" << ""
                                    << QStringList{"kube-gpu-01", "kube-gpu-02"}
                                    << GpuMap{{"kube-gpu-01", all8}, {"kube-gpu-02", all8}} << 2 << 16 << "" << 2;
    QTest::newRow("LeaderWorkerSet: leader and the group its pod owns")
        << "default/LeaderWorkerSet/vllm-llama-70b" << "LeaderWorkerSet" << "leaderworkerset.x-k8s.io/v1" << "RUNNING" << ""
        << QStringList{"kube-gpu-03", "kube-gpu-04"}
        << GpuMap{{"kube-gpu-03", {0, 1, 2, 3}}, {"kube-gpu-04", {0, 1, 2, 3}}} << 2 << 8 << "" << 2;
    QTest::newRow("RayJob: its RayCluster and submitter Job") << "default/RayJob/ray-batch-inference" << "RayJob" << "ray.io/v1"
                                                             << "RUNNING" << "" << QStringList{"kube-gpu-03", "kube-gpu-04"}
                                                             << GpuMap{{"kube-gpu-03", {4}}} << 3 << 1 << "" << 2;
    QTest::newRow("Deployment through its ReplicaSet") << "default/Deployment/vllm-qwen" << "Deployment" << "apps/v1" << "RUNNING"
                                                       << "" << QStringList{"kube-gpu-04"} << GpuMap{{"kube-gpu-04", {4, 5}}}
                                                       << 2 << 2 << "" << 1;
    QTest::newRow("JobSet waiting for Kueue, no pods") << "default/JobSet/mixtral-finetune" << "JobSet" << "jobset.x-k8s.io/v1alpha2"
                                                       << "PENDING" << "waiting for Kueue to admit it (queue lab-queue)"
                                                       << QStringList{} << GpuMap{} << 0 << 16 << "lab-queue" << 1;
}

void TestKubernetesWorkloads::standin()
{
    const OrchestratorPart part = standinPart();
    QFETCH(QString, id);
    const Job *j = findJob(part, id);
    QVERIFY2(j, qPrintable(id));
    QTEST(j->workloadKind, "kind");
    QTEST(j->workloadApiVersion, "apiVersion");
    QTEST(j->state, "state");
    QFETCH(QString, reasonPart);
    if (reasonPart.isEmpty())
        QVERIFY2(j->reason.isEmpty(), qPrintable(j->reason));
    else
        QVERIFY2(j->reason.contains(reasonPart), qPrintable(j->reason));
    QTEST(j->nodes, "nodes");
    QTEST(j->gpus, "gpus");
    QTEST(int(j->pods.size()), "pods");
    for (const QString &p : j->pods)
        QVERIFY2(p.startsWith(QLatin1String("default/")), qPrintable(p));
    QTEST(j->gpusRequested, "gpusRequested");
    QTEST(j->queueName, "queue");
    QTEST(int(j->roles.size()), "roles");
    QCOMPARE(j->name, id.section(u'/', 2));
    QCOMPARE(j->partition, QStringLiteral("default"));
    QCOMPARE(j->restarts, 0);
    QVERIFY(j->submitTime > 0);
}

void TestKubernetesWorkloads::standinOnlyWorkloads()
{
    // Five workloads, nothing else: the ReplicaSet, the StatefulSets, the RayCluster and the two
    // batch Jobs are parts of them; the nodes' GPU holders are the pods as before.
    const OrchestratorPart part = standinPart();
    QStringList ids;
    for (const Job &j : part.jobs)
        ids << j.id;
    ids.sort();
    QCOMPARE(ids, (QStringList{"default/Deployment/vllm-qwen", "default/JobSet/mixtral-finetune",
                               "default/LeaderWorkerSet/vllm-llama-70b", "default/PyTorchJob/llama-pretrain",
                               "default/RayJob/ray-batch-inference"}));
    const Job *lws = findJob(part, "default/LeaderWorkerSet/vllm-llama-70b");
    QCOMPARE(lws->pods, (QStringList{"default/vllm-llama-70b-0", "default/vllm-llama-70b-0-1"}));
    QCOMPARE(lws->worldSize, std::optional<int>(8));
    const Job *pytorch = findJob(part, "default/PyTorchJob/llama-pretrain");
    QCOMPARE(pytorch->framework, QStringLiteral("torch.distributed"));
    QCOMPARE(pytorch->worldSize, std::optional<int>(16));
    QCOMPARE(pytorch->roles[0].name, QStringLiteral("Master"));
    QCOMPARE(pytorch->roles[0].active, 1);
}

void TestKubernetesWorkloads::gpuLeadsToItsWorkload()
{
    // The overview's links: a node's GPU names the pod holding it; the snapshot leads from it to
    // the workload the Jobs table lists, and from the workload to its nodes and GPU indices.
    const OrchestratorPart part = standinPart();
    ClusterSnapshot snapshot;
    snapshot.nodes = part.nodes;
    snapshot.jobs = part.jobs;
    snapshot.finalize();
    const Node *node = nullptr;
    for (const Node &n : snapshot.nodes)
        if (n.name == QLatin1String("kube-gpu-04"))
            node = &n;
    QVERIFY(node);
    QCOMPARE(node->gpus[0].jobId, QStringLiteral("default/vllm-llama-70b-0-1")); // the LWS worker pod
    const Job *held = snapshot.job(node->gpus[0].jobId);
    QVERIFY(held);
    QCOMPARE(held->id, QStringLiteral("default/LeaderWorkerSet/vllm-llama-70b"));
    QCOMPARE(held->gpus.value(QStringLiteral("kube-gpu-04")), (QVector<int>{0, 1, 2, 3}));
    QCOMPARE(snapshot.job(node->gpus[4].jobId)->id, QStringLiteral("default/Deployment/vllm-qwen"));
    QCOMPARE(snapshot.job(QStringLiteral("default/PyTorchJob/llama-pretrain"))->name, QStringLiteral("llama-pretrain"));
}

void TestKubernetesWorkloads::chains()
{
    // ns/d (DaemonSet, not listed) owns two GPU pods; ns/cron (CronJob, not listed) owns a batch
    // Job whose pod has no GPUs; a Deployment -> ReplicaSet -> pod; a pod whose Job is gone; two
    // objects owning each other; a static pod (owned by its Node); a bare CPU pod.
    const QVector<KubePod> pods{pod("d-1", "p1", "DaemonSet", "d", 1), pod("d-2", "p2", "DaemonSet", "d", 1),
                                pod("cron-job-1", "p3", "Job", "j1", 0), pod("web-1", "p4", "ReplicaSet", "rs", 1),
                                pod("gone-1", "p5", "Job", "gone", 4), pod("loop-1", "p6", "ReplicaSet", "loopA", 2),
                                pod("etcd-n1", "p7", "Node", "n1", 1), pod("shell", "p8", "", "", 0)};
    KubeJob cronJob;
    cronJob.namespaceName = "ns";
    cronJob.name = "cron-job";
    cronJob.uid = "j1";
    cronJob.owner = {"batch/v1", "CronJob", "cron", "cron-uid"};
    const QVector<KubeWorkload> workloads{workload("Deployment", "web", "dep", "", ""),
                                          workload("ReplicaSet", "web-rs", "rs", "Deployment", "dep"),
                                          workload("ReplicaSet", "loop-a", "loopA", "ReplicaSet", "loopB"),
                                          workload("ReplicaSet", "loop-b", "loopB", "ReplicaSet", "loopA")};
    const QVector<KubeOwnerChain::Group> groups = KubeOwnerChain::group(pods, {cronJob}, workloads);
    QMap<QString, QStringList> podsOf;
    for (const KubeOwnerChain::Group &g : groups)
        for (const KubePod *p : g.pods)
            podsOf[g.top.id] << p->name;
    QCOMPARE(podsOf.value("ns/DaemonSet/owner-d"), (QStringList{"d-1", "d-2"}));
    QCOMPARE(podsOf.value("ns/CronJob/cron"), QStringList{"cron-job-1"});
    QCOMPARE(podsOf.value("ns/Deployment/web"), QStringList{"web-1"});
    QCOMPARE(podsOf.value("ns/etcd-n1"), QStringList{"etcd-n1"});
    QCOMPARE(podsOf.value("ns/shell"), QStringList{"shell"});
    // The cycle ends after kMaxDepth steps at the owner named there: a workload, not a hang.
    QCOMPARE(podsOf.value("ns/ReplicaSet/owner-loopA").size() + podsOf.value("ns/ReplicaSet/owner-loopB").size(), 1);
    for (const auto &[id, names] : podsOf.asKeyValueRange())
        QVERIFY2(!names.contains("gone-1"), qPrintable(id)); // its Job was deleted

    const OrchestratorPart part = KubernetesPartBuilder::build({}, pods, {cronJob}, workloads, 1796230000);
    QStringList ids;
    for (const Job &j : part.jobs)
        ids << j.id;
    ids.sort();
    // Shown: the listed Deployment, and the unlisted owners and bare pods that ask for GPUs.
    QVERIFY2(ids.contains("ns/Deployment/web"), qPrintable(ids.join(' ')));
    QVERIFY(ids.contains("ns/DaemonSet/owner-d"));
    QVERIFY(ids.contains("ns/etcd-n1"));
    QVERIFY(!ids.contains("ns/CronJob/cron")); // no GPUs
    QVERIFY(!ids.contains("ns/shell"));
    const Job *daemons = findJob(part, "ns/DaemonSet/owner-d");
    QCOMPARE(daemons->workloadKind, QStringLiteral("DaemonSet"));
    QCOMPARE(daemons->workloadApiVersion, QStringLiteral("example.com/v1"));
    QCOMPARE(daemons->state, QStringLiteral("RUNNING"));
    QCOMPARE(daemons->gpusRequested, 2);
    QCOMPARE(daemons->pods, (QStringList{"ns/d-1", "ns/d-2"}));
    QCOMPARE(findJob(part, "ns/etcd-n1")->workloadKind, QStringLiteral("Pod"));
}

void TestKubernetesWorkloads::workloadIds_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<bool>("valid");
    QTest::newRow("PyTorchJob") << "ml/PyTorchJob/llama-pretrain" << true;
    QTest::newRow("two parts") << "ml/llama" << false;
    QTest::newRow("four parts") << "ml/a/b/c" << false;
    QTest::newRow("option as name") << "ml/Deployment/--all" << false;
    QTest::newRow("kind with a dot") << "ml/jobs.batch/x" << false;
    QTest::newRow("namespace upper case") << "ML/Deployment/x" << false;
}

void TestKubernetesWorkloads::workloadIds()
{
    QFETCH(QString, id);
    QString ns, kind, name, error;
    const bool ok = KubeOwnerChain::splitWorkloadId(id, &ns, &kind, &name, &error);
    QTEST(ok, "valid");
    if (ok)
        QCOMPARE(KubeOwnerChain::workloadId(ns, kind, name), id);
    else
        QVERIFY(error.contains("NAMESPACE/KIND/NAME"));
}

QTEST_GUILESS_MAIN(TestKubernetesWorkloads)
#include "tst_kubernetes_workloads.moc"
