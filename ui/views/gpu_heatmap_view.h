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
// elements (Relations) are outlined and the rest dimmed. GUI thread.
class GpuHeatmapView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    explicit GpuHeatmapView(QWidget *parent = nullptr);

    void setSnapshot(const SnapshotPtr &snapshot);
    void setMetric(HeatmapMetric::Kind metric);
    HeatmapMetric::Kind metric() const { return m_metric; }
    void setRelations(const Relations &relations);
    const Relations &relations() const { return m_relations; }
    // Compact mode (the stack overview): small cells, no numbers.
    void setCellSize(const QSize &size, bool showValues);

    // Where a GPU's cell is, in viewport coordinates; empty if that node is not laid out.
    QRect cellRect(const QString &node, int gpu) const;
    // The fill a GPU gets under the current metric; empty when the value is missing.
    std::optional<QColor> fillColor(const Node &node, const Gpu &gpu) const;
    void scrollToNode(const QString &node);
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
    int blockWidth() const;
    int rowHeight() const { return m_cell.height() + 2; }
    QRect blockRect(int nodeIndex) const; // content coordinates
    Hit hitTest(const QPoint &viewportPos) const;
    void paintNode(QPainter &p, int nodeIndex, const QRect &block) const;
    QString toolTipFor(const Hit &hit) const;

    SnapshotPtr m_snapshot;
    HeatmapMetric::Kind m_metric = HeatmapMetric::Kind::Utilisation;
    Relations m_relations;
    QHash<QString, NodeFindings> m_findings;
    QSize m_cell{26, 18};
    bool m_showValues = true;
    int m_nameWidth = 80;
    int m_maxGpus = 8;
    int m_columns = 1;
};

} // namespace strata
