#include "models/node_table_model.h"
#include "models/snapshot_filter_proxy_model.h"
#include "synthetic_cluster.h"

#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace strata;

namespace {

SnapshotPtr makeSnapshot(int nodes, quint32 seed = 3)
{
    SyntheticClusterOptions o;
    o.nodes = nodes;
    o.jobs = nodes * 4;
    o.seed = seed;
    return std::make_shared<const ClusterSnapshot>(SyntheticCluster::generate(o));
}

// The same cluster with some nodes gone, one new, and one node's GPUs hotter.
SnapshotPtr changed(const ClusterSnapshot &base, const QStringList &remove, const QString &hotter)
{
    ClusterSnapshot s = base;
    s.nodes.erase(std::remove_if(s.nodes.begin(), s.nodes.end(),
                                 [&](const Node &n) { return remove.contains(n.name); }),
                  s.nodes.end());
    Node extra = s.nodes.first();
    extra.name = QStringLiteral("gpu-node99");
    s.nodes << extra;
    for (Node &n : s.nodes)
        if (n.name == hotter)
            for (Gpu &g : n.gpus)
                g.metrics.tempC = 91.0;
    s.finalize();
    return std::make_shared<const ClusterSnapshot>(s);
}

} // namespace

class TestNodeTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void firstSnapshotInsertsRowsWithoutReset()
    {
        NodeTableModel model;
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setSnapshot(makeSnapshot(40));
        QCOMPARE(model.rowCount(), 40);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(model.key(0), QStringLiteral("gpu-node01"));
    }

    void identicalSnapshotChangesNothing()
    {
        NodeTableModel model;
        const SnapshotPtr a = makeSnapshot(40);
        model.setSnapshot(a);
        QSignalSpy changedSpy(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.setSnapshot(std::make_shared<const ClusterSnapshot>(*a));
        QCOMPARE(changedSpy.count(), 0);
        QCOMPARE(removed.count(), 0);
        QCOMPARE(inserted.count(), 0);
    }

    void updateKeepsSelectionAndReportsOnlyChanges()
    {
        NodeTableModel model;
        SnapshotFilterProxyModel proxy(&model);
        QTableView view;
        view.setModel(&proxy);
        view.setSortingEnabled(true);
        view.sortByColumn(NodeTableModel::Name, Qt::AscendingOrder);
        const SnapshotPtr a = makeSnapshot(40);
        model.setSnapshot(a);

        const QModelIndex selected = proxy.mapFromSource(model.index(model.rowForKey(QStringLiteral("gpu-node17")), 0));
        view.selectionModel()->setCurrentIndex(selected, QItemSelectionModel::ClearAndSelect
                                                             | QItemSelectionModel::Rows);

        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy changedSpy(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy proxyReset(&proxy, &QAbstractItemModel::modelReset);
        model.setSnapshot(changed(*a, {QStringLiteral("gpu-node03"), QStringLiteral("gpu-node30")},
                                  QStringLiteral("gpu-node17")));

        QCOMPARE(reset.count(), 0);
        QCOMPARE(proxyReset.count(), 0);
        QCOMPARE(removed.count(), 2); // two separate ranges
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model.rowCount(), 39);
        // Only the hotter node changed: exactly its row is reported.
        QCOMPARE(changedSpy.count(), 1);
        const int hotRow = model.rowForKey(QStringLiteral("gpu-node17"));
        QCOMPARE(changedSpy.first().at(0).toModelIndex().row(), hotRow);
        QCOMPARE(changedSpy.first().at(1).toModelIndex().row(), hotRow);

        const QModelIndexList rows = view.selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().data(SnapshotRowModel::KeyRole).toString(), QStringLiteral("gpu-node17"));
        QCOMPARE(view.selectionModel()->currentIndex().data(SnapshotRowModel::KeyRole).toString(),
                 QStringLiteral("gpu-node17"));
        QVERIFY(model.data(model.index(hotRow, NodeTableModel::Temp)).toString().startsWith(QStringLiteral("91")));
        // The view still shows names in order, the new node sorted in.
        QCOMPARE(proxy.index(proxy.rowCount() - 1, 0).data().toString(), QStringLiteral("gpu-node99"));
        QCOMPARE(model.rowForKey(QStringLiteral("gpu-node03")), -1);
    }

    void rowsFollowTheirItems()
    {
        NodeTableModel model;
        SnapshotPtr s = makeSnapshot(200);
        model.setSnapshot(s);
        for (quint32 seed = 1; seed < 6; ++seed) {
            ClusterSnapshot next = *s;
            next.nodes.remove(int(seed * 7), int(seed));
            next.finalize();
            s = std::make_shared<const ClusterSnapshot>(next);
            model.setSnapshot(s);
            QCOMPARE(model.rowCount(), s->nodes.size());
            QSet<QString> seen;
            for (int row = 0; row < model.rowCount(); ++row) {
                QCOMPARE(model.key(row), s->nodes[model.itemIndex(row)].name);
                seen.insert(model.key(row));
            }
            QCOMPARE(seen.size(), s->nodes.size());
        }
    }

    void missingMetricsShowADash()
    {
        SyntheticClusterOptions o;
        o.nodes = 4;
        o.jobs = 4;
        o.metrics = false;
        NodeTableModel model;
        model.setSnapshot(std::make_shared<const ClusterSnapshot>(SyntheticCluster::generate(o)));
        for (int column : {NodeTableModel::Util, NodeTableModel::Temp, NodeTableModel::Power,
                           NodeTableModel::Memory})
            QCOMPARE(model.data(model.index(0, column)).toString(), QStringLiteral("\u2014"));
    }

    void stateCategory_data()
    {
        QTest::addColumn<QString>("state");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<int>("allocated");
        QTest::addColumn<QString>("category");
        QTest::addColumn<PowerState>("power");
        QTest::newRow("idle") << "idle" << QStringList{} << 0 << "idle" << PowerState::Launched;
        QTest::newRow("mixed") << "mixed" << QStringList{} << 2 << "mixed" << PowerState::Launched;
        QTest::newRow("draining") << "mixed+drain" << QStringList{"DRAIN"} << 2 << "draining" << PowerState::Launched;
        QTest::newRow("drained") << "idle+drain" << QStringList{"DRAIN"} << 0 << "drained" << PowerState::Launched;
        QTest::newRow("down") << "down+not_responding" << QStringList{"DOWN", "NOT_RESPONDING"} << 0 << "down" << PowerState::Launched;
        QTest::newRow("cordoned") << "cordoned" << QStringList{} << 0 << "drained" << PowerState::Launched;
        // Cloud nodes (issue 25), as the Slurm parser reads them.
        QTest::newRow("idle~") << "idle+cloud+powered_down" << QStringList{"CLOUD", "POWERED_DOWN"} << 0 << "powered down"
                               << PowerState::PoweredDown;
        QTest::newRow("alloc# (booting, not down)") << "allocated+cloud+not_responding+powering_up"
                                                    << QStringList{"CLOUD", "NOT_RESPONDING", "POWERING_UP"} << 8
                                                    << "powering up" << PowerState::PoweringUp;
        QTest::newRow("idle%") << "idle+cloud+powering_down" << QStringList{"CLOUD", "POWERING_DOWN"} << 0 << "powering down"
                               << PowerState::PoweringDown;
        QTest::newRow("down~ ResumeTimeout") << "down+cloud+powered_down" << QStringList{"CLOUD", "POWERED_DOWN"} << 0
                                             << "launch failed" << PowerState::FailedToLaunch;
        QTest::newRow("drained~") << "drained+cloud+powered_down" << QStringList{"DRAIN", "CLOUD", "POWERED_DOWN"} << 0
                                  << "drained" << PowerState::PoweredDown;
    }
    void stateCategory()
    {
        QFETCH(QString, state);
        QFETCH(QStringList, flags);
        QFETCH(int, allocated);
        QFETCH(QString, category);
        QFETCH(PowerState, power);
        Node n;
        n.state = state;
        n.stateFlags = flags;
        n.gpusAllocated = allocated;
        n.power = power;
        QCOMPARE(NodeTableModel::stateCategory(n), category);
    }

    void filterCounts()
    {
        NodeTableModel model;
        SnapshotFilterProxyModel proxy(&model);
        const SnapshotPtr s = makeSnapshot(400);
        model.setSnapshot(s);
        QCOMPARE(proxy.rowCount(), 400);
        int h200 = 0, drained = 0, text = 0;
        for (const Node &n : s->nodes) {
            h200 += n.partitions.contains(QStringLiteral("h200"));
            drained += NodeTableModel::stateCategory(n) == QStringLiteral("drained");
            text += n.name.contains(QStringLiteral("node01"));
        }
        QVERIFY(h200 > 0 && drained > 0);
        RowFilter f;
        f.partition = QStringLiteral("h200");
        proxy.setFilter(f);
        QCOMPARE(proxy.rowCount(), h200);
        f = {};
        f.state = QStringLiteral("drained");
        proxy.setFilter(f);
        QCOMPARE(proxy.rowCount(), drained);
        f = {};
        f.text = QStringLiteral("NODE01");
        proxy.setFilter(f);
        QCOMPARE(proxy.rowCount(), text);
    }
};

QTEST_MAIN(TestNodeTableModel)
#include "tst_node_table_model.moc"
