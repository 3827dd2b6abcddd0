#include "fleet_map_view.h"

#include "color_map.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

namespace strata {

FleetMapView::FleetMapView(QWidget *parent) : QAbstractScrollArea(parent)
{
    setObjectName(QStringLiteral("fleetMap"));
    setAccessibleName(tr("Fleet map: every GPU of the cluster"));
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
}

void FleetMapView::setSnapshot(const SnapshotPtr &snapshot)
{
    m_snapshot = snapshot;
    if (!isVisible()) { // behind another tab: no work on each refresh until it is looked at
        m_dirty = true;
        return;
    }
    recolour();
    relayout();
}

void FleetMapView::showEvent(QShowEvent *event)
{
    QAbstractScrollArea::showEvent(event);
    if (std::exchange(m_dirty, false)) {
        recolour();
        relayout();
    }
}

void FleetMapView::setMetric(HeatmapMetric::Kind metric)
{
    if (metric == m_metric)
        return;
    m_metric = metric;
    if (isVisible())
        recolour();
    else
        m_dirty = true;
    viewport()->update();
}

void FleetMapView::setGrouping(FleetMapLayout::Grouping grouping)
{
    if (grouping == m_grouping)
        return;
    m_grouping = grouping;
    relayout();
}

void FleetMapView::setRelations(const Relations &relations)
{
    m_relations = relations;
    viewport()->update();
}

void FleetMapView::setZoom(double zoom)
{
    m_zoom = qBound(1.0, zoom, 16.0);
    relayout();
}

void FleetMapView::recolour()
{
    m_colours.clear();
    m_firstColour.clear();
    if (!m_snapshot)
        return;
    m_firstColour.reserve(m_snapshot->nodes.size());
    for (const Node &node : m_snapshot->nodes) {
        m_firstColour << int(m_colours.size());
        for (const Gpu &gpu : node.gpus) {
            if (m_metric == HeatmapMetric::Kind::Allocation) {
                m_colours << ColorMap::capacityColor(GpuCapacity::bucket(node, !gpu.jobId.isEmpty())).rgb();
                continue;
            }
            if (!isLaunched(node.power)) {
                // No machine, so no metrics by design: drawn as not launched, not as missing data.
                m_colours << ColorMap::capacityColor(GpuCapacity::bucket(node, !gpu.jobId.isEmpty())).rgb();
                continue;
            }
            const std::optional<double> t = HeatmapMetric::normalised(node, gpu, m_metric);
            m_colours << (t ? ColorMap::sequential(*t).rgb() : QRgb(0));
        }
    }
}

void FleetMapView::relayout()
{
    if (!m_snapshot) {
        m_layout = {};
        viewport()->update();
        return;
    }
    const int header = fontMetrics().height() + 2;
    // Fitted to the area without scroll bars, so their coming and going moves nothing.
    m_layout = FleetMapLayout::compute(*m_snapshot, m_grouping, maximumViewportSize(), m_zoom, header);
    // The viewport once the scroll bars this content needs are in (they come later, on resize;
    // the ranges must be right now, or a zoom's scroll position would be clamped).
    QSize shown = maximumViewportSize();
    const QSize content = m_layout.contentSize;
    for (int pass = 0; pass < 2; ++pass) {
        shown = maximumViewportSize();
        if (content.height() > shown.height())
            shown.rwidth() -= verticalScrollBar()->sizeHint().width();
        if (content.width() > shown.width())
            shown.rheight() -= horizontalScrollBar()->sizeHint().height();
    }
    horizontalScrollBar()->setRange(0, qMax(0, content.width() - shown.width()));
    horizontalScrollBar()->setPageStep(shown.width());
    verticalScrollBar()->setRange(0, qMax(0, content.height() - shown.height()));
    verticalScrollBar()->setPageStep(shown.height());
    viewport()->update();
}

QPoint FleetMapView::offset() const
{
    return {horizontalScrollBar()->value(), verticalScrollBar()->value()};
}

QRect FleetMapView::cellRect(const QString &node, int gpu) const
{
    if (!m_snapshot)
        return {};
    const int i = m_snapshot->nodeIndexByName.value(node, -1);
    if (i < 0)
        return {};
    const QVector<Gpu> &gpus = m_snapshot->nodes[i].gpus;
    for (int k = 0; k < gpus.size(); ++k)
        if (gpus[k].index == gpu)
            return m_layout.gpuRect(i, k).translated(-offset());
    return {};
}

std::pair<int, int> FleetMapView::hitAt(const QPoint &viewportPos) const
{
    if (!m_snapshot)
        return {-1, -1};
    return m_layout.hit(*m_snapshot, viewportPos + offset());
}

void FleetMapView::paintEvent(QPaintEvent *event)
{
    QPainter p(viewport());
    const QPalette pal = palette();
    if (!m_snapshot || m_snapshot->nodes.isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(viewport()->rect(), Qt::AlignCenter,
                   m_snapshot ? tr("The cluster reports no nodes.") : tr("Not connected."));
        return;
    }
    const QPoint off = offset();
    const QRect exposed = event->rect().translated(off);
    p.translate(-off);
    const QColor missing = ColorMap::missingFill(pal);
    const QBrush hatch(ColorMap::missingHatch(pal), Qt::BDiagPattern);
    const bool picking = !m_relations.isEmpty();
    const QColor outline = ColorMap::relatedOutline(pal);
    const QColor unavailable = ColorMap::unavailableColor();
    p.setPen(pal.color(QPalette::WindowText));
    for (const FleetMapLayout::Group &g : m_layout.groups) {
        if (g.header.intersects(exposed))
            p.drawText(g.header, Qt::AlignLeft | Qt::AlignVCenter, g.title);
        for (int i : g.nodes) {
            const QRect &block = m_layout.nodeRects[i];
            if (!block.adjusted(-2, -2, 2, 2).intersects(exposed))
                continue;
            const Node &node = m_snapshot->nodes[i];
            const int first = m_firstColour[i];
            for (int k = 0; k < node.gpus.size(); ++k) {
                const QRect cell = m_layout.gpuRect(i, k);
                const QRgb rgb = m_colours[first + k];
                if (rgb == 0) {
                    p.fillRect(cell, missing);
                    p.fillRect(cell, hatch);
                } else {
                    p.fillRect(cell, QColor(rgb));
                }
            }
            // A drained or down node: a line under its block, whatever the metric.
            if (node.isUnavailable() && m_metric != HeatmapMetric::Kind::Allocation)
                p.fillRect(QRect(block.left(), block.bottom() + 1, block.width(), 1), unavailable);
        }
    }
    if (picking) {
        p.setPen(QPen(outline, 1));
        p.setBrush(Qt::NoBrush);
        for (const QString &name : m_relations.nodes) {
            const int i = m_snapshot->nodeIndexByName.value(name, -1);
            if (i >= 0 && i < m_layout.nodeRects.size())
                p.drawRect(m_layout.nodeRects[i].adjusted(-1, -1, 0, 0));
        }
    }
}

void FleetMapView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    relayout();
}

void FleetMapView::mousePressEvent(QMouseEvent *event)
{
    const auto [node, gpu] = hitAt(event->position().toPoint());
    if (node < 0 || event->button() != Qt::LeftButton) {
        QAbstractScrollArea::mousePressEvent(event);
        return;
    }
    const Node &n = m_snapshot->nodes[node];
    if (gpu >= 0)
        Q_EMIT gpuClicked(n.name, n.gpus[gpu].index);
    else
        Q_EMIT nodeClicked(n.name);
}

void FleetMapView::wheelEvent(QWheelEvent *event)
{
    const int steps = event->angleDelta().y() / 120;
    if (steps == 0 || !m_snapshot) {
        QAbstractScrollArea::wheelEvent(event);
        return;
    }
    // Zoom around the cursor: the GPU (or node) under it stays under it.
    const QPoint at = event->position().toPoint();
    const auto [node, gpu] = hitAt(at);
    const QPoint anchorBefore = node >= 0 ? m_layout.gpuRect(node, qMax(0, gpu)).center() : at + offset();
    const QSizeF before = m_layout.contentSize;
    setZoom(m_zoom * std::pow(1.25, steps));
    const QPoint anchorAfter = node >= 0 ? m_layout.gpuRect(node, qMax(0, gpu)).center()
                                         : QPoint(int(anchorBefore.x() * m_layout.contentSize.width() / qMax(1.0, before.width())),
                                                  int(anchorBefore.y() * m_layout.contentSize.height() / qMax(1.0, before.height())));
    const QPoint cursorOffset = at + offset() - anchorBefore; // where in the cell the cursor was
    horizontalScrollBar()->setValue(anchorAfter.x() + cursorOffset.x() - at.x());
    verticalScrollBar()->setValue(anchorAfter.y() + cursorOffset.y() - at.y());
    event->accept();
}

void FleetMapView::contextMenuEvent(QContextMenuEvent *event)
{
    const auto [node, gpu] = hitAt(event->pos()); // viewport coordinates, as QAbstractScrollArea passes them
    if (node < 0)
        return;
    const Node &n = m_snapshot->nodes[node];
    Q_EMIT contextMenuRequested(n.name, gpu >= 0 ? n.gpus[gpu].index : -1, event->globalPos());
}

QString FleetMapView::toolTipAt(const QPoint &viewportPos) const
{
    const auto [node, gpu] = hitAt(viewportPos);
    if (node < 0)
        return {};
    const Node &n = m_snapshot->nodes[node];
    const QString state = n.reason.isEmpty() ? n.state : tr("%1 (%2)").arg(n.state, n.reason);
    if (gpu < 0)
        return tr("%1 \u00b7 %2 \u00b7 %3").arg(n.name, n.instanceType.isEmpty() ? n.gpuModel : n.instanceType, state);
    const Gpu &g = n.gpus[gpu];
    QString text = tr("%1 GPU %2 %3\n%4: %5").arg(n.name).arg(g.index).arg(g.model.isEmpty() ? n.gpuModel : g.model,
                                                                           HeatmapMetric::label(m_metric),
                                                                           HeatmapMetric::cellText(n, g, m_metric));
    if (!g.jobId.isEmpty()) {
        const Job *job = m_snapshot->job(g.jobId);
        text += job ? tr("\njob %1 %2 (%3)").arg(job->id, job->name, job->user) : tr("\njob %1").arg(g.jobId);
    } else {
        text += tr("\nno job");
    }
    if (n.isUnavailable())
        text += QLatin1Char('\n') + state;
    return text;
}

bool FleetMapView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport());
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

} // namespace strata
