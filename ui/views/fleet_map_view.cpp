#include "fleet_map_view.h"

#include "color_map.h"
#include "context_menu_key.h"
#include "state_colouring.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <climits>

namespace strata {

FleetMapView::FleetMapView(QWidget *parent) : QAbstractScrollArea(parent)
{
    setObjectName(QStringLiteral("fleetMap"));
    setAccessibleName(tr("Fleet map: every GPU of the cluster"));
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setFocusPolicy(Qt::StrongFocus);
}

void FleetMapView::setPlaceholder(const QString &text)
{
    if (text == m_placeholder)
        return;
    m_placeholder = text;
    viewport()->update();
}

void FleetMapView::setSnapshot(const SnapshotPtr &snapshot)
{
    m_snapshot = snapshot;
    m_longestName.clear();
    if (snapshot)
        for (const Node &n : snapshot->nodes)
            if (n.name.size() > m_longestName.size())
                m_longestName = n.name;
    if (!isVisible()) { // behind another tab: no work on each refresh until it is looked at
        m_dirty = true;
        return;
    }
    recolour();
    relayout();
    if (hasFocus())
        startCurrent();
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
            if (m_metric == HeatmapMetric::Kind::NodeState) {
                m_colours << StateColouring::color(StateColouring::of(node, !gpu.jobId.isEmpty())).rgb();
                continue;
            }
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
    // The longest name by characters, measured with some slack for wider glyphs elsewhere.
    const QSize name(fontMetrics().horizontalAdvance(m_longestName) * 11 / 10, fontMetrics().height());
    m_layout = FleetMapLayout::compute(*m_snapshot, m_grouping, maximumViewportSize(), m_zoom, header, name);
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
                   m_placeholder);
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
    for (const FleetMapLayout::Group &g : m_layout.groups) {
        p.setPen(pal.color(QPalette::WindowText));
        if (g.header.intersects(exposed))
            p.drawText(g.header, Qt::AlignLeft | Qt::AlignVCenter, g.title);
        for (int i : g.nodes) {
            const QRect &block = m_layout.nodeRects[i];
            if (!block.adjusted(-2, -2 - m_layout.labelHeight, 2, 2).intersects(exposed))
                continue;
            const Node &node = m_snapshot->nodes[i];
            if (m_layout.labelHeight > 0) {
                p.setPen(pal.color(picking && !m_relations.nodes.contains(node.name) ? QPalette::PlaceholderText
                                                                                      : QPalette::WindowText));
                p.drawText(m_layout.nameRect(i), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                           fontMetrics().elidedText(node.name, Qt::ElideRight, m_layout.nameRect(i).width()));
            }
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
            if (node.isUnavailable() && m_metric != HeatmapMetric::Kind::Allocation
                && m_metric != HeatmapMetric::Kind::NodeState)
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
    if (const Cell current = currentCell(); hasFocus() && current.first >= 0) {
        // The keyboard's cell, framed twice so it shows on any colour.
        const QRect cell = contentRect(current);
        p.setBrush(Qt::NoBrush);
        p.setPen(pal.color(QPalette::Base));
        p.drawRect(cell.adjusted(-2, -2, 1, 1));
        p.setPen(pal.color(QPalette::Text));
        p.drawRect(cell.adjusted(-1, -1, 0, 0));
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
    setCurrent({node, gpu}); // the keyboard goes on from the clicked cell
    pick({node, gpu});
}

void FleetMapView::pick(const Cell &cell)
{
    const Node &n = m_snapshot->nodes[cell.first];
    if (cell.second >= 0)
        Q_EMIT gpuClicked(n.name, n.gpus[cell.second].index);
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
    if (event->reason() == QContextMenuEvent::Keyboard) { // the Menu key: the current cell's menu
        openContextMenuAtCurrent();
        return;
    }
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
    const QString value = m_metric == HeatmapMetric::Kind::NodeState
                              ? StateColouring::name(StateColouring::of(n, !g.jobId.isEmpty()))
                              : HeatmapMetric::cellText(n, g, m_metric);
    QString text = tr("%1 GPU %2 %3\n%4: %5").arg(n.name).arg(g.index).arg(g.model.isEmpty() ? n.gpuModel : g.model,
                                                                           HeatmapMetric::label(m_metric), value);
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

QVector<FleetMapView::Cell> FleetMapView::cellsInReadingOrder() const
{
    QVector<Cell> cells;
    if (!m_snapshot)
        return cells;
    for (const FleetMapLayout::Group &g : m_layout.groups)
        for (int i : g.nodes) {
            const int gpus = int(m_snapshot->nodes[i].gpus.size());
            if (gpus == 0)
                cells << Cell{i, -1};
            for (int k = 0; k < gpus; ++k)
                if (!m_layout.gpuRect(i, k).isEmpty())
                    cells << Cell{i, k};
        }
    return cells;
}

QRect FleetMapView::contentRect(const Cell &cell) const
{
    return cell.second >= 0 ? m_layout.gpuRect(cell.first, cell.second) : m_layout.nodeRects.value(cell.first);
}

FleetMapView::Cell FleetMapView::currentCell() const
{
    if (!m_snapshot || m_currentNode.isEmpty())
        return {-1, -1};
    const int i = m_snapshot->nodeIndexByName.value(m_currentNode, -1);
    if (i < 0 || i >= m_layout.nodeRects.size())
        return {-1, -1};
    const int gpus = int(m_snapshot->nodes[i].gpus.size()); // it may have lost some since
    return {i, gpus == 0 ? -1 : qBound(0, m_currentGpu, gpus - 1)};
}

QString FleetMapView::currentNode() const
{
    return currentCell().first >= 0 ? m_currentNode : QString();
}

int FleetMapView::currentGpu() const
{
    const Cell cell = currentCell();
    return cell.second >= 0 ? m_snapshot->nodes[cell.first].gpus[cell.second].index : -1;
}

void FleetMapView::setCurrent(const Cell &cell)
{
    m_currentNode = m_snapshot->nodes[cell.first].name;
    m_currentGpu = cell.second;
    viewport()->update();
}

void FleetMapView::startCurrent()
{
    if (currentCell().first >= 0)
        return;
    const QVector<Cell> cells = cellsInReadingOrder();
    if (!cells.isEmpty())
        setCurrent(cells.first());
}

void FleetMapView::scrollToCurrent()
{
    const QRect cell = contentRect(currentCell()).adjusted(-4, -4, 4, 4);
    const QRect shown(offset(), viewport()->size());
    if (cell.left() < shown.left())
        horizontalScrollBar()->setValue(cell.left());
    else if (cell.right() > shown.right())
        horizontalScrollBar()->setValue(cell.right() - shown.width() + 1);
    if (cell.top() < shown.top())
        verticalScrollBar()->setValue(cell.top());
    else if (cell.bottom() > shown.bottom())
        verticalScrollBar()->setValue(cell.bottom() - shown.height() + 1);
}

FleetMapView::Cell FleetMapView::nearestCell(const QVector<Cell> &cells, const Cell &from, const QPoint &target,
                                             int direction) const
{
    const int fromY = contentRect(from).center().y();
    Cell best = from;
    int bestDy = INT_MAX, bestDx = INT_MAX;
    for (const Cell &cell : cells) {
        const QPoint c = contentRect(cell).center();
        if ((c.y() - fromY) * direction <= 0)
            continue;
        const int dy = qAbs(c.y() - target.y()), dx = qAbs(c.x() - target.x());
        if (dy < bestDy || (dy == bestDy && dx < bestDx)) {
            best = cell;
            bestDy = dy;
            bestDx = dx;
        }
    }
    return best;
}

void FleetMapView::openContextMenuAtCurrent()
{
    const Cell cell = currentCell();
    if (cell.first < 0)
        return;
    scrollToCurrent(); // so the menu opens beside it
    const Node &n = m_snapshot->nodes[cell.first];
    const QPoint at = contentRect(cell).center() - offset();
    Q_EMIT contextMenuRequested(n.name, cell.second >= 0 ? n.gpus[cell.second].index : -1, viewport()->mapToGlobal(at));
}

void FleetMapView::keyPressEvent(QKeyEvent *event)
{
    const QVector<Cell> cells = cellsInReadingOrder();
    if (cells.isEmpty()) {
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    if (isContextMenuShortcut(event)) {
        openContextMenuAtCurrent();
        return;
    }
    Cell at = currentCell();
    int position = at.first >= 0 ? int(cells.indexOf(at)) : -1;
    if (position < 0) {
        at = cells.first();
        position = 0;
    }
    const QPoint from = contentRect(at).center();
    const int gpus = int(m_snapshot->nodes[at.first].gpus.size());
    const QPoint page(0, viewport()->height());
    Cell next = at;
    switch (event->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        setCurrent(at);
        scrollToCurrent();
        pick(at);
        return;
    case Qt::Key_Left:
        next = cells[qMax(0, position - 1)];
        break;
    case Qt::Key_Right:
        next = cells[qMin(int(cells.size()) - 1, position + 1)];
        break;
    case Qt::Key_Up:
        next = nearestCell(cells, at, from, -1);
        break;
    case Qt::Key_Down:
        next = nearestCell(cells, at, from, 1);
        break;
    case Qt::Key_PageUp:
        next = nearestCell(cells, at, from - page, -1);
        break;
    case Qt::Key_PageDown:
        next = nearestCell(cells, at, from + page, 1);
        break;
    case Qt::Key_Home:
        next = event->modifiers() & Qt::ControlModifier ? cells.first() : Cell{at.first, gpus > 0 ? 0 : -1};
        break;
    case Qt::Key_End:
        next = event->modifiers() & Qt::ControlModifier ? cells.last() : Cell{at.first, gpus - 1};
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    setCurrent(next);
    scrollToCurrent();
}

void FleetMapView::focusInEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusInEvent(event);
    startCurrent(); // a frame to start from; nothing is picked until Enter, Space or a click
    viewport()->update();
}

void FleetMapView::focusOutEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusOutEvent(event);
    viewport()->update();
}

} // namespace strata
