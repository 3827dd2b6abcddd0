// KueueParser on Kueue's objects written from its API reference (tests/data/kubernetes/kueue):
// ClusterQueues (GPU quota per flavor, borrowing and lending limits, reservation and usage, the
// Active condition), LocalQueues, Workloads (each state Kueue's conditions give), the visibility
// API's PendingWorkloadsSummary and whether the API server's group list serves Kueue; and on what
// is not such a list.
#include "kube_test_data.h"
#include "kubernetes/kube_discovery_parser.h"
#include "kubernetes/kueue_parser.h"

#include <QTest>

using namespace strata;

namespace {

const Queue *queueNamed(const QVector<Queue> &queues, const QString &id)
{
    for (const Queue &q : queues)
        if (q.id() == id)
            return &q;
    return nullptr;
}

const QueueFlavor *flavorNamed(const Queue &queue, const QString &name)
{
    for (const QueueFlavor &f : queue.flavors)
        if (f.name == name)
            return &f;
    return nullptr;
}

QString optionalText(const std::optional<int> &value)
{
    return value ? QString::number(*value) : QStringLiteral("-");
}

} // namespace

class TestKueueParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void clusterQueueFlavors_data();
    void clusterQueueFlavors();
    void clusterQueues();
    void localQueues();
    void workload_data();
    void workload();
    void pendingWorkloads();
    void apiGroups_data();
    void apiGroups();
    void unusableDocuments_data();
    void unusableDocuments();
};

void TestKueueParser::clusterQueueFlavors_data()
{
    QTest::addColumn<QString>("queue");
    QTest::addColumn<QString>("flavor");
    QTest::addColumn<QString>("quota");     // "-": none
    QTest::addColumn<QString>("borrowing"); // "-": no limit
    QTest::addColumn<QString>("lending");
    QTest::addColumn<int>("reserved");
    QTest::addColumn<int>("used");
    QTest::newRow("h100: quota, borrowing limit, all used") << "train" << "h100" << "16" << "8" << "-" << 16 << 16;
    QTest::newRow("h200: quota, lending limit, idle") << "train" << "h200" << "8" << "-" << "4" << 0 << 0;
    QTest::newRow("CPU-only flavor: no GPU quota") << "cpu-batch" << "spot" << "-" << "-" << "-" << 0 << 0;
}

void TestKueueParser::clusterQueueFlavors()
{
    QFETCH(QString, queue);
    QFETCH(QString, flavor);
    const KueueQueueParseResult parsed = KueueParser::parseClusterQueues(kubeTestData(QStringLiteral("kueue/reference_clusterqueues.json")));
    QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
    const Queue *q = queueNamed(parsed.queues, queue);
    QVERIFY(q);
    const QueueFlavor *f = flavorNamed(*q, flavor);
    QVERIFY(f);
    QTEST(optionalText(f->gpuQuota), "quota");
    QTEST(optionalText(f->gpuBorrowingLimit), "borrowing");
    QTEST(optionalText(f->gpuLendingLimit), "lending");
    QTEST(f->gpusReserved, "reserved");
    QTEST(f->gpusUsed, "used");
}

void TestKueueParser::clusterQueues()
{
    const KueueQueueParseResult parsed = KueueParser::parseClusterQueues(kubeTestData(QStringLiteral("kueue/reference_clusterqueues.json")));
    QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
    QCOMPARE(parsed.queues.size(), 2);
    const Queue *train = queueNamed(parsed.queues, QStringLiteral("train"));
    QVERIFY(train);
    QCOMPARE(train->kind, Queue::Kind::Cluster);
    QCOMPARE(train->clusterQueue, QStringLiteral("train"));
    QCOMPARE(train->cohort, QStringLiteral("research"));
    QCOMPARE(train->queueingStrategy, QStringLiteral("BestEffortFIFO"));
    QCOMPARE(train->pendingWorkloads, 3);
    QCOMPARE(train->reservingWorkloads, 1);
    QCOMPARE(train->admittedWorkloads, 1);
    QVERIFY(train->isActive());
    QCOMPARE(train->gpuQuota(), 24);
    QCOMPARE(train->gpusUsed(), 16);
    QCOMPARE(train->flavors.size(), 2);
    QCOMPARE(train->flavors.first().name, QStringLiteral("h100")); // Kueue's order of trying them

    const Queue *cpu = queueNamed(parsed.queues, QStringLiteral("cpu-batch"));
    QVERIFY(cpu);
    QVERIFY(!cpu->isActive());
    const QueueCondition *active = cpu->condition(QLatin1StringView("Active"));
    QVERIFY(active);
    QCOMPARE(active->reason, QStringLiteral("FlavorNotFound"));
    QVERIFY(active->message.contains(QStringLiteral("missing ResourceFlavor")));
    QCOMPARE(cpu->gpuQuota(), 0);
    QVERIFY(cpu->cohort.isEmpty());
}

void TestKueueParser::localQueues()
{
    const KueueQueueParseResult parsed = KueueParser::parseLocalQueues(kubeTestData(QStringLiteral("kueue/reference_localqueues.json")));
    QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
    QCOMPARE(parsed.queues.size(), 2);
    const Queue *teamA = queueNamed(parsed.queues, QStringLiteral("ml-research/team-a"));
    QVERIFY(teamA);
    QCOMPARE(teamA->kind, Queue::Kind::Local);
    QCOMPARE(teamA->clusterQueue, QStringLiteral("train"));
    QCOMPARE(teamA->pendingWorkloads, 3);
    QCOMPARE(teamA->admittedWorkloads, 1);
    const QueueFlavor *h100 = flavorNamed(*teamA, QStringLiteral("h100"));
    QVERIFY(h100);
    QCOMPARE(h100->gpusUsed, 16); // v1beta1's flavorUsage (the ClusterQueue says flavorsUsage)
    QCOMPARE(h100->gpusReserved, 16);
    QVERIFY(!h100->gpuQuota); // a LocalQueue has no quota of its own

    const Queue *nightly = queueNamed(parsed.queues, QStringLiteral("default/nightly"));
    QVERIFY(nightly);
    QVERIFY(!nightly->isActive());
    QVERIFY(nightly->flavors.isEmpty());
}

void TestKueueParser::workload_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("state"); // KueueWorkload::State
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("messageHas");
    QTest::addColumn<QString>("ownerKind");
    QTest::addColumn<QString>("ownerJobId");
    QTest::addColumn<QString>("clusterQueue");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("priority");
    QTest::addColumn<QString>("preemptedReason");
    using S = KueueWorkload::State;
    QTest::newRow("admitted PyTorchJob, two pod sets")
        << "ml-research/pytorchjob-pretrain-8c7d2" << int(S::Admitted) << "Admitted" << "admitted" << "PyTorchJob"
        << "ml-research/PyTorchJob/pretrain" << "train" << 16 << 0 << "";
    QTest::newRow("pending JobSet: insufficient quota")
        << "ml-research/jobset-big-3f2a1" << int(S::Pending) << "Pending"
        << "insufficient quota for nvidia.com/gpu in flavor h100, request > maximum capacity (24 > 16)" << "JobSet"
        << "ml-research/JobSet/big" << "" << 24 << 0 << "";
    QTest::newRow("pending Job, high priority") << "ml-research/job-small-0e1f2" << int(S::Pending) << "Pending"
                                                << "2 more needed" << "Job" << "ml-research/small" << "" << 2 << 100 << "";
    QTest::newRow("preempted, requeued") << "ml-research/job-tune-7a6b5" << int(S::Evicted) << "Preempted"
                                         << "due to prioritization in the ClusterQueue" << "Job" << "ml-research/tune"
                                         << "" << 4 << 0 << "InClusterQueue";
    QTest::newRow("finished") << "ml-research/job-done-1c2d3" << int(S::Finished) << "Succeeded" << "finished" << "Job"
                              << "ml-research/done" << "train" << 1 << 0 << "";
    QTest::newRow("deactivated") << "ml-research/job-held-4e5f6" << int(S::Inactive) << "" << "" << "Job"
                                 << "ml-research/held" << "" << 8 << 0 << "";
}

void TestKueueParser::workload()
{
    QFETCH(QString, key);
    QFETCH(QString, messageHas);
    const KueueWorkloadParseResult parsed = KueueParser::parseWorkloads(kubeTestData(QStringLiteral("kueue/reference_workloads.json")));
    QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
    QCOMPARE(parsed.workloads.size(), 6);
    const KueueWorkload *w = nullptr;
    for (const KueueWorkload &candidate : parsed.workloads)
        if (candidate.key() == key)
            w = &candidate;
    QVERIFY(w);
    QTEST(int(w->state), "state");
    QTEST(w->reason, "reason");
    QVERIFY2(w->message.contains(messageHas), qPrintable(w->message));
    QTEST(w->ownerKind, "ownerKind");
    QTEST(w->ownerJobId(), "ownerJobId");
    QTEST(w->clusterQueue, "clusterQueue");
    QTEST(w->gpus, "gpus");
    QTEST(w->priority, "priority");
    QTEST(w->preemptedReason, "preemptedReason");
    QCOMPARE(w->queueName, QStringLiteral("team-a"));
    QVERIFY(w->createdAt > 0);
}

void TestKueueParser::pendingWorkloads()
{
    const KueuePendingParseResult parsed =
        KueueParser::parsePendingWorkloads(kubeTestData(QStringLiteral("kueue/reference_pendingworkloads_train.json")));
    QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
    QCOMPARE(parsed.positions.size(), 3);
    QCOMPARE(parsed.positions[0].key(), QStringLiteral("ml-research/job-small-0e1f2"));
    QCOMPARE(parsed.positions[0].positionInClusterQueue, 0);
    QCOMPARE(parsed.positions[0].priority, 100);
    QCOMPARE(parsed.positions[2].key(), QStringLiteral("ml-research/jobset-big-3f2a1"));
    QCOMPARE(parsed.positions[2].positionInClusterQueue, 2);
    QCOMPARE(parsed.positions[2].positionInLocalQueue, 2);
    QCOMPARE(parsed.positions[2].localQueue, QStringLiteral("team-a"));
}

void TestKueueParser::apiGroups_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("kueue");
    QTest::addColumn<bool>("visibility");
    QTest::newRow("Kueue with its visibility API") << "kueue/reference_apis_kueue.json" << true << true;
    QTest::newRow("no Kueue: no error") << "kueue/reference_apis_no_kueue.json" << false << false;
}

void TestKueueParser::apiGroups()
{
    QFETCH(QString, file);
    QString error;
    const QMap<QString, QStringList> groups = KubeDiscoveryParser::groupVersions(kubeTestData(file), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const KueueDiscovery discovery = KueueParser::discoveryOf(groups);
    QTEST(discovery.kueueServed, "kueue");
    QTEST(discovery.visibilityServed, "visibility");
}

void TestKueueParser::unusableDocuments_data()
{
    QTest::addColumn<int>("what"); // 0 ClusterQueues, 1 Workloads, 2 visibility
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("errorHas");
    QTest::newRow("not JSON") << 0 << QByteArray("{\"kind\": \"ClusterQueueList\", \"items\": [") << "not JSON";
    QTest::newRow("another kind of list") << 1 << QByteArray(R"({"kind":"PodList","apiVersion":"v1","items":[]})")
                                          << "expected a WorkloadList";
    QTest::newRow("an older Kueue API version")
        << 1
        << QByteArray(R"({"kind":"WorkloadList","apiVersion":"kueue.x-k8s.io/v1alpha1","items":[{"kind":"Workload","apiVersion":"kueue.x-k8s.io/v1alpha1","metadata":{"name":"w","namespace":"n"}}]})")
        << "kueue.x-k8s.io/v1alpha1";
    QTest::newRow("visibility: Status") << 2
                                        << QByteArray(R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"the server is currently unable to handle the request","reason":"ServiceUnavailable","code":503})")
                                        << "unable to handle the request";
    QTest::newRow("visibility: item without a position")
        << 2 << QByteArray(R"({"kind":"PendingWorkloadsSummary","items":[{"metadata":{"name":"w","namespace":"n"}}]})")
        << "without a name or position";
    QTest::newRow("visibility: not JSON") << 2 << QByteArray("\x01\x02<html>") << "not JSON";
}

void TestKueueParser::unusableDocuments()
{
    QFETCH(int, what);
    QFETCH(QByteArray, json);
    QFETCH(QString, errorHas);
    QString error;
    switch (what) {
    case 0: {
        const KueueQueueParseResult r = KueueParser::parseClusterQueues(json);
        error = r.error;
        QVERIFY(r.queues.isEmpty());
        break;
    }
    case 1: {
        const KueueWorkloadParseResult r = KueueParser::parseWorkloads(json);
        error = r.error;
        QVERIFY(r.workloads.isEmpty());
        break;
    }
    case 2: {
        const KueuePendingParseResult r = KueueParser::parsePendingWorkloads(json);
        error = r.error;
        QVERIFY(r.positions.isEmpty());
        break;
    }
    }
    QVERIFY2(error.contains(errorHas), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestKueueParser)
#include "tst_kueue_parser.moc"
