// Right-click menus on every table row, overview item and heatmap cell, with the actions that
// apply to what was clicked (drain/resume a node, cancel a job, copy, filter to it); the Jobs
// table's node lists in Slurm's hostlist form and its GPU columns on screen at 1280 px; a
// missing keyring as a plain note. Against a synthetic cluster served by a real ClusterSession.

#include "cluster_actions.h"
#include "cluster_view.h"
#include "dialogs/drain_dialog.h"
#include "main_window.h"
#include "models/finding_table_model.h"
#include "models/job_table_model.h"
#include "models/node_table_model.h"
#include "models/snapshot_filter_proxy_model.h"
#include "offline_remote_shell.h"
#include "prometheus/idle_gpu_limit_findings.h"
#include "synthetic_cluster.h"
#include "synthetic_orchestrator.h"
#include "views/fleet_map_panel.h"
#include "views/fleet_map_view.h"
#include "views/gpu_heatmap_view.h"
#include "views/source_banner.h"
#include "views/heatmap_panel.h"
#include "views/layer_panel.h"
#include "views/log_panel.h"
#include "views/stack_overview_view.h"
#include "views/table_page.h"

#include "session/cluster_session.h"
#include "profile/profile_store.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QUrlQuery>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

ClusterSnapshot labLikeCluster()
{
    SyntheticClusterOptions o;
    o.nodes = 4;
    o.gpusPerNode = 8;
    o.jobs = 8;
    o.busyFraction = 0.5;
    o.seed = 5;
    o.missingMetricsFraction = 0;
    ClusterSnapshot s = SyntheticCluster::generate(o);
    // One job over three nodes, as a 3-node training run.
    Job &job = s.jobs.first();
    job.setState(QStringLiteral("RUNNING"));
    job.nodes = {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02"), QStringLiteral("gpu-node03")};
    return s;
}

QStringList actionTexts(const QMenu *menu)
{
    QStringList texts;
    for (const QAction *a : menu->actions())
        if (!a->isSeparator())
            texts << a->text();
    return texts;
}

QAction *named(const QMenu *menu, const QString &name)
{
    for (QAction *a : menu->actions())
        if (a->objectName() == name)
            return a;
    return nullptr;
}

} // namespace

class TestContextMenus : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ProfileStore> m_store;
    std::unique_ptr<MainWindow> m_window;

    ClusterView *connectSynthetic(ClusterSnapshot state, const QString &grafanaNodeUrl = {}, const QString &grafanaJobUrl = {})
    {
        ClusterProfile p;
        p.name = QStringLiteral("synthetic");
        p.grafanaNodeUrl = grafanaNodeUrl;
        p.grafanaJobUrl = grafanaJobUrl;
        p.sshHost = QStringLiteral("127.0.0.1");
        p.refreshIntervalSeconds = 3600;
        m_window->adoptSession(std::make_unique<ClusterSession>(
            p, std::make_shared<OfflineRemoteShell>(), std::make_unique<SyntheticOrchestrator>(std::move(state))));
        return m_window->clusterView();
    }

    // Right-clicks the row with this key in a table (through its proxy) and returns the menu.
    QMenu *menuOnRow(QTableView *table, const QString &key)
    {
        const QAbstractItemModel *model = table->model();
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row, 0);
            if (index.data(SnapshotRowModel::KeyRole).toString() != key)
                continue;
            table->scrollTo(index);
            Q_EMIT table->customContextMenuRequested(table->visualRect(index).center());
            return openMenu();
        }
        return nullptr;
    }

    // STRATA_SHOT_DIR set: saves the window with the open menu painted where it pops up.
    void shoot(QMenu *menu, const QString &name)
    {
        const QString dir = qEnvironmentVariable("STRATA_SHOT_DIR");
        if (dir.isEmpty())
            return;
        QPixmap shot = m_window->grab();
        QPainter painter(&shot);
        painter.drawPixmap(m_window->mapFromGlobal(menu->pos()), menu->grab());
        painter.end();
        shot.save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
    }

    QMenu *openMenu()
    {
        QMenu *menu = nullptr;
        // The callers verify the menu: null when none opened within 3 s.
        const bool opened = QTest::qWaitFor([&] {
            menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
            return menu != nullptr;
        }, 3000);
        return opened ? menu : nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void init()
    {
        m_store = std::make_unique<ProfileStore>(m_dir.filePath(QStringLiteral("clusters.json")));
        m_window = std::make_unique<MainWindow>(m_store.get());
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup()
    {
        if (QWidget *popup = QApplication::activePopupWidget())
            popup->close();
        m_window.reset();
    }

    void nodeRowMenuDrainsThatNode()
    {
        ClusterView *view = connectSynthetic(labLikeCluster());
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        view->tabs()->setCurrentWidget(view->nodesPage());
        QMenu *menu = menuOnRow(view->nodesPage()->view(), QStringLiteral("gpu-node02"));
        QVERIFY(menu);
        QCOMPARE(actionTexts(menu), (QStringList{QStringLiteral("Drain gpu-node02…"), QStringLiteral("Resume gpu-node02…"),
                                                 QStringLiteral("Burn-in gpu-node02…"), QStringLiteral("Copy name(s)"), QStringLiteral("Filter Nodes to gpu-node02"),
                                                 QStringLiteral("Jobs on gpu-node02"), QStringLiteral("Open shell on gpu-node02"),
                                                 QStringLiteral("Open gpu-node02 in Grafana")}));
        QVERIFY(named(menu, QStringLiteral("contextDrain"))->isEnabled());
        QAction *resume = named(menu, QStringLiteral("contextResume"));
        QVERIFY(!resume->isEnabled()); // not drained: nothing to resume, and the tooltip says so
        QCOMPARE(resume->toolTip(), QStringLiteral("Not drained or down: nothing to resume"));
        named(menu, QStringLiteral("contextDrain"))->trigger();
        menu->close();
        DrainDialog *drain = nullptr;
        QVERIFY(QTest::qWaitFor([&] {
            for (DrainDialog *d : m_window->findChildren<DrainDialog *>())
                if (d->isVisible())
                    drain = d;
            return drain != nullptr;
        }, 3000));
        QCOMPARE(drain->nodes(), QStringList{QStringLiteral("gpu-node02")});
        // Not the 200 px it once opened at: the question and a reason fit without wrapping word by word.
        QVERIFY2(drain->width() >= drain->fontMetrics().averageCharWidth() * DrainDialog::kMinimumWidthChars,
                 qPrintable(QString::number(drain->width())));
        drain->setReason(QStringLiteral("from the menu"));
        QTest::mouseClick(drain->findChild<QPushButton *>(QStringLiteral("drain")), Qt::LeftButton);
        const auto node2 = [view] { return view->nodeModel()->node(view->nodeModel()->rowForKey(QStringLiteral("gpu-node02"))); };
        QTRY_VERIFY_WITH_TIMEOUT(node2().isDrained(), 5000);

        // Drained now: Resume applies.
        menu = menuOnRow(view->nodesPage()->view(), QStringLiteral("gpu-node02"));
        QVERIFY(menu);
        QVERIFY(named(menu, QStringLiteral("contextResume"))->isEnabled());
        named(menu, QStringLiteral("contextResume"))->trigger();
        menu->close();
        QMessageBox *box = nullptr;
        QVERIFY(QTest::qWaitFor([&] {
            for (QMessageBox *b : m_window->findChildren<QMessageBox *>())
                if (b->isVisible())
                    box = b;
            return box != nullptr;
        }, 3000));
        QVERIFY(box->text().contains(QStringLiteral("gpu-node02")));
        // Enter picks the harmless button (issue 33): the node stays drained.
        QCOMPARE(box->defaultButton(), box->button(QMessageBox::Cancel));
        QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("confirm")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!node2().isDrained(), 5000);
    }

    void menuOnASelectedRowActsOnTheWholeSelection()
    {
        ClusterView *view = connectSynthetic(labLikeCluster());
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        view->tabs()->setCurrentWidget(view->nodesPage());
        QTableView *table = view->nodesPage()->view();
        table->selectAll();
        QMenu *menu = menuOnRow(table, QStringLiteral("gpu-node03"));
        QVERIFY(menu);
        QCOMPARE(named(menu, QStringLiteral("contextDrain"))->text(), QStringLiteral("Drain 4 nodes…"));
        named(menu, QStringLiteral("contextCopy"))->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(),
                 QStringLiteral("gpu-node01\ngpu-node02\ngpu-node03\ngpu-node04"));
    }

    void actionsApplyToTheLastPickNotAnOlderTableSelection()
    {
        ClusterView *view = connectSynthetic(labLikeCluster());
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        QTRY_VERIFY(view->jobModel()->rowCount() >= 2);
        view->tabs()->setCurrentWidget(view->nodesPage());
        QTableView *table = view->nodesPage()->view();
        table->selectAll();
        QCOMPARE(view->actionNodes().size(), 4); // a pick inside the selection: all of it
        // A GPU picked on the heatmap afterwards: Drain names its node alone (issue 33: the
        // table's older selection of four nodes was what Drain acted on).
        view->select(StackElement::gpuOf(QStringLiteral("gpu-node03"), 2));
        QCOMPARE(view->actionNodes(), QStringList{QStringLiteral("gpu-node03")});
        // A node picked on the fleet map outside the table's selection: that node alone.
        table->clearSelection();
        table->selectRow(0);
        const QString firstNode = table->model()->index(0, 0).data(SnapshotRowModel::KeyRole).toString();
        QCOMPARE(view->actionNodes(), QStringList{firstNode});
        const QString other = firstNode == QStringLiteral("gpu-node04") ? QStringLiteral("gpu-node01") : QStringLiteral("gpu-node04");
        view->select(StackElement::node(other));
        QCOMPARE(view->actionNodes(), QStringList{other});
        // The same for jobs: a job picked elsewhere beats an older Jobs-table selection.
        view->tabs()->setCurrentWidget(view->jobsPage());
        QTableView *jobs = view->jobsPage()->view();
        jobs->selectRow(0);
        const QString first = jobs->model()->index(0, 0).data(SnapshotRowModel::KeyRole).toString();
        const QString second = jobs->model()->index(1, 0).data(SnapshotRowModel::KeyRole).toString();
        QCOMPARE(view->actionJob(), first);
        view->select(StackElement::job(second));
        QCOMPARE(view->actionJob(), second);
    }

    void jobRowMenuCancelsCopiesAndFilters()
    {
        ClusterView *view = connectSynthetic(labLikeCluster());
        QTRY_COMPARE(view->jobModel()->rowCount(), 8);
        view->tabs()->setCurrentWidget(view->jobsPage());
        const SnapshotPtr snapshot = view->snapshot();
        const Job *multi = nullptr;
        for (const Job &j : snapshot->jobs)
            if (j.isRunning() && j.nodes.size() >= 2)
                multi = &j;
        QVERIFY2(multi, "the synthetic cluster has a job over several nodes");
        QMenu *menu = menuOnRow(view->jobsPage()->view(), multi->id);
        QVERIFY(menu);
        QVERIFY(named(menu, QStringLiteral("contextCancel"))->isEnabled());
        QCOMPARE(named(menu, QStringLiteral("contextCancel"))->text(), QStringLiteral("Cancel job %1…").arg(multi->id));
        shoot(menu, QStringLiteral("context-menu-job"));
        QAction *output = named(menu, QStringLiteral("contextOutput"));
        QVERIFY(output);
        QVERIFY(!multi->stdoutPath.isEmpty());
        QVERIFY(output->isEnabled());
        QCOMPARE(output->toolTip(), multi->stdoutPath);
        QAction *copyNodes = named(menu, QStringLiteral("contextCopyNodes"));
        QVERIFY(copyNodes);
        copyNodes->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("gpu-node[01-03]"));
        QCOMPARE(copyNodes->text(), QStringLiteral("Copy node list (gpu-node[01-03])"));
        named(menu, QStringLiteral("contextFilter"))->trigger();
        menu->close();
        QCOMPARE(view->jobsPage()->filterEdit()->text(), multi->id);
        QTRY_VERIFY(view->jobsPage()->proxy()->rowCount() >= 1);
        for (int row = 0; row < view->jobsPage()->proxy()->rowCount(); ++row)
            QVERIFY(view->jobsPage()->proxy()->index(row, 0).data(SnapshotRowModel::KeyRole).toString().contains(multi->id));
    }

    void menuKeysOpenTheCurrentRowsMenu()
    {
        ClusterView *view = connectSynthetic(labLikeCluster());
        QTRY_COMPARE(view->jobModel()->rowCount(), 8);
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        view->tabs()->setCurrentWidget(view->nodesPage());
        QTableView *nodes = view->nodesPage()->view();
        QVERIFY(view->nodesPage()->selectKey(QStringLiteral("gpu-node02")));
        nodes->setFocus();
        // Placed at the current row, as a right click on it would be.
        const auto onCurrentRow = [](QTableView *table, const QMenu *menu) {
            const QRect row = table->visualRect(table->currentIndex());
            return QRect(table->viewport()->mapToGlobal(row.topLeft()), row.size()).contains(menu->pos());
        };

        QTest::keyClick(nodes, Qt::Key_F10, Qt::ShiftModifier);
        QMenu *menu = openMenu();
        QVERIFY(menu);
        QCOMPARE(named(menu, QStringLiteral("contextDrain"))->text(), QStringLiteral("Drain gpu-node02…"));
        QCOMPARE(named(menu, QStringLiteral("contextFilter"))->text(), QStringLiteral("Filter Nodes to gpu-node02"));
        QVERIFY(onCurrentRow(nodes, menu));
        menu->close();
        QTRY_VERIFY(!QApplication::activePopupWidget());

        // The Menu key: Qt sends the focus widget a keyboard context menu event at a point of
        // its own choosing; the menu is still the current row's.
        QContextMenuEvent menuKey(QContextMenuEvent::Keyboard, QPoint(2, 2), nodes->mapToGlobal(QPoint(2, 2)));
        QApplication::sendEvent(nodes, &menuKey);
        menu = openMenu();
        QVERIFY(menu);
        QCOMPARE(named(menu, QStringLiteral("contextDrain"))->text(), QStringLiteral("Drain gpu-node02…"));
        QVERIFY(onCurrentRow(nodes, menu));
        menu->close();
        QTRY_VERIFY(!QApplication::activePopupWidget());

        // The Jobs table: the current job's menu.
        view->tabs()->setCurrentWidget(view->jobsPage());
        QTableView *jobs = view->jobsPage()->view();
        const QString job = view->jobModel()->index(3, 0).data(SnapshotRowModel::KeyRole).toString();
        QVERIFY(view->jobsPage()->selectKey(job));
        jobs->setFocus();
        QTest::keyClick(jobs, Qt::Key_F10, Qt::ShiftModifier);
        menu = openMenu();
        QVERIFY(menu);
        QCOMPARE(named(menu, QStringLiteral("contextCancel"))->text(), QStringLiteral("Cancel job %1…").arg(job));
        QVERIFY(onCurrentRow(jobs, menu));
        menu->close();
        QTRY_VERIFY(!QApplication::activePopupWidget());

        // An overview layer, whose key column is hidden: the current row's menu all the same.
        view->tabs()->setCurrentWidget(view->overview());
        QTableView *layer = view->overview()->panel(StackElement::Layer::Node)->view();
        int row = 0;
        while (layer->model()->index(row, 0).data(SnapshotRowModel::KeyRole).toString() != QStringLiteral("gpu-node03"))
            ++row;
        layer->selectionModel()->setCurrentIndex(layer->model()->index(row, 0),
                                                 QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        layer->setFocus();
        QTest::keyClick(layer, Qt::Key_F10, Qt::ShiftModifier);
        menu = openMenu();
        QVERIFY(menu);
        QCOMPARE(named(menu, QStringLiteral("contextDrain"))->text(), QStringLiteral("Drain gpu-node03…"));
        menu->close();
    }

    void openShellStartsTheTerminalWithSsh()
    {
        ClusterView *view = connectSynthetic(labLikeCluster());
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        QStringList launched;
        QString failWith;
        m_window->actions()->setLauncher([&](const QStringList &argv, QString *error) {
            launched = argv;
            *error = failWith;
            return failWith.isEmpty();
        });
        DisplayPreferences prefs = m_window->preferences();
        prefs.terminalCommand = QStringLiteral("myterm --title {title} -x {command}");
        m_window->setPreferences(prefs);

        view->tabs()->setCurrentWidget(view->nodesPage());
        QMenu *menu = menuOnRow(view->nodesPage()->view(), QStringLiteral("gpu-node02"));
        QVERIFY(menu);
        QAction *shell = named(menu, QStringLiteral("contextShell"));
        QVERIFY(shell && shell->isEnabled());
        shell->trigger();
        menu->close();
        QCOMPARE(launched, (QStringList{QStringLiteral("myterm"), QStringLiteral("--title"), QStringLiteral("synthetic: gpu-node02"),
                                        QStringLiteral("-x"), QStringLiteral("ssh"), QStringLiteral("-o"),
                                        QStringLiteral("ProxyCommand=ssh -p 22 -W %h:%p -- 127.0.0.1"), QStringLiteral("-p"),
                                        QStringLiteral("22"), QStringLiteral("-t"), QStringLiteral("--"), QStringLiteral("gpu-node02")}));
        QVERIFY(m_window->log()->text().contains(QStringLiteral("Opened a shell (synthetic: gpu-node02) in myterm")));

        // A running job: srun --overlap into its allocation, on its first node.
        view->tabs()->setCurrentWidget(view->jobsPage());
        const Job *running = nullptr;
        for (const Job &j : view->snapshot()->jobs)
            if (j.isRunning() && j.nodes.size() >= 2)
                running = &j;
        QVERIFY(running);
        menu = menuOnRow(view->jobsPage()->view(), running->id);
        QVERIFY(menu);
        named(menu, QStringLiteral("contextShell"))->trigger();
        menu->close();
        QCOMPARE(launched.mid(4, 5), (QStringList{QStringLiteral("ssh"), QStringLiteral("-p"), QStringLiteral("22"),
                                                  QStringLiteral("-t"), QStringLiteral("--")}));
        QCOMPARE(launched.last(), QStringLiteral("srun --jobid=%1 --overlap --nodes=1 --ntasks=1 --nodelist=%2 --pty bash")
                                      .arg(running->id, running->nodes.first()));

        // A pending job has nothing to open a shell in.
        const Job *pending = nullptr;
        for (const Job &j : view->snapshot()->jobs)
            if (j.isPending())
                pending = &j;
        if (pending) {
            menu = menuOnRow(view->jobsPage()->view(), pending->id);
            QVERIFY(menu);
            QVERIFY(!named(menu, QStringLiteral("contextShell"))->isEnabled());
            menu->close();
        }

        // The terminal cannot start: the log says why, nothing else happens.
        failWith = QStringLiteral("cannot start myterm (not installed, or not on PATH?)");
        m_window->actions()->openShell(ShellTarget::onNode(QStringLiteral("gpu-node01")));
        QVERIFY(m_window->log()->text().contains(QStringLiteral("Open shell (synthetic: gpu-node01): cannot start myterm")));
        // A terminal command without {command} is refused before anything starts.
        launched.clear();
        prefs.terminalCommand = QStringLiteral("myterm --hold");
        m_window->setPreferences(prefs);
        QVERIFY(m_window->actions()->openShell(ShellTarget::onNode(QStringLiteral("gpu-node01"))).isEmpty());
        QVERIFY(launched.isEmpty());
        // A hostile node name never reaches the launcher.
        prefs.terminalCommand.clear();
        m_window->setPreferences(prefs);
        QVERIFY(m_window->actions()->openShell(ShellTarget::onNode(QStringLiteral("gpu;touch /tmp/pwned"))).isEmpty());
        QVERIFY(launched.isEmpty());
        QVERIFY(m_window->log()->text().contains(QStringLiteral("refused: \"gpu;touch /tmp/pwned\" is not a node name")));
    }

    void openInGrafanaFromNodeAndJobRows()
    {
        // Without templates the entries are there, disabled, saying where to set one.
        ClusterView *view = connectSynthetic(labLikeCluster());
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        view->tabs()->setCurrentWidget(view->nodesPage());
        QMenu *menu = menuOnRow(view->nodesPage()->view(), QStringLiteral("gpu-node02"));
        QVERIFY(menu);
        QAction *grafana = named(menu, QStringLiteral("contextGrafana"));
        QVERIFY(grafana && !grafana->isEnabled());
        QVERIFY2(grafana->toolTip().contains(QLatin1String("Grafana node URL")), qPrintable(grafana->toolTip()));
        menu->close();

        view = connectSynthetic(labLikeCluster(), QStringLiteral("https://grafana.example/d/node?var-node={node}&var-gpu={gpu}&from={from}&to={to}"),
                                QStringLiteral("https://grafana.example/d/job?var-job={job}&var-cluster={cluster}&from={from}"));
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        QList<QUrl> opened;
        m_window->actions()->setUrlOpener([&](const QUrl &url) {
            opened << url;
            return true;
        });
        view->tabs()->setCurrentWidget(view->nodesPage());
        menu = menuOnRow(view->nodesPage()->view(), QStringLiteral("gpu-node02"));
        QVERIFY(menu);
        grafana = named(menu, QStringLiteral("contextGrafana"));
        QVERIFY(grafana && grafana->isEnabled());
        grafana->trigger();
        menu->close();
        QCOMPARE(opened.size(), 1);
        const QUrlQuery node(opened.first());
        QCOMPARE(opened.first().host(), QStringLiteral("grafana.example"));
        QCOMPARE(node.queryItemValue(QStringLiteral("var-node")), QStringLiteral("gpu-node02"));
        QCOMPARE(node.queryItemValue(QStringLiteral("var-gpu")), QString());
        const qint64 to = node.queryItemValue(QStringLiteral("to")).toLongLong();
        QCOMPARE(to - node.queryItemValue(QStringLiteral("from")).toLongLong(), qint64(3600 * 1000));
        QVERIFY(qAbs(to - QDateTime::currentMSecsSinceEpoch()) < 60000);

        view->tabs()->setCurrentWidget(view->jobsPage());
        const Job *running = nullptr;
        for (const Job &j : view->snapshot()->jobs)
            if (j.isRunning())
                running = &j;
        QVERIFY(running);
        menu = menuOnRow(view->jobsPage()->view(), running->id);
        QVERIFY(menu);
        named(menu, QStringLiteral("contextGrafana"))->trigger();
        menu->close();
        QCOMPARE(opened.size(), 2);
        const QUrlQuery job(opened.last());
        QCOMPARE(job.queryItemValue(QStringLiteral("var-job")), running->id);
        QCOMPARE(job.queryItemValue(QStringLiteral("var-cluster")), QStringLiteral("synthetic"));
        QVERIFY(m_window->log()->text().contains(QStringLiteral("Opened job %1 in Grafana").arg(running->id)));
    }

    void heatmapCellMenuNamesTheGpuAndOverviewItemsFilter()
    {
        ClusterView *view = connectSynthetic(labLikeCluster());
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        view->tabs()->setCurrentWidget(view->heatmap());
        GpuHeatmapView *heatmap = view->heatmap()->view();
        QTRY_VERIFY(!heatmap->cellRect(QStringLiteral("gpu-node03"), 5).isEmpty());
        const QPoint at = heatmap->cellRect(QStringLiteral("gpu-node03"), 5).center();
        QContextMenuEvent event(QContextMenuEvent::Mouse, at, heatmap->viewport()->mapToGlobal(at));
        QApplication::sendEvent(heatmap->viewport(), &event);
        QMenu *menu = openMenu();
        QVERIFY(menu);
        QCOMPARE(named(menu, QStringLiteral("contextDrain"))->text(), QStringLiteral("Drain gpu-node03…"));
        QCOMPARE(named(menu, QStringLiteral("contextCopy"))->text(), QStringLiteral("Copy \"gpu-node03 GPU 5\""));
        // A GPU's burn-in takes its whole node.
        QCOMPARE(named(menu, QStringLiteral("contextBurnin"))->text(), QStringLiteral("Burn-in gpu-node03…"));
        menu->close();

        // The overview's partition layer: filter the Nodes table to it.
        view->tabs()->setCurrentWidget(view->overview());
        const QString partition = view->snapshot()->partitions.first().name;
        menu = menuOnRow(view->overview()->panel(StackElement::Layer::Partition)->view(), partition);
        QVERIFY(menu);
        int inPartition = 0;
        for (const Node &n : view->snapshot()->nodes)
            inPartition += n.partitions.contains(partition);
        QVERIFY(inPartition > 1);
        QCOMPARE(actionTexts(menu), (QStringList{QStringLiteral("Burn-in the %1 nodes of %2…").arg(inPartition).arg(partition),
                                                 QStringLiteral("Copy name"), QStringLiteral("Filter Nodes to %1").arg(partition)}));
        named(menu, QStringLiteral("contextFilter"))->trigger();
        menu->close();
        QCOMPARE(view->tabs()->currentWidget(), view->nodesPage());
        QCOMPARE(view->nodesPage()->partitionCombo()->currentText(), partition);
    }

    void findingRowMenuActsOnItsNode()
    {
        SyntheticClusterOptions o; // enough GPUs for hot ones and XIDs among them
        o.nodes = 64;
        o.jobs = 100;
        m_window->showSnapshot(std::make_shared<ClusterSnapshot>(SyntheticCluster::generate(o)));
        ClusterView *view = m_window->clusterView();
        QTRY_COMPARE(view->nodeModel()->rowCount(), 64);
        QTableView *findings = view->overview()->findingsView();
        QTRY_VERIFY(findings->model()->rowCount() > 0);
        auto *model = static_cast<FindingTableModel *>(findings->model());
        const Finding finding = model->finding(0);
        Q_EMIT findings->customContextMenuRequested(findings->visualRect(findings->model()->index(0, 0)).center());
        QMenu *menu = openMenu();
        QVERIFY(menu);
        QCOMPARE(named(menu, QStringLiteral("contextDrain"))->text(), QStringLiteral("Drain %1…").arg(finding.node));
        // Shown without a session: nothing can run, and the tooltip says why.
        QVERIFY(!named(menu, QStringLiteral("contextDrain"))->isEnabled());
        QCOMPARE(named(menu, QStringLiteral("contextDrain"))->toolTip(), QStringLiteral("Not connected to the cluster"));
    }

    void idleGpuLimitFindingOffersCancellingItsJob()
    {
        // The "idle-gpu-limit" finding (issue 32) offers the action it names; never taken
        // without the cancel confirmation, and not at all without a session.
        ClusterSnapshot s = labLikeCluster();
        const Job job = s.jobs.first();
        Finding f = Finding::make(Finding::Severity::Warning, QStringLiteral("gpu-node01"), -1,
                                  IdleGpuLimitFindings::findingCode(),
                                  QStringLiteral("job %1 has held 8 GPUs idle for 45 min: `strata cancel %1` frees them").arg(job.id));
        f.job = job.id;
        f.jobs = {job.id};
        s.findings.prepend(f);
        m_window->showSnapshot(std::make_shared<ClusterSnapshot>(s));
        QTableView *findings = m_window->clusterView()->overview()->findingsView();
        QTRY_VERIFY(findings->model()->rowCount() > 0);
        auto *model = static_cast<FindingTableModel *>(findings->model());
        int row = -1;
        for (int r = 0; r < findings->model()->rowCount(); ++r)
            if (model->finding(r).code == IdleGpuLimitFindings::findingCode())
                row = r;
        QVERIFY(row >= 0);
        Q_EMIT findings->customContextMenuRequested(findings->visualRect(findings->model()->index(row, 0)).center());
        QMenu *menu = openMenu();
        QVERIFY(menu);
        QAction *cancel = named(menu, QStringLiteral("contextCancelIdleJob"));
        QVERIFY(cancel);
        QCOMPARE(cancel->text(), QStringLiteral("Cancel idle job %1 of %2…").arg(job.id, job.user));
        QVERIFY(!cancel->isEnabled());
        QCOMPARE(cancel->toolTip(), QStringLiteral("Not connected to the cluster"));
        menu->close();

        // Connected: offered, and taken only through the cancel confirmation ("Keep it" keeps it).
        ClusterView *view = connectSynthetic(labLikeCluster());
        QTRY_COMPARE(view->jobModel()->rowCount(), 8);
        m_window->showSnapshot(std::make_shared<ClusterSnapshot>(s));
        QTRY_VERIFY(findings->model()->rowCount() > row);
        for (int r = 0; r < findings->model()->rowCount(); ++r)
            if (model->finding(r).code == IdleGpuLimitFindings::findingCode())
                row = r;
        Q_EMIT findings->customContextMenuRequested(findings->visualRect(findings->model()->index(row, 0)).center());
        menu = openMenu();
        QVERIFY(menu);
        cancel = named(menu, QStringLiteral("contextCancelIdleJob"));
        QVERIFY(cancel);
        QVERIFY(cancel->isEnabled());
        QVERIFY(cancel->toolTip().contains(QStringLiteral("`strata cancel %1`").arg(job.id)));
        cancel->trigger();
        menu->close();
        QMessageBox *confirm = nullptr;
        QTRY_VERIFY((confirm = m_window->findChild<QMessageBox *>(QStringLiteral("confirmCancel"))));
        QVERIFY2(confirm->text().startsWith(QStringLiteral("Cancel job %1").arg(job.id)), qPrintable(confirm->text()));
        confirm->findChild<QPushButton *>(QStringLiteral("keep"))->click();
    }

    void jobsTableShowsHostlistsAndGpuColumnsAt1280()
    {
        ClusterView *view = connectSynthetic(labLikeCluster());
        QTRY_COMPARE(view->jobModel()->rowCount(), 8);
        view->tabs()->setCurrentWidget(view->jobsPage());
        for (int row = 0; row < view->jobModel()->rowCount(); ++row) {
            const Job &j = view->jobModel()->job(row);
            const QString shown = view->jobModel()->index(row, JobTableModel::Nodes).data().toString();
            QVERIFY2(!shown.contains(QLatin1Char(',')) || shown.contains(QLatin1Char('[')), qPrintable(shown));
            if (j.nodes.size() == 3)
                QCOMPARE(shown, QStringLiteral("gpu-node[01-03]"));
        }
        QTableView *table = view->jobsPage()->view();
        QHeaderView *header = table->horizontalHeader();
        for (const int column : {int(JobTableModel::Gpus), int(JobTableModel::Util)}) {
            const int right = header->sectionViewportPosition(column) + header->sectionSize(column);
            QVERIFY2(header->sectionViewportPosition(column) >= 0 && right <= table->viewport()->width(),
                     qPrintable(QStringLiteral("column %1 ends at %2 of %3").arg(column).arg(right).arg(table->viewport()->width())));
        }
    }

    void customWidgetsHaveAccessibleNames()
    {
        ClusterView *view = connectSynthetic(labLikeCluster());
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        // Painted widgets and the tables a screen reader lands on say what they are.
        const QList<QWidget *> widgets = {
            view->heatmap()->view(), view->overview()->gpuView(), view->fleet()->view(),
            view->nodesPage()->view(), view->jobsPage()->view(), view->nodesPage()->filterEdit(),
            view->overview()->findingsView(), m_window->sourceBanner(),
            view->overview()->panel(StackElement::Layer::Partition)->view(),
            view->overview()->panel(StackElement::Layer::Job)->view()};
        for (QWidget *w : widgets)
            QVERIFY2(!w->accessibleName().isEmpty(), w->metaObject()->className());
        QCOMPARE(view->jobsPage()->view()->accessibleName(), QStringLiteral("Table of jobs"));
        QCOMPARE(view->heatmap()->view()->accessibleName(), QStringLiteral("GPU heatmap"));
    }

    void missingKeyringIsAPlainNote()
    {
        // No Secret Service here (no session bus): a note, never "Unknown error".
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        ClusterProfile p;
        p.name = QStringLiteral("with-prometheus");
        p.sshHost = QStringLiteral("127.0.0.1");
        p.sshPort = 1; // nothing listens: the connection fails, which is not what this checks
        p.prometheusUrl = QStringLiteral("http://127.0.0.1:1");
        p.prometheusSecretsInKeyring = true; // a token was given once, and the keyring cannot give it back
        m_window->openSession(p);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->log()->text().contains(QStringLiteral("Prometheus secrets not read")), 10000);
        const QString log = m_window->log()->text();
        QVERIFY2(!log.contains(QStringLiteral("Unknown error")), qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("with-prometheus: Prometheus secrets not read: no desktop keyring on this session: "
                                             "secrets are kept for this session only")),
                 qPrintable(log));
        m_window->closeSession();
    }

    void noKeyringNoteWithoutSecrets()
    {
        // Issue 33: a profile for which no token or password was ever entered asks nothing of
        // the keyring, so a missing one is not worth a word.
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        ClusterProfile p;
        p.name = QStringLiteral("plain-prometheus");
        p.sshHost = QStringLiteral("127.0.0.1");
        p.sshPort = 1;
        p.prometheusUrl = QStringLiteral("http://127.0.0.1:1");
        QVERIFY(!p.prometheusSecretsInKeyring);
        m_window->openSession(p);
        // The session is started at once (no keyring read to wait for).
        QVERIFY(m_window->session());
        QTRY_VERIFY(m_window->log()->text().contains(QStringLiteral("Connecting to plain-prometheus")));
        QTest::qWait(200);
        const QString log = m_window->log()->text();
        QVERIFY2(!log.contains(QStringLiteral("Prometheus secrets")), qPrintable(log));
        QVERIFY2(!log.contains(QStringLiteral("keyring")), qPrintable(log));
        m_window->closeSession();
    }
};

QTEST_MAIN(TestContextMenus)
#include "tst_context_menus.moc"
