// KubeWorkloadParser on each workload kind: the lists the lab's kube stand-in serves (the API's
// typed lists: built-in kinds' items without kind/apiVersion, custom resources' with them) and objects written from the upstream projects'
// documented examples and status shapes (Kubeflow's pytorch-simple, the MPI operator's
// nccl-tests, Kubeflow Trainer, HyperPod, JobSet, KubeRay, LeaderWorkerSet's vLLM example):
// phase, reason, roles, GPUs at full size, framework and world size, owner; hostile documents.
#include "kube_test_data.h"
#include "kubernetes/kube_workload_parser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace strata;
using Phase = KubeWorkload::Phase;

Q_DECLARE_METATYPE(KubeWorkload::Phase)

namespace {

// "name:desired/active/ready/succeeded/failed;..." with "-" for -1: a row's roles in one cell.
QString rolesText(const QVector<WorkloadRole> &roles)
{
    QStringList out;
    const auto n = [](int v) { return v < 0 ? QStringLiteral("-") : QString::number(v); };
    for (const WorkloadRole &r : roles)
        out << QStringLiteral("%1:%2/%3/%4/%5/%6").arg(r.name, n(r.desired), n(r.active), n(r.ready), n(r.succeeded), n(r.failed));
    return out.join(u';');
}

} // namespace

class TestKubeWorkloadParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void upstream_data();
    void upstream();
    void standinLists_data();
    void standinLists();
    void unusableDocuments_data();
    void unusableDocuments();
    void hostileCounts();

private:
    void columns();
    void check(const KubeWorkload &w);
};

void TestKubeWorkloadParser::columns()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<Phase>("phase");
    QTest::addColumn<QString>("reasonPart");
    QTest::addColumn<QString>("roles");
    QTest::addColumn<int>("gpusWanted");
    QTest::addColumn<QString>("framework");
    QTest::addColumn<int>("worldSize"); // -1: none
    QTest::addColumn<QString>("commandPart");
    QTest::addColumn<QString>("ownerKind");
}

void TestKubeWorkloadParser::check(const KubeWorkload &w)
{
    QTEST(w.phase, "phase");
    QFETCH(QString, reasonPart);
    if (reasonPart.isEmpty())
        QVERIFY2(w.reason.isEmpty(), qPrintable(w.reason));
    else
        QVERIFY2(w.reason.contains(reasonPart), qPrintable(w.reason));
    QTEST(rolesText(w.roles), "roles");
    QTEST(w.gpusWanted, "gpusWanted");
    QTEST(w.framework, "framework");
    QTEST(w.worldSize.value_or(-1), "worldSize");
    QFETCH(QString, commandPart);
    QVERIFY2(w.command.contains(commandPart), qPrintable(w.command));
    QVERIFY(!w.image.isEmpty());
    QTEST(w.owner.kind, "ownerKind");
    QVERIFY(!w.uid.isEmpty());
    QVERIFY(w.createdAt > 0);
}

void TestKubeWorkloadParser::upstream_data()
{
    columns();
    QTest::newRow("PyTorchJob succeeded") << "pytorch-simple" << Phase::Succeeded << "successfully completed"
                                          << "Master:1/0/-/1/0;Worker:1/0/-/1/0" << 0 << "torch.distributed" << -1
                                          << "mnist.py" << "";
    QTest::newRow("PyTorchJob failed, elastic") << "elastic-bad" << Phase::Failed << "PyTorchJobFailed: PyTorchJob research/elastic-bad is failed"
                                                << "Worker:2/1/-/0/1" << 8 << "torch.distributed" << 8 << "torchrun" << "";
    QTest::newRow("PyTorchJob suspended (Kueue)") << "queued-ft" << Phase::Suspended << "is suspended"
                                                  << "Worker:4/0/-/0/0" << 32 << "torch.distributed" << 32 << "sft.py" << "";
    QTest::newRow("MPIJob v2beta1") << "nccl-tests" << Phase::Running << "" << "Launcher:1/1/-/0/0;Worker:2/2/-/0/0" << 16
                                    << "" << 16 << "all_reduce_perf" << "";
    QTest::newRow("TrainJob complete") << "torch-fsdp" << Phase::Succeeded << "jobset completed" << "node:2/-/-/-/-" << 8
                                       << "torch.distributed" << 8 << "fsdp.py" << "";
    QTest::newRow("HyperPodPyTorchJob running") << "hp-llama" << Phase::Running << "" << "pod:4/-/-/-/-" << 32
                                                << "torch.distributed" << 32 << "hyperpodrun" << "";
    QTest::newRow("JobSet completed") << "done-js" << Phase::Succeeded << "jobset completed"
                                      << "driver:1/0/0/1/0;workers:4/0/0/4/0" << 32 << "" << -1 << "driver" << "";
    QTest::newRow("RayCluster ready") << "raycluster-kuberay" << Phase::Running << "" << "head:1/-/-/-/-;workergroup:1/-/1/-/-" << 1
                                      << "ray" << 2 << "" << "";
    QTest::newRow("RayJob failed") << "rayjob-failed" << Phase::Failed << "FAILED: Job entrypoint command failed"
                                   << "head:1/-/-/-/-;small-group:2/-/-/-/-" << 4 << "ray" << 3 << "sample_code.py" << "";
    QTest::newRow("Deployment scaled to 0") << "scaled-down" << Phase::Suspended << "scaled to 0" << "replicas:0/0/0/-/-" << 0
                                            << "" << -1 << "--num-shard" << "";
    QTest::newRow("StatefulSet half ready") << "triton" << Phase::Running << "" << "replicas:2/2/1/-/-" << 2 << "" << -1
                                            << "tritonserver" << "";
    QTest::newRow("LeaderWorkerSet progressing") << "vllm-405b" << Phase::Unknown << "" << "leaders:2/2/0/-/-;workers:2/2/0/-/-"
                                                 << 32 << "" << 16 << "vllm.entrypoints.openai.api_server" << "";
}

void TestKubeWorkloadParser::upstream()
{
    QFETCH(QString, name);
    const QJsonArray items = QJsonDocument::fromJson(kubeTestData(QStringLiteral("upstream_workloads.json")))
                                 .object()
                                 .value(QLatin1String("items"))
                                 .toArray();
    for (const QJsonValue &item : items) {
        const QJsonObject object = item.toObject();
        if (object.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString() != name)
            continue;
        const QString kind = object.value(QLatin1String("kind")).toString();
        const QByteArray kindLatin1 = kind.toLatin1();
        // As a watch event hands it over: kind and apiVersion from the object itself.
        const KubeWorkload w = KubeWorkloadParser::parseObject(object, QLatin1StringView(kindLatin1), QString());
        QCOMPARE(w.kind, kind);
        QCOMPARE(w.apiVersion, object.value(QLatin1String("apiVersion")).toString());
        QCOMPARE(w.name, name);
        check(w);
        return;
    }
    QFAIL(qPrintable(QStringLiteral("no object %1 in upstream_workloads.json").arg(name)));
}

void TestKubeWorkloadParser::standinLists_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("apiVersion");
    columns();
    QTest::newRow("PyTorchJob 2x8") << "pytorchjobs" << "PyTorchJob" << "kubeflow.org/v1" << "llama-pretrain" << Phase::Running << ""
                                    << "Master:1/1/-/0/0;Worker:1/1/-/0/0" << 16 << "torch.distributed" << 16 << "torchrun" << "";
    QTest::newRow("JobSet waiting for Kueue") << "jobsets" << "JobSet" << "jobset.x-k8s.io/v1alpha2" << "mixtral-finetune"
                                              << Phase::Suspended << "jobset is suspended" << "trainer:2/0/0/0/0" << 16 << "" << -1
                                              << "" << "";
    QTest::newRow("RayJob running") << "rayjobs" << "RayJob" << "ray.io/v1" << "ray-batch-inference" << Phase::Running << ""
                                    << "head:1/-/-/-/-;gpu-group:1/-/-/-/-" << 1 << "ray" << 2 << "python" << "";
    QTest::newRow("RayCluster of the RayJob") << "rayclusters" << "RayCluster" << "ray.io/v1" << "ray-batch-inference-f5jwq"
                                              << Phase::Running << "" << "head:1/-/-/-/-;gpu-group:1/-/1/-/-" << 1 << "ray" << 2
                                              << "" << "RayJob";
    QTest::newRow("LeaderWorkerSet ready") << "leaderworkersets" << "LeaderWorkerSet" << "leaderworkerset.x-k8s.io/v1"
                                           << "vllm-llama-70b" << Phase::Running << "" << "leaders:1/1/1/-/-;workers:1/1/1/-/-"
                                           << 8 << "" << 8 << "vllm" << "";
    QTest::newRow("Deployment of vLLM") << "deployments" << "Deployment" << "apps/v1" << "vllm-qwen" << Phase::Running << ""
                                        << "replicas:2/2/2/-/-" << 2 << "" << -1 << "vllm" << "";
    QTest::newRow("its ReplicaSet") << "replicasets" << "ReplicaSet" << "apps/v1" << "vllm-qwen-tmvxnjs2bq" << Phase::Running << ""
                                    << "replicas:2/2/2/-/-" << 2 << "" << -1 << "vllm" << "Deployment";
    QTest::newRow("LWS leader StatefulSet") << "statefulsets" << "StatefulSet" << "apps/v1" << "vllm-llama-70b" << Phase::Running
                                            << "" << "replicas:1/1/1/-/-" << 4 << "" << -1 << "vllm" << "LeaderWorkerSet";
    QTest::newRow("LWS group StatefulSet, owned by the leader pod") << "statefulsets" << "StatefulSet" << "apps/v1"
                                                                    << "vllm-llama-70b-0" << Phase::Running << ""
                                                                    << "replicas:1/1/1/-/-" << 4 << "" << -1 << "" << "Pod";
}

void TestKubeWorkloadParser::standinLists()
{
    QFETCH(QString, file);
    QFETCH(QString, kind);
    QFETCH(QString, apiVersion);
    QFETCH(QString, name);
    const QByteArray kindLatin1 = kind.toLatin1();
    const KubeWorkloadParseResult parsed = KubeWorkloadParser::parse(
        kubeTestData(QStringLiteral("standin_workloads_%1.json").arg(file)), QLatin1StringView(kindLatin1), apiVersion);
    QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
    for (const KubeWorkload &w : parsed.workloads) {
        if (w.name != name)
            continue;
        // A built-in kind's typed list leaves kind and apiVersion out of its items (the resource's
        // fill them); a custom resource's list keeps them, checked against the served version.
        QCOMPARE(w.kind, kind);
        QCOMPARE(w.apiVersion, apiVersion);
        QCOMPARE(w.namespaceName, QStringLiteral("default"));
        check(w);
        return;
    }
    QFAIL(qPrintable(QStringLiteral("no %1 %2 in the list").arg(kind, name)));
}

void TestKubeWorkloadParser::unusableDocuments_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("errorPart");
    QTest::newRow("not JSON") << QByteArray("{\"kind\": \"PyTorchJobList\", \"items\": [") << "not JSON";
    QTest::newRow("a Status") << QByteArray(R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","code":404})")
                              << "the server could not find the requested resource";
    QTest::newRow("another version") << QByteArray(R"({"kind":"PyTorchJobList","apiVersion":"kubeflow.org/v1","metadata":{"resourceVersion":"5"},"items":[{"apiVersion":"kubeflow.org/v2","kind":"PyTorchJob","metadata":{"name":"a"}}]})")
                                     << "kubeflow.org/v2, which this Strata does not read (it reads kubeflow.org/v1)";
    QTest::newRow("another kind") << QByteArray(R"({"kind":"List","apiVersion":"v1","items":[{"apiVersion":"kubeflow.org/v1","kind":"TFJob","metadata":{"name":"a"}}]})")
                                  << "expected a list of PyTorchJob objects, got a TFJob";
}

void TestKubeWorkloadParser::unusableDocuments()
{
    QFETCH(QByteArray, json);
    const KubeWorkloadParseResult parsed = KubeWorkloadParser::parse(json, QLatin1StringView("PyTorchJob"), QStringLiteral("kubeflow.org/v1"));
    QFETCH(QString, errorPart);
    QVERIFY2(parsed.error.contains(errorPart), qPrintable(parsed.error));
    QVERIFY(parsed.workloads.isEmpty());
}

void TestKubeWorkloadParser::hostileCounts()
{
    // Counts past int, negative, of the wrong type: clamped or ignored, never overflowing.
    const QByteArray json = R"({"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet",
        "metadata":{"name":"x","namespace":"n","ownerReferences":[{"kind":"A","name":"a","uid":"1"},{"kind":"B","name":"b","uid":"2","controller":true}]},
        "spec":{"replicatedJobs":[{"name":"w","replicas":1e15,"template":{"spec":{"parallelism":4e9,
          "template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":"9999999999"}}}]}}}}},
          {"name":"v","replicas":-3,"template":{"spec":{"parallelism":"8"}}}]},
        "status":{"replicatedJobsStatus":[{"name":"w","active":-1,"ready":"x"}]}})";
    const KubeWorkload w = KubeWorkloadParser::parseObject(QJsonDocument::fromJson(json).object(),
                                                           QLatin1StringView("JobSet"), QString());
    QCOMPARE(w.roles.size(), 2);
    QCOMPARE(w.roles[0].desired, 1 << 20);
    QCOMPARE(w.roles[0].active, 0);
    QCOMPARE(w.roles[1].desired, 0);
    QVERIFY(w.gpusWanted >= 0 && w.gpusWanted <= (1 << 20));
    QCOMPARE(w.owner.kind, QStringLiteral("B")); // the controller, not the first
    QCOMPARE(w.phase, Phase::Unknown);
}

QTEST_GUILESS_MAIN(TestKubeWorkloadParser)
#include "tst_kube_workload_parser.moc"
