// The real window with a connected synthetic cluster (static and powered-down nodes, a
// draining, a down and a powering-up node; running, pending and configuring jobs) at 1280x800
// and 1920x1080, checked the way an operator sees it, from the widgets: the tables' needed
// columns on screen and wide enough, the detail dock narrow and its node pane unclipped, the
// heatmap's cells filling their area, the overview's names in the window's font, the fleet
// map naming its nodes and telling states apart, and every surface's counts in one set of
// words. Saves a PNG of each tab at each size under the build directory's screenshots/.

#include "cluster_view.h"
#include "main_window.h"
#include "models/job_table_model.h"
#include "models/node_table_model.h"
#include "models/snapshot_filter_proxy_model.h"
#include "offline_remote_shell.h"
#include "synthetic_cluster.h"
#include "synthetic_orchestrator.h"
#include "views/fleet_map_panel.h"
#include "views/fleet_map_view.h"
#include "views/gpu_heatmap_view.h"
#include "views/heatmap_panel.h"
#include "views/node_detail_pane.h"
#include "views/stack_overview_view.h"
#include "views/state_colouring.h"
#include "views/table_page.h"

#include "profile/profile_store.h"
#include "session/cluster_session.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFontInfo>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

constexpr int kNodes = 16;
const QString kDraining = QStringLiteral("gpu-node01");
const QString kDown = QStringLiteral("gpu-node13");
const QString kPoweredDown = QStringLiteral("gpu-node14");
const QString kPoweringUp = QStringLiteral("gpu-node16");

Node &nodeNamed(ClusterSnapshot &s, const QString &name)
{
    return s.nodes[s.nodeIndexByName.value(name)];
}

// The cluster of the first hour: the synthetic fill (the first half of the nodes
// busy) with one node draining, one down, two powered down and one being launched for a
// CONFIGURING job, and a job pending on the powered-down ones.
ClusterSnapshot firstHourCluster()
{
    SyntheticClusterOptions o;
    o.nodes = kNodes;
    o.gpusPerNode = 8;
    o.jobs = 40;
    o.busyFraction = 0.5;
    o.seed = 11;
    o.missingMetricsFraction = 0;
    ClusterSnapshot s = SyntheticCluster::generate(o);

    Node &draining = nodeNamed(s, kDraining);
    draining.state = QStringLiteral("draining");
    draining.stateFlags = {QStringLiteral("DRAIN")};
    draining.reason = QStringLiteral("Kill task failed");
    draining.reasonUser = QStringLiteral("root");

    const auto emptied = [](Node &n) {
        n.gpusAllocated = 0;
        n.cpusAllocated = 0;
        n.gpuIndicesAllocated.clear();
        for (Gpu &g : n.gpus) {
            g.jobId.clear();
            g.metrics = {};
            g.seenByExporter = false;
        }
    };
    Node &down = nodeNamed(s, kDown);
    emptied(down);
    down.state = QStringLiteral("down");
    down.stateFlags = {QStringLiteral("DOWN"), QStringLiteral("NOT_RESPONDING")};
    down.reason = QStringLiteral("Not responding");
    down.reasonUser = QStringLiteral("slurm");
    for (const QString &name : {kPoweredDown, QStringLiteral("gpu-node15")}) {
        Node &n = nodeNamed(s, name);
        emptied(n);
        n.state = QStringLiteral("idle+cloud+powered_down");
        n.stateFlags = {QStringLiteral("CLOUD"), QStringLiteral("POWERED_DOWN")};
        n.power = PowerState::PoweredDown;
    }
    Node &launching = nodeNamed(s, kPoweringUp);
    emptied(launching);
    launching.state = QStringLiteral("mixed+cloud+powering_up");
    launching.stateFlags = {QStringLiteral("CLOUD"), QStringLiteral("POWERING_UP")};
    launching.power = PowerState::PoweringUp;

    int pendingSeen = 0;
    for (Job &job : s.jobs) {
        if (!job.isPending())
            continue;
        if (pendingSeen++ == 0) { // the CONFIGURING job the launch is for
            job.setState(QStringLiteral("CONFIGURING"));
            job.reason = QStringLiteral("None");
            job.nodes = {kPoweringUp};
            job.gpusRequested = 8;
            job.timeUsedSeconds = 0;
            QVector<int> all;
            for (Gpu &g : launching.gpus) {
                g.jobId = job.id;
                all << g.index;
            }
            job.gpus.insert(kPoweringUp, all);
            launching.gpusAllocated = 8;
            launching.cpusAllocated = 96;
            launching.gpuIndicesAllocated = all;
        } else if (pendingSeen == 2) {
            job.reason = QStringLiteral("ReqNodeNotAvail, UnavailableNodes:gpu-node[13-15]");
        }
    }
    s.finalize();
    return s;
}

ClusterProfile syntheticProfile()
{
    ClusterProfile p;
    p.name = QStringLiteral("first-hour");
    p.sshHost = QStringLiteral("127.0.0.1");
    p.refreshIntervalSeconds = 3600;
    return p;
}

QString sizeName(const QSize &size)
{
    return QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
}

} // namespace

class TestWindowLayout : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ProfileStore> m_store;
    std::unique_ptr<MainWindow> m_window;

    ClusterView *view() const { return m_window->clusterView(); }

    void open(const QSize &size)
    {
        m_store = std::make_unique<ProfileStore>(m_dir.filePath(QStringLiteral("clusters.json")));
        m_window = std::make_unique<MainWindow>(m_store.get());
        m_window->resize(size);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_window->adoptSession(std::make_unique<ClusterSession>(
            syntheticProfile(), std::make_shared<OfflineRemoteShell>(),
            std::make_unique<SyntheticOrchestrator>(firstHourCluster())));
        QTRY_COMPARE(view()->nodeModel()->rowCount(), kNodes);
        QTRY_VERIFY(!view()->isUpdating());
        QCOMPARE(m_window->size(), size);
    }

    // Brings a tab to the front and saves the window as it looks then (before any check, so a
    // failing one still leaves its picture).
    void show(QWidget *tab, const QString &what)
    {
        view()->tabs()->setCurrentWidget(tab);
        QTRY_VERIFY(tab->isVisible());
        QCoreApplication::processEvents();
        save(what);
    }

    void save(const QString &what)
    {
        const QString dir = QStringLiteral(STRATA_BINARY_DIR "/screenshots");
        QDir().mkpath(dir);
        const QString path = QStringLiteral("%1/window-layout-%2-%3.png").arg(dir, sizeName(m_window->size()), what);
        QVERIFY2(m_window->grab().save(path), qPrintable(path));
    }

    // Every needed column of a table: shown, whole inside the viewport, not narrower than its
    // header, and (for the short columns) than its widest cell.
    void checkColumns(TablePage *page, const QList<int> &needed, const QList<int> &whole)
    {
        show(page, page->objectName());
        QTableView *table = page->view();
        QHeaderView *header = table->horizontalHeader();
        const int viewportWidth = table->viewport()->width();
        for (int column : needed) {
            const QString name = table->model()->headerData(column, Qt::Horizontal).toString();
            QVERIFY2(!header->isSectionHidden(column), qPrintable(name));
            const int left = header->sectionViewportPosition(column), width = header->sectionSize(column);
            QVERIFY2(left >= 0 && left + width <= viewportWidth,
                     qPrintable(QStringLiteral("%1 at %2..%3, the viewport is %4 wide")
                                    .arg(name).arg(left).arg(left + width).arg(viewportWidth)));
            QVERIFY2(width >= header->sectionSizeHint(column),
                     qPrintable(QStringLiteral("%1: %2 px, its header needs %3").arg(name).arg(width).arg(header->sectionSizeHint(column))));
            if (!whole.contains(column))
                continue;
            int widest = 0;
            QString widestText;
            for (int row = 0; row < table->model()->rowCount(); ++row) {
                const QModelIndex index = table->model()->index(row, column);
                if (table->sizeHintForIndex(index).width() > widest) {
                    widest = table->sizeHintForIndex(index).width();
                    widestText = index.data().toString();
                }
            }
            QVERIFY2(width >= widest, qPrintable(QStringLiteral("%1: %2 px, \"%3\" needs %4").arg(name).arg(width).arg(widestText).arg(widest)));
        }
        QCOMPARE(table->horizontalScrollBar()->value(), 0);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void cleanup()
    {
        m_window.reset();
        QSettings().clear();
    }

    void windowAtSize_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    void windowAtSize()
    {
        QFETCH(QSize, size);
        open(size);

        // Connected: Details in front of Clusters in one narrow column; the tables get the rest.
        auto *details = m_window->findChild<QDockWidget *>(QStringLiteral("detailDock"));
        auto *clusters = m_window->findChild<QDockWidget *>(QStringLiteral("connectionsDock"));
        QVERIFY(details && clusters);
        QTRY_VERIFY(!details->visibleRegion().isEmpty());
        QVERIFY(clusters->visibleRegion().isEmpty());
        QVERIFY2(view()->width() >= size.width() * 7 / 10,
                 qPrintable(QStringLiteral("the cluster views get %1 of %2 px").arg(view()->width()).arg(size.width())));
        QVERIFY2(details->width() <= 360, qPrintable(QString::number(details->width())));

        // The Nodes tab with a node picked (the Details dock showing it at its default width).
        view()->nodesPage()->selectKey(kDraining);
        QTRY_COMPARE(view()->nodeDetail()->nodeName(), kDraining);
        using N = NodeTableModel;
        checkColumns(view()->nodesPage(),
                     {N::Name, N::State, N::Reason, N::Gpus, N::Util, N::Temp, N::Power, N::Jobs, N::Findings},
                     {N::Name, N::State, N::Gpus, N::Power, N::Jobs, N::Findings});
        if (QTest::currentTestFailed())
            return;
        // The node pane wraps and elides to the dock: no sideways scrolling, no column past it.
        auto *detailScroll = m_window->findChild<QScrollArea *>(QStringLiteral("detailScroll"));
        QVERIFY(detailScroll);
        QCoreApplication::processEvents();
        QString wide;
        for (QWidget *w : view()->nodeDetail()->findChildren<QWidget *>())
            if (w->isVisible() && w->minimumSizeHint().width() > detailScroll->viewport()->width() - 20)
                wide += QStringLiteral(" %1 %2 (%3 px)").arg(QString::fromLatin1(w->metaObject()->className()), w->objectName())
                            .arg(w->minimumSizeHint().width());
        QVERIFY2(detailScroll->horizontalScrollBar()->maximum() == 0,
                 qPrintable(QStringLiteral("the node pane scrolls sideways by %1 px in %2 px:%3")
                                .arg(detailScroll->horizontalScrollBar()->maximum()).arg(detailScroll->viewport()->width()).arg(wide)));
        QTableWidget *gpus = view()->nodeDetail()->gpuTable();
        QVERIFY2(gpus->horizontalHeader()->length() <= gpus->viewport()->width(),
                 qPrintable(QStringLiteral("GPU columns %1 px in %2").arg(gpus->horizontalHeader()->length()).arg(gpus->viewport()->width())));
        QVERIFY(view()->nodeDetail()->geometry().right() <= detailScroll->viewport()->width());

        using J = JobTableModel;
        checkColumns(view()->jobsPage(), {J::Id, J::Name, J::User, J::State, J::Gpus, J::TimeUsed, J::TimeLimit, J::Reason},
                     {J::Id, J::State, J::Gpus, J::TimeUsed, J::TimeLimit});
        if (QTest::currentTestFailed())
            return;

        // The heatmap: every node on screen, the cells filling most of the area (or as big as
        // they are allowed to be).
        view()->select({});
        show(view()->heatmap(), QStringLiteral("heatmap"));
        GpuHeatmapView *heatmap = view()->heatmap()->view();
        QCOMPARE(heatmap->verticalScrollBar()->maximum(), 0);
        const QRect area = heatmap->viewport()->rect();
        qint64 cellArea = 0;
        const SnapshotPtr snapshot = view()->snapshot();
        for (const Node &n : snapshot->nodes)
            for (const Gpu &g : n.gpus) {
                const QRect cell = heatmap->cellRect(n.name, g.index);
                QVERIFY2(area.contains(cell), qPrintable(n.name));
                cellArea += qint64(cell.width()) * cell.height();
            }
        const double used = double(cellArea) / (qint64(area.width()) * area.height());
        QVERIFY2(used >= 0.5 || heatmap->cellSize() == heatmap->maximumCellSize(),
                 qPrintable(QStringLiteral("cells %1x%2 cover %3% of %4x%5")
                                .arg(heatmap->cellSize().width()).arg(heatmap->cellSize().height())
                                .arg(qRound(used * 100)).arg(area.width()).arg(area.height())));

        // The overview's node names: the window's font, in rows tall enough for it.
        show(view()->overview(), QStringLiteral("overview"));
        GpuHeatmapView *overviewGpus = view()->overview()->gpuView();
        const QFontInfo appFont(QApplication::font());
        const QFontInfo labels(overviewGpus->labelFont());
        QVERIFY2(labels.pixelSize() >= appFont.pixelSize(),
                 qPrintable(QStringLiteral("%1 px names, the window's font is %2 px").arg(labels.pixelSize()).arg(appFont.pixelSize())));
        QVERIFY(overviewGpus->cellRect(kDraining, 0).height() >= QFontMetrics(overviewGpus->labelFont()).height());

        // The same counts in the same words on the status bar, the overview and the heatmap.
        const ClusterSnapshot::Totals &totals = view()->totals();
        const QLocale locale;
        const QString split = totals.gpuSplitText(locale), jobs = totals.jobSplitText(locale);
        QCOMPARE(totals.nodes, kNodes);
        QCOMPARE(totals.gpus, kNodes * 8);
        QCOMPARE(totals.gpusBusy + totals.gpusIdle + totals.gpusStarting + totals.gpusLaunchable + totals.gpusUnavailable, totals.gpus);
        auto *status = m_window->findChild<QLabel *>(QStringLiteral("statusTotals"));
        auto *heatmapSummary = view()->heatmap()->findChild<QLabel *>(QStringLiteral("heatmapSummary"));
        QVERIFY(status && heatmapSummary);
        QCOMPARE(status->text(), QStringLiteral("GPUs %1 \u00b7 jobs %2").arg(split, jobs));
        QVERIFY2(view()->overview()->totalsText().contains(
                     QStringLiteral("<b>%1</b> nodes \u00b7 <b>%2</b> GPUs").arg(kNodes).arg(kNodes * 8)),
                 qPrintable(view()->overview()->totalsText()));
        QVERIFY2(view()->overview()->totalsText().contains(QStringLiteral(": %1 \u00b7 jobs: %2,").arg(split.toHtmlEscaped(), jobs.toHtmlEscaped())),
                 qPrintable(view()->overview()->totalsText()));
        QCOMPARE(heatmapSummary->text(), QStringLiteral("%1 nodes, %2 GPUs: %3").arg(kNodes).arg(kNodes * 8).arg(split));
        QCOMPARE(view()->nodesPage()->countText(), QStringLiteral("%1 nodes").arg(kNodes));
        QVERIFY2(split.contains(QStringLiteral(" starting")) && split.contains(QStringLiteral(" launchable")), qPrintable(split));

        // The fleet map: by node state, named where the names fit, each state its own colour.
        show(view()->fleet(), QStringLiteral("fleet"));
        FleetMapView *fleet = view()->fleet()->view();
        QCOMPARE(fleet->metric(), HeatmapMetric::Kind::NodeState);
        const FleetMapLayout &layout = fleet->layoutInfo();
        const QFontMetrics fm = fleet->fontMetrics();
        QVERIFY2(layout.labelHeight >= fm.height(), qPrintable(QString::number(layout.labelHeight)));
        for (int i = 0; i < snapshot->nodes.size(); ++i) {
            const QRect name = layout.nameRect(i).translated(-fleet->horizontalScrollBar()->value(), -fleet->verticalScrollBar()->value());
            QVERIFY2(name.width() >= fm.horizontalAdvance(snapshot->nodes[i].name), qPrintable(snapshot->nodes[i].name));
            QVERIFY2(fleet->viewport()->rect().contains(name), qPrintable(snapshot->nodes[i].name));
        }
        const QImage image = fleet->viewport()->grab().toImage();
        const auto shown = [&](const QString &node) {
            const QPoint at = fleet->cellRect(node, 0).center();
            return QColor(image.pixel(at.x() * image.width() / fleet->viewport()->width(),
                                      at.y() * image.height() / fleet->viewport()->height()));
        };
        QString busy;
        for (const Node &n : snapshot->nodes)
            if (busy.isEmpty() && !n.isUnavailable() && isLaunched(n.power) && !n.gpus.first().jobId.isEmpty())
                busy = n.name;
        QVERIFY(!busy.isEmpty());
        using C = StateColouring::Class;
        const QList<std::pair<QString, C>> expected = {{kDown, C::Down}, {kPoweredDown, C::PoweredDown},
                                                       {kPoweringUp, C::Starting}, {busy, C::Busy}};
        for (const auto &[node, cls] : expected)
            QCOMPARE(shown(node).name(), StateColouring::color(cls).name());
        const bool drainingHeld = !snapshot->node(kDraining)->gpus.first().jobId.isEmpty();
        QCOMPARE(shown(kDraining).name(), StateColouring::color(drainingHeld ? C::Draining : C::Drained).name());
    }

    // Down, drained, draining, powered down, busy and idle never look alike: every two classes'
    // colours lie far apart.
    void stateColoursAreDistinct()
    {
        const QList<StateColouring::Class> classes = StateColouring::all();
        for (int a = 0; a < classes.size(); ++a)
            for (int b = a + 1; b < classes.size(); ++b) {
                const QColor x = StateColouring::color(classes[a]), y = StateColouring::color(classes[b]);
                const int distance = qAbs(x.red() - y.red()) + qAbs(x.green() - y.green()) + qAbs(x.blue() - y.blue());
                QVERIFY2(distance >= 90, qPrintable(QStringLiteral("%1 and %2: %3 apart")
                                                        .arg(StateColouring::name(classes[a]), StateColouring::name(classes[b]))
                                                        .arg(distance)));
            }
    }
};

QTEST_MAIN(TestWindowLayout)
#include "tst_window_layout.moc"
