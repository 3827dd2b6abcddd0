#pragma once

#include "heatmap_metric.h"
#include "models/relations.h"

#include "model/cluster_snapshot.h"

#include <QAbstractScrollArea>
#include <QHash>

#include <optional>

namespace strata {

// Every node a row of its GPUs, coloured by one metric; rows flow into as many columns as the
// width allows. Custom-painted: only the visible rows are drawn and there is no widget per
// GPU, so 2,000 nodes scroll as smoothly as 4. A missing value is hatched grey with a dash,
// never the colour of zero. Findings outline their GPU (or mark the node's name); related
// elements (Relations) are outlined and the rest dimmed. The keyboard moves a current cell (a
// node's name or one of its GPUs, framed while the view has focus): arrows, Home/End (Ctrl: the
// first/last node), PageUp/PageDown; Enter or Space picks it as a click does; the Menu key or
// Shift+F10 opens its context menu. GUI thread.
class GpuHeatmapView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    explicit GpuHeatmapView(QWidget *parent = nullptr);

    void setSnapshot(const SnapshotPtr &snapshot);
    // What is drawn while there is no node to draw ("Connecting to login01…"); ClusterView
    // says it from how the window stands with its cluster.
    void setPlaceholder(const QString &text);
    QString placeholder() const { return m_placeholder; }
    void setMetric(HeatmapMetric::Kind metric);
    HeatmapMetric::Kind metric() const { return m_metric; }
    void setRelations(const Relations &relations);
    const Relations &relations() const { return m_relations; }
    // The smallest cell. With values shown (the Heatmap tab) the cells grow from it to fill
    // the viewport, up to maximumCellSize(); compact mode (the stack overview, no numbers)
    // keeps the width and makes rows as tall as a line of the window's font, so the node
    // names are the size of every other label.
    void setCellSize(const QSize &size, bool showValues);
    QSize cellSize() const { return m_cell; } // as laid out now
    QSize maximumCellSize() const;
    // The font of the node names (the widget's, never smaller).
    QFont labelFont() const { return font(); }

    // Where a GPU's cell is, in viewport coordinates; empty if that node is not laid out.
    QRect cellRect(const QString &node, int gpu) const;
    // The fill a GPU gets under the current metric; empty when the value is missing.
    std::optional<QColor> fillColor(const Node &node, const Gpu &gpu) const;
    void scrollToNode(const QString &node);
    // The keyboard's cell: a node (empty: none yet) and its GPU, or -1 for the node's name.
    QString currentNode() const { return m_currentNode; }
    int currentGpu() const { return m_currentGpu; }
    int columns() const { return m_columns; }
    // The width that shows one column of nodes whole, scroll bar and frame included.
    int oneColumnWidth() const;

    QSize sizeHint() const override;

Q_SIGNALS:
    void gpuClicked(const QString &node, int gpu);
    void nodeClicked(const QString &node);
    // A right click (or the menu key) on a GPU cell (gpu >= 0) or a node's name (gpu -1).
    void contextMenuRequested(const QString &node, int gpu, const QPoint &globalPos);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    struct NodeFindings
    {
        int nodeSeverity = -1;    // worst node-wide finding, -1 none
        QVector<int> gpuSeverity; // per GPU index, -1 none
    };
    struct Hit
    {
        int node = -1;
        int gpu = -1; // -1: the name column
    };

    void relayout();
    QSize fittedCell() const;
    int blockWidth() const { return blockWidthFor(m_cell); }
    int blockWidthFor(const QSize &cell) const;
    int rowHeight() const { return m_cell.height() + 2; }
    QRect blockRect(int nodeIndex) const; // content coordinates
    Hit hitTest(const QPoint &viewportPos) const;
    void paintNode(QPainter &p, int nodeIndex, const QRect &block) const;
    QString toolTipFor(const Hit &hit) const;
    Hit currentHit() const; // node -1 when there is no current cell
    int lastGpu(int nodeIndex) const; // of those drawn; -1 for a node without GPUs
    QRect hitRect(const Hit &hit) const; // viewport coordinates
    void setCurrent(const Hit &hit);
    void startCurrent(); // the first node's name, when there is no current cell
    void scrollToCurrent();
    void pick(const Hit &hit);
    void openContextMenuAtCurrent();

    SnapshotPtr m_snapshot;
    QString m_placeholder = tr("Not connected.");
    HeatmapMetric::Kind m_metric = HeatmapMetric::Kind::Utilisation;
    Relations m_relations;
    QHash<QString, NodeFindings> m_findings;
    QSize m_minCell{26, 18};
    QSize m_cell{26, 18};
    bool m_showValues = true;
    int m_nameWidth = 80;
    int m_maxGpus = 8;
    int m_columns = 1;
    QString m_currentNode;
    int m_currentGpu = -1;
};

} // namespace strata
