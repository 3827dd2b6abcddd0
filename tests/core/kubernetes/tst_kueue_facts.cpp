// KueueFacts on the Kueue objects of tests/data/kubernetes/kueue applied to a part's jobs: the
// queues in order, each ClusterQueue's pending workloads in Kueue's order (the visibility API) or,
// without it, by priority and creation (said as such), and each workload's job given its queue,
// position and Kueue's reason; jobs that run or ended keep their state.
#include "kube_test_data.h"
#include "kubernetes/kueue_facts.h"
#include "kubernetes/kueue_parser.h"

#include <QTest>

using namespace strata;

namespace {

KueueObjects referenceObjects(bool withVisibility)
{
    KueueObjects objects;
    objects.clusterQueues = KueueParser::parseClusterQueues(kubeTestData(QStringLiteral("kueue/reference_clusterqueues.json"))).queues;
    objects.localQueues = KueueParser::parseLocalQueues(kubeTestData(QStringLiteral("kueue/reference_localqueues.json"))).queues;
    objects.workloads = KueueParser::parseWorkloads(kubeTestData(QStringLiteral("kueue/reference_workloads.json"))).workloads;
    if (withVisibility)
        objects.positions.insert(
            QStringLiteral("train"),
            KueueParser::parsePendingWorkloads(kubeTestData(QStringLiteral("kueue/reference_pendingworkloads_train.json"))).positions);
    return objects;
}

Job job(const QString &id, const QString &kind, const QString &state)
{
    Job j;
    j.id = id;
    j.workloadKind = kind;
    j.setState(state);
    return j;
}

// The jobs KubernetesPartBuilder makes of the workloads' owners: Kueue holds the pending ones
// suspended (no pods), the admitted PyTorchJob runs, `done` succeeded.
OrchestratorPart referencePart()
{
    OrchestratorPart part;
    part.jobs << job(QStringLiteral("ml-research/PyTorchJob/pretrain"), QStringLiteral("PyTorchJob"), QStringLiteral("RUNNING"))
              << job(QStringLiteral("ml-research/JobSet/big"), QStringLiteral("JobSet"), QStringLiteral("SUSPENDED"))
              << job(QStringLiteral("ml-research/small"), QStringLiteral("Job"), QStringLiteral("SUSPENDED"))
              << job(QStringLiteral("ml-research/tune"), QStringLiteral("Job"), QStringLiteral("SUSPENDED"))
              << job(QStringLiteral("ml-research/done"), QStringLiteral("Job"), QStringLiteral("SUCCEEDED"))
              << job(QStringLiteral("ml-research/held"), QStringLiteral("Job"), QStringLiteral("SUSPENDED"));
    return part;
}

const Job *jobOf(const OrchestratorPart &part, const QString &id)
{
    for (const Job &j : part.jobs)
        if (j.id == id)
            return &j;
    return nullptr;
}

} // namespace

class TestKueueFacts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void queuesInOrder();
    void pendingOrder_data();
    void pendingOrder();
    void jobs_data();
    void jobs();
    void ownerOfAnotherKindIsNotTouched();
    void workloadWithoutItsJob();
};

void TestKueueFacts::queuesInOrder()
{
    OrchestratorPart part = referencePart();
    KueueFacts::apply(part, referenceObjects(true));
    QStringList ids;
    for (const Queue &q : part.queues)
        ids << q.id();
    QCOMPARE(ids, (QStringList{QStringLiteral("cpu-batch"), QStringLiteral("train"), QStringLiteral("default/nightly"),
                               QStringLiteral("ml-research/team-a")}));
    QCOMPARE(part.queues[0].positionSource, Queue::PositionSource::None); // nothing waits there
    QVERIFY(part.queues[0].pending.isEmpty());
    QVERIFY(part.queues[3].pending.isEmpty()); // a LocalQueue lists none: its ClusterQueue does
}

void TestKueueFacts::pendingOrder_data()
{
    QTest::addColumn<bool>("visibility");
    QTest::addColumn<int>("source");
    QTest::addColumn<QStringList>("order");
    const QStringList kueueOrder{QStringLiteral("ml-research/small"), QStringLiteral("ml-research/tune"),
                                 QStringLiteral("ml-research/JobSet/big")};
    QTest::newRow("visibility API") << true << int(Queue::PositionSource::Visibility) << kueueOrder;
    // Priority first (small: 100), then creation (tune 08:30 before big 09:05): Kueue's own rule.
    QTest::newRow("without it: priority, then creation") << false << int(Queue::PositionSource::CreationOrder)
                                                         << kueueOrder;
}

void TestKueueFacts::pendingOrder()
{
    QFETCH(bool, visibility);
    QFETCH(QStringList, order);
    OrchestratorPart part = referencePart();
    KueueFacts::apply(part, referenceObjects(visibility));
    const Queue &train = part.queues[1];
    QCOMPARE(train.name, QStringLiteral("train"));
    QTEST(int(train.positionSource), "source");
    QStringList seen;
    for (int i = 0; i < train.pending.size(); ++i) {
        seen << train.pending[i].jobId;
        QCOMPARE(train.pending[i].position, std::optional<int>(i));
    }
    QCOMPARE(seen, order);
    const QueuePendingWorkload &big = train.pending[2];
    QCOMPARE(big.workload, QStringLiteral("ml-research/jobset-big-3f2a1"));
    QCOMPARE(big.jobKind, QStringLiteral("JobSet"));
    QCOMPARE(big.localQueue, QStringLiteral("team-a"));
    QCOMPARE(big.gpus, 24);
    QVERIFY2(big.reason.contains(QStringLiteral("insufficient quota for nvidia.com/gpu in flavor h100")), qPrintable(big.reason));
    QVERIFY(!big.evicted);
    QVERIFY(train.pending[1].evicted);
}

void TestKueueFacts::jobs_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("state");
    QTest::addColumn<int>("position"); // -1: none
    QTest::addColumn<QString>("reasonHas");
    QTest::addColumn<int>("gpus");
    QTest::newRow("admitted, running: state kept, no position") << "ml-research/PyTorchJob/pretrain" << "RUNNING" << -1 << "" << 0;
    QTest::newRow("waiting for quota") << "ml-research/JobSet/big" << "PENDING" << 2
                                       << "Kueue: couldn't assign flavors to pod set workers: insufficient quota" << 24;
    QTest::newRow("next") << "ml-research/small" << "PENDING" << 0 << "2 more needed" << 2;
    QTest::newRow("preempted, waiting again") << "ml-research/tune" << "PENDING" << 1
                                              << "Kueue: preempted (InClusterQueue), waiting for quota again" << 4;
    QTest::newRow("finished: state kept") << "ml-research/done" << "SUCCEEDED" << -1 << "" << 0;
    QTest::newRow("deactivated: state kept") << "ml-research/held" << "SUSPENDED" << -1 << "held out of its queue" << 0;
}

void TestKueueFacts::jobs()
{
    QFETCH(QString, id);
    QFETCH(int, position);
    QFETCH(QString, reasonHas);
    OrchestratorPart part = referencePart();
    KueueFacts::apply(part, referenceObjects(true));
    const Job *j = jobOf(part, id);
    QVERIFY(j);
    QTEST(j->state, "state");
    QCOMPARE(j->queuePosition, position < 0 ? std::nullopt : std::optional<int>(position));
    QCOMPARE(j->queueName, QStringLiteral("team-a"));
    if (reasonHas.isEmpty())
        QVERIFY2(j->reason.isEmpty(), qPrintable(j->reason));
    else
        QVERIFY2(j->reason.contains(reasonHas), qPrintable(j->reason));
    QTEST(j->gpusRequested, "gpus");
}

void TestKueueFacts::ownerOfAnotherKindIsNotTouched()
{
    // A bare pod named "small" has the id the batch Job "small" would have: it is not the Job
    // the Workload stands for.
    OrchestratorPart part;
    part.jobs << job(QStringLiteral("ml-research/small"), QStringLiteral("Pod"), QStringLiteral("RUNNING"));
    KueueFacts::apply(part, referenceObjects(true));
    QCOMPARE(part.jobs[0].state, QStringLiteral("RUNNING"));
    QVERIFY(part.jobs[0].queueName.isEmpty());
    QVERIFY(!part.jobs[0].queuePosition);
    QVERIFY(part.jobs[0].reason.isEmpty());
}

void TestKueueFacts::workloadWithoutItsJob()
{
    // The job list may lag the Workload list (or the profile names another namespace): the
    // queue still lists what waits, and no job is made up.
    OrchestratorPart part;
    KueueFacts::apply(part, referenceObjects(false));
    QVERIFY(part.jobs.isEmpty());
    QCOMPARE(part.queues[1].pending.size(), 3);
    QCOMPARE(part.queues[1].pending[2].jobId, QStringLiteral("ml-research/JobSet/big"));
}

QTEST_GUILESS_MAIN(TestKueueFacts)
#include "tst_kueue_facts.moc"
