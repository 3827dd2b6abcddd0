// QueueModel and the overview's queues (Kueue, the Kubernetes counterpart of the partitions) on
// the Kueue reference objects (tests/data/kubernetes/kueue) through KueueFacts: GPUs used of the
// quota per flavor, counts, the next workload waiting with Kueue's reason, the order in the tool
// tip; rows kept across a refresh of the same queues; hidden on a cluster without queues.
#include "kubernetes/kueue_facts.h"
#include "kubernetes/kueue_parser.h"
#include "models/finding_table_model.h"
#include "models/instance_type_model.h"
#include "models/job_table_model.h"
#include "models/node_table_model.h"
#include "models/partition_model.h"
#include "models/queue_model.h"
#include "models/workload_model.h"
#include "views/stack_overview_view.h"

#include <QFile>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace strata;

namespace {

QByteArray data(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/kubernetes/kueue/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file.fileName()));
    return file.readAll();
}

QVector<Queue> referenceQueues()
{
    KueueObjects objects;
    objects.clusterQueues = KueueParser::parseClusterQueues(data(QStringLiteral("reference_clusterqueues.json"))).queues;
    objects.localQueues = KueueParser::parseLocalQueues(data(QStringLiteral("reference_localqueues.json"))).queues;
    objects.workloads = KueueParser::parseWorkloads(data(QStringLiteral("reference_workloads.json"))).workloads;
    objects.positions.insert(QStringLiteral("train"),
                             KueueParser::parsePendingWorkloads(data(QStringLiteral("reference_pendingworkloads_train.json"))).positions);
    OrchestratorPart part;
    KueueFacts::apply(part, objects);
    return part.queues;
}

QString cell(const QueueModel &model, int row, int column, int role = Qt::DisplayRole)
{
    return model.data(model.index(row, column), role).toString();
}

} // namespace

class TestQueueModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rows_data();
    void rows();
    void pendingInOrderAsToolTip();
    void refreshKeepsRows();
    void overviewShowsQueuesOnlyWhereThereAreAny();
};

void TestQueueModel::rows_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("feeds");
    QTest::addColumn<QString>("gpus");
    QTest::addColumn<QString>("flavors");
    QTest::addColumn<QString>("pending");
    QTest::addColumn<QString>("nextHas");
    QTest::addColumn<QString>("state");
    QTest::newRow("inactive, no GPU quota") << 0 << "cpu-batch" << "" << "0/0" << "" << "0" << "" << "inactive (FlavorNotFound)";
    QTest::newRow("train") << 1 << "train" << "cohort research" << "16/24" << "h100 16/16, h200 0/8" << "3"
                           << "ml-research/small: Kueue: couldn't assign flavors" << "active";
    QTest::newRow("LocalQueue") << 3 << "ml-research/team-a" << "train" << "16" << "h100 16, h200 0" << "3" << ""
                                << "active";
}

void TestQueueModel::rows()
{
    QFETCH(int, row);
    QFETCH(QString, nextHas);
    QueueModel model;
    model.setQueues(referenceQueues());
    QCOMPARE(model.rowCount(), 4);
    QTEST(cell(model, row, QueueModel::Name), "name");
    QTEST(cell(model, row, QueueModel::Feeds), "feeds");
    QTEST(cell(model, row, QueueModel::Gpus), "gpus");
    QTEST(cell(model, row, QueueModel::Flavors), "flavors");
    QTEST(cell(model, row, QueueModel::Pending), "pending");
    QTEST(cell(model, row, QueueModel::State), "state");
    const QString next = cell(model, row, QueueModel::Next);
    QVERIFY2(nextHas.isEmpty() ? next.isEmpty() : next.startsWith(nextHas), qPrintable(next));
}

void TestQueueModel::pendingInOrderAsToolTip()
{
    QueueModel model;
    model.setQueues(referenceQueues());
    const QStringList lines = cell(model, 1, QueueModel::Name, Qt::ToolTipRole).split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0], QStringLiteral("Waiting, in Kueue's order:"));
    QVERIFY2(lines[1].startsWith(QStringLiteral("0. ml-research/small (2 GPUs): Kueue: ")), qPrintable(lines[1]));
    QVERIFY2(lines[2].startsWith(QStringLiteral("1. ml-research/tune (4 GPUs): Kueue: preempted (InClusterQueue)")), qPrintable(lines[2]));
    QVERIFY2(lines[3].startsWith(QStringLiteral("2. ml-research/JobSet/big (24 GPUs): Kueue: couldn't assign flavors to pod set workers: insufficient quota")),
             qPrintable(lines[3]));
    // An inactive queue says why.
    QVERIFY(cell(model, 0, QueueModel::Name, Qt::ToolTipRole).startsWith(QStringLiteral("FlavorNotFound: ")));
}

void TestQueueModel::refreshKeepsRows()
{
    QueueModel model;
    model.setQueues(referenceQueues());
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
    QVector<Queue> next = referenceQueues();
    next[1].flavors[0].gpusUsed = 8;
    model.setQueues(next);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(changes.count(), 1);
    QCOMPARE(cell(model, 1, QueueModel::Flavors), QStringLiteral("h100 8/16, h200 0/8"));
    next.removeLast();
    model.setQueues(next);
    QCOMPARE(resets.count(), 1);
    QCOMPARE(model.rowCount(), 3);
}

void TestQueueModel::overviewShowsQueuesOnlyWhereThereAreAny()
{
    InstanceTypeModel instances;
    NodeTableModel nodes;
    PartitionModel partitions;
    JobTableModel jobs;
    WorkloadModel workloads;
    FindingTableModel findings;
    StackOverviewView view(&instances, &nodes, &partitions, &jobs, &workloads, &findings);
    view.resize(1280, 800);
    view.show();
    auto snapshot = std::make_shared<ClusterSnapshot>();
    snapshot->orchestrator = OrchestratorKind::Kubernetes;
    snapshot->queues = referenceQueues();
    snapshot->finalize();
    view.setSnapshot(snapshot, snapshot->totals());
    QVERIFY(view.queuesView()->isVisible());
    QCOMPARE(view.queuesView()->model()->rowCount(), 4);
    auto none = std::make_shared<ClusterSnapshot>();
    none->finalize();
    view.setSnapshot(none, none->totals());
    QVERIFY(!view.queuesView()->isVisible());
    QCOMPARE(view.queuesView()->model()->rowCount(), 0);
}

QTEST_MAIN(TestQueueModel)
#include "tst_queue_model.moc"
