#pragma once

#include "fleet_map_layout.h"
#include "heatmap_metric.h"
#include "models/relations.h"

#include "model/cluster_snapshot.h"

#include <QAbstractScrollArea>
#include <QRgb>
#include <QVector>

namespace strata {

// The whole fleet on one screen: one small cell per GPU, each node a tight block of its GPUs,
// grouped under a header per instance type or partition set, coloured by a heatmap metric
// (missing values hatched grey, never the colour of zero). At zoom 1 everything fits the
// viewport (2,048 nodes / 16,384 GPUs in a 1280x800 window at 3 px a cell); the wheel zooms
// around the cursor, the scroll bars take over once it no longer fits. Hover names the GPU,
// its value and its job; a click picks it as the heatmap does. One paintEvent over a prepared
// layout and colour table (both rebuilt only when the snapshot, metric, grouping, size or zoom
// change); no widget per cell. Where the blocks are as wide as the names, each is named on a
// line above it. The keyboard moves a current cell, framed while the map has focus: Left/Right
// through the GPUs in reading order, Up/Down/PageUp/PageDown to the nearest cell on the line
// above or below, Home/End within the node (Ctrl: the whole map); Enter or Space picks it as a
// click does; the Menu key or Shift+F10 opens its context menu. GUI thread.
class FleetMapView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    explicit FleetMapView(QWidget *parent = nullptr);

    void setSnapshot(const SnapshotPtr &snapshot);
    // What is drawn while there is no node to draw ("Connecting to login01…"); ClusterView
    // says it from how the window stands with its cluster.
    void setPlaceholder(const QString &text);
    QString placeholder() const { return m_placeholder; }
    void setMetric(HeatmapMetric::Kind metric);
    HeatmapMetric::Kind metric() const { return m_metric; }
    void setGrouping(FleetMapLayout::Grouping grouping);
    FleetMapLayout::Grouping grouping() const { return m_grouping; }
    void setRelations(const Relations &relations);
    void setZoom(double zoom); // 1: fit the viewport
    double zoom() const { return m_zoom; }

    const FleetMapLayout &layoutInfo() const { return m_layout; }
    // A GPU's cell in viewport coordinates (empty when unknown).
    QRect cellRect(const QString &node, int gpu) const;
    QString toolTipAt(const QPoint &viewportPos) const;
    // The keyboard's cell: a node (empty: none yet) and its GPU's index, or -1 for the node.
    QString currentNode() const;
    int currentGpu() const;

Q_SIGNALS:
    void gpuClicked(const QString &node, int gpu);
    void nodeClicked(const QString &node);
    void contextMenuRequested(const QString &node, int gpu, const QPoint &globalPos);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    // A node (snapshot index) and a GPU by position in node.gpus, -1 for a node without GPUs.
    using Cell = std::pair<int, int>;

    void relayout();
    void recolour();
    std::pair<int, int> hitAt(const QPoint &viewportPos) const;
    QPoint offset() const;
    QVector<Cell> cellsInReadingOrder() const;
    QRect contentRect(const Cell &cell) const;
    Cell currentCell() const; // {-1, -1} when there is none
    void setCurrent(const Cell &cell);
    void scrollToCurrent();
    // The cell on the nearest line above (direction -1) or below (+1) `from`, closest to target;
    // `from` itself when there is none.
    Cell nearestCell(const QVector<Cell> &cells, const Cell &from, const QPoint &target, int direction) const;
    void startCurrent(); // the first cell, when there is no current one
    void pick(const Cell &cell);
    void openContextMenuAtCurrent();

    SnapshotPtr m_snapshot;
    QString m_longestName; // the most characters: what the name lines are sized for
    QString m_placeholder = tr("Not connected.");
    HeatmapMetric::Kind m_metric = HeatmapMetric::Kind::Utilisation;
    FleetMapLayout::Grouping m_grouping = FleetMapLayout::Grouping::InstanceType;
    Relations m_relations;
    double m_zoom = 1.0;
    bool m_dirty = false; // a snapshot came while hidden: coloured and laid out when shown
    FleetMapLayout m_layout;
    QVector<int> m_firstColour; // per node: where its GPUs start in m_colours
    QVector<QRgb> m_colours;    // per GPU; 0 (transparent): missing
    QString m_currentNode;
    int m_currentGpu = -1;      // position in the node's GPUs
};

} // namespace strata
