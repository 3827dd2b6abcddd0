#include "models/job_table_model.h"
#include "models/snapshot_filter_proxy_model.h"
#include "synthetic_cluster.h"

#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace strata;

namespace {

SnapshotPtr share(ClusterSnapshot s)
{
    return std::make_shared<const ClusterSnapshot>(std::move(s));
}

SnapshotPtr makeSnapshot(int nodes, int jobs)
{
    SyntheticClusterOptions o;
    o.nodes = nodes;
    o.jobs = jobs;
    o.seed = 11;
    return share(SyntheticCluster::generate(o));
}

void verifyConsistent(const JobTableModel &model, const ClusterSnapshot &s)
{
    QCOMPARE(model.rowCount(), s.jobs.size());
    QSet<QString> seen;
    for (int row = 0; row < model.rowCount(); ++row) {
        QCOMPARE(model.key(row), s.jobs[model.itemIndex(row)].id);
        seen.insert(model.key(row));
    }
    QCOMPARE(seen.size(), s.jobs.size());
}

} // namespace

class TestJobTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void compareIds_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<int>("sign");
        QTest::newRow("numeric") << "998" << "1000" << -1;
        QTest::newRow("equal") << "42" << "42" << 0;
        QTest::newRow("array tasks") << "1234_7" << "1234_10" << -1;
        QTest::newRow("parent before tasks") << "1234" << "1234_0" << -1;
        QTest::newRow("array after smaller") << "1234_1" << "999" << 1;
        QTest::newRow("kubernetes names") << "ml/train-a" << "ml/train-b" << -1;
        QTest::newRow("numbers before names") << "42" << "ml/train-a" << -1;
        QTest::newRow("long ids") << "9999999999" << "10000000000" << -1;
    }
    void compareIds()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(int, sign);
        const int c = JobTableModel::compareIds(a, b);
        QCOMPARE((c > 0) - (c < 0), sign);
        QCOMPARE((JobTableModel::compareIds(b, a) > 0) - (JobTableModel::compareIds(b, a) < 0), -sign);
    }

    void refreshesKeepSelectionWithoutReset()
    {
        JobTableModel model;
        SnapshotFilterProxyModel proxy(&model);
        QTableView view;
        view.setModel(&proxy);
        view.setSortingEnabled(true);
        view.sortByColumn(JobTableModel::TimeUsed, Qt::DescendingOrder);
        SnapshotPtr s = makeSnapshot(200, 5000);
        model.setSnapshot(s);
        verifyConsistent(model, *s);

        // Select a running job that the next refreshes keep (they remove ~1% at random).
        QString keep;
        for (const Job &j : s->jobs)
            if (j.isRunning())
                keep = j.id;
        QVERIFY(!keep.isEmpty());
        const QModelIndex index = proxy.mapFromSource(model.index(model.rowForKey(keep), 0));
        view.selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect
                                                          | QItemSelectionModel::Rows);
        QSignalSpy reset(&proxy, &QAbstractItemModel::modelReset);
        QSignalSpy updated(&model, &SnapshotRowModel::updated);
        for (quint32 seed = 100; seed < 105; ++seed) {
            ClusterSnapshot next = SyntheticCluster::evolve(*s, seed);
            // Make sure the selected job stays.
            if (!next.job(keep)) {
                next.jobs << *s->job(keep);
                next.finalize();
            }
            s = share(next);
            model.setSnapshot(s);
            verifyConsistent(model, *s);
            const QModelIndexList rows = view.selectionModel()->selectedRows();
            QCOMPARE(rows.size(), 1);
            QCOMPARE(rows.first().data(SnapshotRowModel::KeyRole).toString(), keep);
        }
        QCOMPARE(reset.count(), 0);
        QCOMPARE(updated.count(), 5);
        // Every running job's time moved, so each refresh reported changes, removals, arrivals.
        QVERIFY(updated.last().at(0).toInt() > 0);
        QVERIFY(updated.last().at(1).toInt() > 0);
        QVERIFY(updated.last().at(2).toInt() > 0);
        // Dynamic sort kept the order after all those changes.
        for (int row = 1; row < proxy.rowCount(); ++row) {
            const Job &prev = model.job(proxy.mapToSource(proxy.index(row - 1, 0)).row());
            const Job &cur = model.job(proxy.mapToSource(proxy.index(row, 0)).row());
            QVERIFY2(prev.timeUsedSeconds >= cur.timeUsedSeconds, qPrintable(cur.id));
        }
    }

    void removedSelectionIsDropped()
    {
        JobTableModel model;
        SnapshotFilterProxyModel proxy(&model);
        QItemSelectionModel selection(&proxy);
        SnapshotPtr s = makeSnapshot(20, 100);
        model.setSnapshot(s);
        const QString gone = s->jobs[10].id;
        selection.select(proxy.index(10, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        ClusterSnapshot next = *s;
        next.jobs.remove(10);
        next.finalize();
        model.setSnapshot(share(next));
        QVERIFY(selection.selectedRows().isEmpty());
        QCOMPARE(model.rowForKey(gone), -1);
    }

    void filterCounts_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::newRow("user") << "user" << "user07";
        QTest::newRow("state running") << "state" << "RUNNING";
        QTest::newRow("state pending") << "state" << "PENDING";
        QTest::newRow("partition") << "partition" << "h100";
        QTest::newRow("text in name") << "text" << "SWEEP";
        QTest::newRow("text in node") << "text" << "gpu-node0042";
    }
    void filterCounts()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        JobTableModel model;
        SnapshotFilterProxyModel proxy(&model);
        const SnapshotPtr s = makeSnapshot(2000, 20000);
        model.setSnapshot(s);
        RowFilter f;
        int expected = 0;
        for (const Job &j : s->jobs) {
            if (field == QLatin1String("user"))
                expected += j.user == value;
            else if (field == QLatin1String("state"))
                expected += j.state == value;
            else if (field == QLatin1String("partition"))
                expected += j.partition == value;
            else
                expected += j.name.contains(value, Qt::CaseInsensitive)
                            || j.id.contains(value, Qt::CaseInsensitive)
                            || j.user.contains(value, Qt::CaseInsensitive)
                            || j.reason.contains(value, Qt::CaseInsensitive)
                            || std::any_of(j.nodes.cbegin(), j.nodes.cend(), [&](const QString &n) {
                                   return n.contains(value, Qt::CaseInsensitive);
                               });
        }
        if (field == QLatin1String("user"))
            f.user = value;
        else if (field == QLatin1String("state"))
            f.state = value;
        else if (field == QLatin1String("partition"))
            f.partition = value;
        else
            f.text = value;
        QElapsedTimer timer;
        timer.start();
        proxy.setFilter(f);
        qInfo("filter %s=%s over %d jobs: %lld ms", qPrintable(field), qPrintable(value),
              model.rowCount(), timer.elapsed());
        QVERIFY(expected > 0);
        QCOMPARE(proxy.rowCount(), expected);
        proxy.setFilter({});
        QCOMPARE(proxy.rowCount(), s->jobs.size());
    }

    void choicesListDistinctValues()
    {
        const SnapshotPtr s = makeSnapshot(50, 500);
        const JobTableModel::Plan plan = JobTableModel::plan({}, s);
        QVERIFY(plan.choices.states.contains(QStringLiteral("RUNNING")));
        QVERIFY(plan.choices.states.contains(QStringLiteral("PENDING")));
        QCOMPARE(plan.choices.partitions, QStringList({"b200", "batch", "h100", "h200"}));
        QVERIFY(plan.choices.users.size() > 10);
        QVERIFY(std::is_sorted(plan.choices.users.cbegin(), plan.choices.users.cend()));
    }

    void kindColumn()
    {
        // Kubernetes: the workload's kind, its full API name as the tool tip, found by the text
        // filter; a dash for a Slurm job.
        ClusterSnapshot s;
        Job slurm;
        slurm.id = QStringLiteral("101");
        Job pytorch;
        pytorch.id = QStringLiteral("ml/PyTorchJob/llama");
        pytorch.workloadKind = QStringLiteral("PyTorchJob");
        pytorch.workloadApiVersion = QStringLiteral("kubeflow.org/v1");
        s.jobs = {slurm, pytorch};
        s.finalize();
        JobTableModel model;
        model.setSnapshot(share(s));
        QCOMPARE(model.headerData(JobTableModel::Kind, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Kind"));
        const auto cell = [&](const QString &id, int role) {
            for (int row = 0; row < model.rowCount(); ++row)
                if (model.key(row) == id)
                    return model.data(model.index(row, JobTableModel::Kind), role);
            return QVariant();
        };
        QCOMPARE(cell(QStringLiteral("ml/PyTorchJob/llama"), Qt::DisplayRole).toString(), QStringLiteral("PyTorchJob"));
        QCOMPARE(cell(QStringLiteral("ml/PyTorchJob/llama"), Qt::ToolTipRole).toString(), QStringLiteral("kubeflow.org/v1 PyTorchJob"));
        QCOMPARE(cell(QStringLiteral("101"), Qt::DisplayRole).toString(), QStringLiteral("\u2014"));
        RowFilter filter;
        filter.text = QStringLiteral("pytorchjob");
        QVERIFY(JobTableModel::itemMatches(pytorch, filter));
        QVERIFY(!JobTableModel::itemMatches(slurm, filter));
    }
};

QTEST_MAIN(TestJobTableModel)
#include "tst_job_table_model.moc"
