// The fleet map: 2,048 nodes / 16,384 GPUs all on screen in the window at 1280x800 (each GPU its
// own cell of at least 2 px, none outside the viewport, none overlapping), grouped with a header
// per instance type or partition set, missing values hatched, hover, click-through, wheel zoom.

#include "cluster_view.h"
#include "main_window.h"
#include "synthetic_cluster.h"
#include "views/color_map.h"
#include "views/fleet_map_panel.h"
#include "views/fleet_map_view.h"

#include "profile/profile_store.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QMenu>
#include <QScrollBar>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

using namespace strata;

class TestFleetMapView : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ProfileStore> m_store;
    std::unique_ptr<MainWindow> m_window;
    SnapshotPtr m_fleet;

    FleetMapView *map() const { return m_window->clusterView()->fleet()->view(); }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        SyntheticClusterOptions o;
        o.nodes = 2048;
        o.gpusPerNode = 8;
        o.jobs = 5000;
        o.missingMetricsFraction = 0.01;
        m_fleet = std::make_shared<const ClusterSnapshot>(SyntheticCluster::generate(o));
    }

    void init()
    {
        m_store = std::make_unique<ProfileStore>(m_dir.filePath(QStringLiteral("clusters.json")));
        m_window = std::make_unique<MainWindow>(m_store.get());
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_window->showSnapshot(m_fleet);
        // These tests are about a metric's values (hover text, missing values): by utilisation,
        // not the default by node state.
        m_window->clusterView()->fleet()->setMetric(HeatmapMetric::Kind::Utilisation);
        m_window->clusterView()->tabs()->setCurrentWidget(m_window->clusterView()->fleet());
        QTRY_VERIFY_WITH_TIMEOUT(m_window->clusterView()->snapshot() == m_fleet, 10000);
        QTRY_VERIFY(map()->isVisible());
    }

    void cleanup() { m_window.reset(); }

    void everyGpuOf2048NodesIsOnScreenAt1280x800_data()
    {
        QTest::addColumn<int>("grouping");
        QTest::addColumn<int>("groups");
        QTest::newRow("instance type") << int(FleetMapLayout::Grouping::InstanceType) << 3;
        QTest::newRow("partition") << int(FleetMapLayout::Grouping::Partition) << 3;
    }

    void everyGpuOf2048NodesIsOnScreenAt1280x800()
    {
        QFETCH(int, grouping);
        QFETCH(int, groups);
        QComboBox *combo = m_window->clusterView()->fleet()->groupingCombo();
        combo->setCurrentIndex(combo->findData(grouping));
        FleetMapView *view = map();
        QCOMPARE(int(view->grouping()), grouping);
        QVERIFY2(view->viewport()->width() < 1280 && view->viewport()->height() < 800,
                 "the map shares the window with the docks and the status bar");
        QCOMPARE(view->verticalScrollBar()->maximum(), 0);   // no scrolling needed
        QCOMPARE(view->horizontalScrollBar()->maximum(), 0);
        const FleetMapLayout &layout = view->layoutInfo();
        QCOMPARE(int(layout.groups.size()), groups);
        int grouped = 0;
        for (const FleetMapLayout::Group &g : layout.groups) {
            grouped += int(g.nodes.size());
            QVERIFY(view->viewport()->rect().contains(g.header));
            QVERIFY2(g.title.contains(QStringLiteral(" nodes \u00b7 ")), qPrintable(g.title));
        }
        QCOMPARE(grouped, 2048);
        QVERIFY2(layout.cell >= 2, qPrintable(QString::number(layout.cell)));
        const QRect viewportRect = view->viewport()->rect();
        QSet<QPair<int, int>> seen;
        int cells = 0;
        for (const Node &node : m_fleet->nodes) {
            QCOMPARE(int(node.gpus.size()), 8);
            for (const Gpu &gpu : node.gpus) {
                const QRect cell = view->cellRect(node.name, gpu.index);
                QVERIFY2(cell.width() >= 2 && cell.height() >= 2, qPrintable(node.name));
                QVERIFY2(viewportRect.contains(cell), qPrintable(QStringLiteral("%1 GPU %2 at %3,%4 outside %5x%6")
                                                                     .arg(node.name).arg(gpu.index).arg(cell.x()).arg(cell.y())
                                                                     .arg(viewportRect.width()).arg(viewportRect.height())));
                seen.insert({cell.x(), cell.y()});
                ++cells;
            }
        }
        QCOMPARE(cells, 16384);
        QCOMPARE(int(seen.size()), 16384); // no two GPUs share a cell
    }

    // The layout is a pure function of the snapshot, grouping and viewport: computing it again
    // gives the same blocks (what lets the view recompute it on every resize without flicker).
    // Its cost is measured by bench_ui_refresh, not asserted here (speed goals live in benchmarks).
    void layoutIsAPureFunction()
    {
        const FleetMapLayout first =
            FleetMapLayout::compute(*m_fleet, FleetMapLayout::Grouping::Partition, QSize(940, 520), 1.0, 16);
        for (int i = 0; i < 3; ++i) {
            const FleetMapLayout again =
                FleetMapLayout::compute(*m_fleet, FleetMapLayout::Grouping::Partition, QSize(940, 520), 1.0, 16);
            QCOMPARE(again.cell, first.cell);
            QCOMPARE(again.nodeRects, first.nodeRects);
            QCOMPARE(again.groups.size(), first.groups.size());
        }
        QCOMPARE(first.nodeRects.size(), m_fleet->nodes.size());
    }

    void hoverNamesTheGpuItsValueAndJob()
    {
        const Node *busy = nullptr;
        const Gpu *gpu = nullptr;
        for (const Node &n : m_fleet->nodes) {
            for (const Gpu &g : n.gpus)
                if (!g.jobId.isEmpty() && g.metrics.utilPercent) {
                    busy = &n;
                    gpu = &g;
                    break;
                }
            if (busy)
                break;
        }
        QVERIFY(busy);
        const Job *job = m_fleet->job(gpu->jobId);
        QVERIFY(job);
        const QString tip = map()->toolTipAt(map()->cellRect(busy->name, gpu->index).center());
        QCOMPARE(tip, QStringLiteral("%1 GPU %2 %3\nUtilisation (%): %4\njob %5 %6 (%7)")
                          .arg(busy->name).arg(gpu->index).arg(gpu->model.isEmpty() ? busy->gpuModel : gpu->model)
                          .arg(qRound(*gpu->metrics.utilPercent)).arg(job->id, job->name, job->user));
    }

    void missingValuesAreHatchedNotZero()
    {
        const Node *node = nullptr;
        const Gpu *gpu = nullptr;
        for (const Node &n : m_fleet->nodes)
            for (const Gpu &g : n.gpus)
                if (!node && !g.metrics.utilPercent && !n.isUnavailable()) {
                    node = &n;
                    gpu = &g;
                }
        QVERIFY2(node, "1% of the GPUs have no metrics");
        const QRect cell = map()->cellRect(node->name, gpu->index);
        const QImage image = map()->viewport()->grab().toImage();
        const QPalette pal = map()->palette();
        // The hatch is translucent: its pixels are the hatch colour blended over the fill.
        const QColor fill = ColorMap::missingFill(pal), hatch = ColorMap::missingHatch(pal);
        const auto blend = [&](int f, int h) { return f + (h - f) * hatch.alphaF(); };
        QSet<QRgb> allowed = {fill.rgb()};
        for (double delta : {-0.5, 0.0, 0.5}) // rounding of the blend
            allowed.insert(qRgb(qBound(0, qRound(blend(fill.red(), hatch.red()) + delta), 255),
                                qBound(0, qRound(blend(fill.green(), hatch.green()) + delta), 255),
                                qBound(0, qRound(blend(fill.blue(), hatch.blue()) + delta), 255)));
        int zeroColoured = 0;
        for (int x = cell.left(); x <= cell.right(); ++x)
            for (int y = cell.top(); y <= cell.bottom(); ++y) {
                const QRgb px = image.pixel(x * image.width() / map()->viewport()->width(), y * image.height() / map()->viewport()->height());
                QVERIFY2(allowed.contains(px), qPrintable(QStringLiteral("%1 at %2,%3 in cell %4,%5 %6x%7; allowed %8 %9")
                                                              .arg(QString::number(px, 16)).arg(x).arg(y).arg(cell.x()).arg(cell.y())
                                                              .arg(cell.width()).arg(cell.height())
                                                              .arg(QString::number(fill.rgb(), 16))
                                                              .arg(QString::number(hatch.rgba(), 16))));
                zeroColoured += px == ColorMap::sequential(0).rgb();
            }
        QCOMPARE(zeroColoured, 0);
    }

    void clickPicksTheGpuAndWheelZooms()
    {
        FleetMapView *view = map();
        const Node &node = m_fleet->nodes[1500];
        const QRect cell = view->cellRect(node.name, 6);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(m_window->clusterView()->selection(), StackElement::gpuOf(node.name, 6));

        const int before = view->layoutInfo().cell;
        const QPoint at = cell.center();
        QWheelEvent in(at, view->viewport()->mapToGlobal(at), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                       Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &in);
        QVERIFY2(view->layoutInfo().cell > before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(view->layoutInfo().cell)));
        QVERIFY(view->horizontalScrollBar()->maximum() > 0); // wider than the viewport now

        // Zoomed well in, both ways scrollable: a wheel step keeps the GPU under the cursor.
        view->setZoom(4.0);
        QVERIFY(view->verticalScrollBar()->maximum() > 0);
        const QPoint middle = view->viewport()->rect().center();
        view->horizontalScrollBar()->setValue(view->cellRect(node.name, 6).center().x() + view->horizontalScrollBar()->value() - middle.x());
        view->verticalScrollBar()->setValue(view->cellRect(node.name, 6).center().y() + view->verticalScrollBar()->value() - middle.y());
        const QPoint target = view->cellRect(node.name, 6).center();
        QVERIFY(view->viewport()->rect().contains(target));
        QWheelEvent more(target, view->viewport()->mapToGlobal(target), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                         Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &more);
        const QRect after = view->cellRect(node.name, 6);
        QVERIFY2((after.center() - target).manhattanLength() <= 2,
                 qPrintable(QStringLiteral("%1,%2 vs %3,%4").arg(after.center().x()).arg(after.center().y()).arg(target.x()).arg(target.y())));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, after.center());
        QCOMPARE(m_window->clusterView()->selection(), StackElement::gpuOf(node.name, 6));
    }

    void keyboardReachesEveryCell()
    {
        FleetMapView *view = map();
        ClusterView *cluster = m_window->clusterView();
        QCOMPARE(view->focusPolicy(), Qt::StrongFocus);
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        const FleetMapLayout &layout = view->layoutInfo();
        const QString first = m_fleet->nodes[layout.groups.first().nodes.first()].name;
        const QString second = m_fleet->nodes[layout.groups.first().nodes.at(1)].name;
        const Node &last = m_fleet->nodes[layout.groups.last().nodes.last()];
        const auto at = [view](const QString &node, int gpu) {
            return view->currentNode() == node && view->currentGpu() == gpu;
        };
        const auto centre = [view] { return view->cellRect(view->currentNode(), view->currentGpu()).center(); };

        // Focus frames the first GPU in reading order; nothing is picked until asked.
        const StackElement before = cluster->selection();
        view->setFocus(Qt::TabFocusReason);
        QVERIFY(at(first, 0));
        QTest::keyClick(view, Qt::Key_Right);
        QVERIFY(at(first, 1));
        QTest::keyClick(view, Qt::Key_End);
        QVERIFY(at(first, 7));
        QTest::keyClick(view, Qt::Key_Right); // on to the next node
        QVERIFY(at(second, 0));
        QTest::keyClick(view, Qt::Key_Left);
        QVERIFY(at(first, 7));
        QTest::keyClick(view, Qt::Key_Home);
        QVERIFY(at(first, 0));
        // Down: the nearest cell on the next line, then on down to the node below.
        QPoint was = centre();
        QTest::keyClick(view, Qt::Key_Down);
        QVERIFY(at(first, 4));
        QVERIFY(centre().y() > was.y() && qAbs(centre().x() - was.x()) <= layout.cell);
        was = centre();
        QTest::keyClick(view, Qt::Key_Down);
        QVERIFY(view->currentNode() != first);
        QVERIFY(centre().y() > was.y() && qAbs(centre().x() - was.x()) <= layout.cell + layout.nodeGap);
        QTest::keyClick(view, Qt::Key_Up);
        QVERIFY(at(first, 4));
        QTest::keyClick(view, Qt::Key_PageDown);
        QVERIFY(centre().y() > was.y());
        QTest::keyClick(view, Qt::Key_PageUp);
        QCOMPARE(view->currentNode(), first);
        QTest::keyClick(view, Qt::Key_End, Qt::ControlModifier);
        QVERIFY(at(last.name, last.gpus.last().index));
        QVERIFY(view->viewport()->rect().contains(centre()));
        QTest::keyClick(view, Qt::Key_Home, Qt::ControlModifier);
        QVERIFY(at(first, 0));
        QCOMPARE(cluster->selection(), before);

        // Enter and Space pick as a click does.
        QTest::keyClick(view, Qt::Key_Right);
        QTest::keyClick(view, Qt::Key_Return);
        QCOMPARE(cluster->selection(), StackElement::gpuOf(first, 1));
        QTest::keyClick(view, Qt::Key_Right);
        QTest::keyClick(view, Qt::Key_Space);
        QCOMPARE(cluster->selection(), StackElement::gpuOf(first, 2));

        // The current cell is framed while the map has focus, and only then.
        const QRect framed = view->cellRect(first, 2);
        const QRgb text = view->palette().color(QPalette::Text).rgb();
        QCOMPARE(view->viewport()->grab().toImage().pixel(framed.left() - 1, framed.center().y()), text);

        // Shift+F10 and the Menu key: the window's menu for the current GPU, beside it.
        QSignalSpy menus(view, &FleetMapView::contextMenuRequested);
        QTest::keyClick(view, Qt::Key_F10, Qt::ShiftModifier);
        QCOMPARE(menus.count(), 1);
        QCOMPARE(menus.first().at(0).toString(), first);
        QCOMPARE(menus.first().at(1).toInt(), 2);
        QCOMPARE(menus.first().at(2).toPoint(), view->viewport()->mapToGlobal(framed.center()));
        QMenu *menu = nullptr;
        QVERIFY(QTest::qWaitFor([&] { return (menu = qobject_cast<QMenu *>(QApplication::activePopupWidget())); }, 3000));
        QVERIFY(menu->findChild<QAction *>(QStringLiteral("contextDrain")));
        QCOMPARE(menu->findChild<QAction *>(QStringLiteral("contextDrain"))->text(), QStringLiteral("Drain %1…").arg(first));
        menu->close();
        QTRY_VERIFY(!QApplication::activePopupWidget());
        QContextMenuEvent menuKey(QContextMenuEvent::Keyboard, QPoint(1, 1), view->mapToGlobal(QPoint(1, 1)));
        QApplication::sendEvent(view, &menuKey);
        QCOMPARE(menus.count(), 2);
        QCOMPARE(menus.last().at(1).toInt(), 2);
        QVERIFY(QTest::qWaitFor([&] { return (menu = qobject_cast<QMenu *>(QApplication::activePopupWidget())); }, 3000));
        menu->close();
        QTRY_VERIFY(!QApplication::activePopupWidget());

        view->clearFocus();
        QVERIFY(view->viewport()->grab().toImage().pixel(framed.left() - 1, framed.center().y()) != text);
    }
};

QTEST_MAIN(TestFleetMapView)
#include "tst_fleet_map_view.moc"
