#include "gpu_heatmap_view.h"

#include "color_map.h"
#include "context_menu_key.h"
#include "state_colouring.h"
#include "unit_formatter.h"

#include <QHelpEvent>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>

namespace strata {

namespace {

constexpr int kBlockGap = 14;
constexpr int kNameDot = 8;

} // namespace

GpuHeatmapView::GpuHeatmapView(QWidget *parent) : QAbstractScrollArea(parent)
{
    setAccessibleName(tr("GPU heatmap"));
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setBackgroundRole(QPalette::Base);
    viewport()->setAutoFillBackground(true);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
}

QSize GpuHeatmapView::sizeHint() const
{
    const int minRow = m_minCell.height() + 2;
    return {m_showValues ? blockWidthFor(m_minCell) * 2 : oneColumnWidth(), minRow * 20};
}

QSize GpuHeatmapView::maximumCellSize() const
{
    // Big enough to read a value across the room, not so big that a small cluster turns into
    // a few posters: five lines of text tall, twice that wide.
    const int tall = 5 * fontMetrics().height();
    return {2 * tall, tall};
}

void GpuHeatmapView::setPlaceholder(const QString &text)
{
    if (text == m_placeholder)
        return;
    m_placeholder = text;
    viewport()->update();
}

void GpuHeatmapView::setSnapshot(const SnapshotPtr &snapshot)
{
    m_snapshot = snapshot;
    m_findings.clear();
    int longest = 0;
    QString longestName;
    m_maxGpus = 1;
    if (snapshot) {
        for (const Node &n : snapshot->nodes) {
            m_maxGpus = qMax(m_maxGpus, qMax(n.gpuCount, int(n.gpus.size())));
            if (n.name.size() > longest) {
                longest = int(n.name.size());
                longestName = n.name;
            }
        }
        for (const Finding &f : snapshot->findings) {
            NodeFindings &nf = m_findings[f.node];
            const int severity = int(f.severity);
            if (f.gpu < 0) {
                nf.nodeSeverity = qMax(nf.nodeSeverity, severity);
                continue;
            }
            if (nf.gpuSeverity.size() <= f.gpu)
                nf.gpuSeverity.resize(f.gpu + 1, -1);
            nf.gpuSeverity[f.gpu] = qMax(nf.gpuSeverity[f.gpu], severity);
        }
    }
    m_maxGpus = qMin(m_maxGpus, 64);
    m_nameWidth = fontMetrics().horizontalAdvance(longestName) + kNameDot + 10;
    if (hasFocus())
        startCurrent();
    relayout();
    viewport()->update();
}

void GpuHeatmapView::setMetric(HeatmapMetric::Kind metric)
{
    if (metric == m_metric)
        return;
    m_metric = metric;
    viewport()->update();
}

void GpuHeatmapView::setRelations(const Relations &relations)
{
    m_relations = relations;
    viewport()->update();
}

void GpuHeatmapView::setCellSize(const QSize &size, bool showValues)
{
    m_minCell = size;
    m_showValues = showValues;
    relayout();
    viewport()->update();
}

int GpuHeatmapView::oneColumnWidth() const
{
    return blockWidth() + verticalScrollBar()->sizeHint().width() + 2 * frameWidth() + 4;
}

int GpuHeatmapView::blockWidthFor(const QSize &cell) const
{
    return m_nameWidth + m_maxGpus * cell.width() + kBlockGap;
}

QSize GpuHeatmapView::fittedCell() const
{
    if (!m_showValues) // compact: rows a line of text tall, so the names read like any label
        return {m_minCell.width(), qMax(m_minCell.height(), fontMetrics().height())};
    const int nodes = m_snapshot ? int(m_snapshot->nodes.size()) : 0;
    if (nodes == 0)
        return m_minCell;
    // The largest cell at which every node fits the viewport without scrolling, trying each
    // number of columns; none: the smallest cell, and the view scrolls.
    const QSize most = maximumCellSize();
    const int width = viewport()->width(), height = viewport()->height() - 4;
    QSize best = m_minCell;
    qint64 bestArea = 0;
    for (int columns = 1; columns <= nodes; ++columns) {
        const int lines = (nodes + columns - 1) / columns;
        int w = ((width + kBlockGap) / columns - kBlockGap - m_nameWidth) / m_maxGpus;
        if (w < m_minCell.width())
            break; // more columns only make narrower cells
        int h = qMin(height / lines - 2, most.height());
        w = qMin(w, most.width());
        // Neither taller than wide nor a thin bar: the value and its outline stay readable.
        h = qMin(h, w);
        w = qMin(w, 2 * h);
        if (h < m_minCell.height() || w < m_minCell.width())
            continue;
        const qint64 area = qint64(w) * h;
        if (area > bestArea) {
            bestArea = area;
            best = QSize(w, h);
        }
    }
    return best;
}

void GpuHeatmapView::relayout()
{
    m_cell = fittedCell();
    const int width = viewport()->width();
    m_columns = qMax(1, (width + kBlockGap) / blockWidth());
    const int nodes = m_snapshot ? int(m_snapshot->nodes.size()) : 0;
    const int lines = (nodes + m_columns - 1) / m_columns;
    const int contentHeight = lines * rowHeight() + 4;
    verticalScrollBar()->setRange(0, qMax(0, contentHeight - viewport()->height()));
    verticalScrollBar()->setPageStep(viewport()->height());
    verticalScrollBar()->setSingleStep(rowHeight());
}

void GpuHeatmapView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    relayout();
}

QRect GpuHeatmapView::blockRect(int nodeIndex) const
{
    const int line = nodeIndex / m_columns, column = nodeIndex % m_columns;
    return {2 + column * blockWidth(), 2 + line * rowHeight(), blockWidth() - kBlockGap,
            m_cell.height()};
}

QRect GpuHeatmapView::cellRect(const QString &node, int gpu) const
{
    if (!m_snapshot)
        return {};
    const int index = m_snapshot->nodeIndexByName.value(node, -1);
    if (index < 0 || gpu < 0 || gpu >= m_maxGpus)
        return {};
    const QRect block = blockRect(index).translated(0, -verticalScrollBar()->value());
    return {block.left() + m_nameWidth + gpu * m_cell.width(), block.top(), m_cell.width() - 2,
            m_cell.height()};
}

void GpuHeatmapView::scrollToNode(const QString &node)
{
    if (!m_snapshot)
        return;
    const int index = m_snapshot->nodeIndexByName.value(node, -1);
    if (index < 0)
        return;
    const QRect block = blockRect(index);
    const int top = verticalScrollBar()->value(), height = viewport()->height();
    if (block.top() < top || block.bottom() > top + height)
        verticalScrollBar()->setValue(block.top() - height / 3);
}

std::optional<QColor> GpuHeatmapView::fillColor(const Node &node, const Gpu &gpu) const
{
    if (m_metric == HeatmapMetric::Kind::NodeState)
        return StateColouring::color(StateColouring::of(node, !gpu.jobId.isEmpty()));
    // Allocation, and every metric on a node whose machine is not launched (no exporter there by
    // design: not missing data): the GPU's capacity bucket.
    if (m_metric == HeatmapMetric::Kind::Allocation || !isLaunched(node.power))
        return ColorMap::capacityColor(GpuCapacity::bucket(node, !gpu.jobId.isEmpty()));
    const std::optional<double> t = HeatmapMetric::normalised(node, gpu, m_metric);
    if (!t)
        return std::nullopt;
    return ColorMap::sequential(*t);
}

void GpuHeatmapView::paintEvent(QPaintEvent *event)
{
    QPainter p(viewport());
    if (!m_snapshot || m_snapshot->nodes.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(viewport()->rect(), Qt::AlignCenter,
                   m_placeholder);
        return;
    }
    const int scroll = verticalScrollBar()->value();
    const QRect dirty = event->rect().translated(0, scroll);
    const int firstLine = qMax(0, (dirty.top() - 2) / rowHeight());
    const int lastLine = (dirty.bottom() - 2) / rowHeight();
    const int nodes = int(m_snapshot->nodes.size());
    for (int line = firstLine; line <= lastLine; ++line) {
        for (int column = 0; column < m_columns; ++column) {
            const int index = line * m_columns + column;
            if (index >= nodes)
                return;
            paintNode(p, index, blockRect(index).translated(0, -scroll));
        }
    }
}

void GpuHeatmapView::paintNode(QPainter &p, int nodeIndex, const QRect &block) const
{
    const Node &node = m_snapshot->nodes[nodeIndex];
    const QPalette &pal = palette();
    const bool anyRelation = !m_relations.isEmpty();
    const bool nodeRelated = m_relations.nodes.contains(node.name);
    const NodeFindings findings = m_findings.value(node.name);

    // Name column: state dot, name, node-wide finding marker.
    const QRect nameRect(block.left(), block.top(), m_nameWidth - 4, block.height());
    if (nodeRelated)
        p.fillRect(nameRect, pal.color(QPalette::Highlight));
    const QColor dot = ColorMap::nodeStateColor(node.isDown()      ? QStringLiteral("down")
                                                : node.isDrained() ? QStringLiteral("drained")
                                                : node.gpusAllocated ? QStringLiteral("mixed")
                                                                     : QStringLiteral("idle"));
    p.setPen(Qt::NoPen);
    p.setBrush(dot);
    p.drawEllipse(QRect(nameRect.left() + 1, nameRect.center().y() - kNameDot / 2 + 1, kNameDot - 1,
                        kNameDot - 1));
    p.setPen(nodeRelated ? pal.color(QPalette::HighlightedText)
                         : pal.color(anyRelation ? QPalette::PlaceholderText : QPalette::Text));
    p.setFont(labelFont());
    p.drawText(nameRect.adjusted(kNameDot + 3, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, node.name);
    if (findings.nodeSeverity >= 0) {
        p.setPen(Qt::NoPen);
        p.setBrush(ColorMap::severityColor(Finding::Severity(findings.nodeSeverity)));
        const QPoint c(nameRect.right() - 3, nameRect.top() + 1);
        p.drawPolygon(QPolygon({c + QPoint(-5, 0), c + QPoint(4, 0), c + QPoint(4, 9)}));
    }

    // The values in the window's font once the cells have room for it, a smaller one before.
    QFont valueFont = font();
    if (m_cell.height() < fontMetrics().height() + 2 || m_cell.width() < fontMetrics().horizontalAdvance(QStringLiteral("100")) + 4)
        valueFont.setPointSizeF(qMax(6.0, font().pointSizeF() * 0.8));
    p.setFont(valueFont);
    const int gpuCount = qMin(m_maxGpus, qMax(node.gpuCount, int(node.gpus.size())));
    for (int g = 0; g < gpuCount; ++g) {
        const QRect cell(block.left() + m_nameWidth + g * m_cell.width(), block.top(),
                         m_cell.width() - 2, m_cell.height());
        if (g >= node.gpus.size()) {
            // Expected by the scheduler but absent from the snapshot: a missing GPU.
            p.setPen(QPen(ColorMap::unavailableColor(), 1, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(cell.adjusted(0, 0, -1, -1));
            continue;
        }
        const Gpu &gpu = node.gpus[g];
        const std::optional<QColor> fill = fillColor(node, gpu);
        if (fill) {
            p.fillRect(cell, *fill);
        } else {
            p.fillRect(cell, ColorMap::missingFill(pal));
            p.fillRect(cell, QBrush(ColorMap::missingHatch(pal), Qt::BDiagPattern));
        }
        if (m_showValues && m_cell.width() >= 20) {
            const QString text = HeatmapMetric::cellText(node, gpu, m_metric);
            if (!text.isEmpty()) {
                p.setPen(fill ? ColorMap::textOn(*fill) : pal.color(QPalette::Text));
                p.drawText(cell, Qt::AlignCenter, text);
            }
        }
        const int severity = g < findings.gpuSeverity.size() ? findings.gpuSeverity[g] : -1;
        if (severity >= 0) {
            const QColor c = ColorMap::severityColor(Finding::Severity(severity));
            p.setPen(QPen(c, 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(cell.adjusted(1, 1, -1, -1));
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            p.drawPolygon(QPolygon({cell.topRight() + QPoint(-6, 0), cell.topRight() + QPoint(1, 0),
                                    cell.topRight() + QPoint(1, 7)}));
        }
        if (anyRelation) {
            if (m_relations.hasGpu(node.name, g)) {
                p.setPen(QPen(ColorMap::relatedOutline(pal), 2));
                p.setBrush(Qt::NoBrush);
                p.drawRect(cell.adjusted(0, 0, -1, -1));
            } else {
                QColor veil = pal.color(QPalette::Base);
                veil.setAlphaF(0.65f);
                p.fillRect(cell, veil);
            }
        }
    }
    if (hasFocus() && node.name == m_currentNode) { // the keyboard's cell
        p.setPen(QPen(pal.color(QPalette::Text), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(hitRect(currentHit()).adjusted(-1, -1, 0, 0));
    }
}

GpuHeatmapView::Hit GpuHeatmapView::hitTest(const QPoint &pos) const
{
    Hit hit;
    if (!m_snapshot)
        return hit;
    const QPoint content = pos + QPoint(0, verticalScrollBar()->value());
    const int column = (content.x() - 2) / blockWidth();
    const int line = (content.y() - 2) / rowHeight();
    if (content.x() < 2 || content.y() < 2 || column >= m_columns)
        return hit;
    const int index = line * m_columns + column;
    if (index >= m_snapshot->nodes.size())
        return hit;
    const QRect block = blockRect(index);
    if (!block.contains(content))
        return hit;
    hit.node = index;
    const int x = content.x() - block.left() - m_nameWidth;
    if (x >= 0) {
        const int g = x / m_cell.width();
        const Node &node = m_snapshot->nodes[index];
        hit.gpu = g < node.gpus.size() ? g : -1;
        if (hit.gpu < 0)
            hit.node = -1;
    }
    return hit;
}

void GpuHeatmapView::mousePressEvent(QMouseEvent *event)
{
    const Hit hit = hitTest(event->position().toPoint());
    if (hit.node < 0) {
        QAbstractScrollArea::mousePressEvent(event);
        return;
    }
    setCurrent(hit); // the keyboard goes on from the clicked cell
    pick(hit);
}

void GpuHeatmapView::pick(const Hit &hit)
{
    const QString &name = m_snapshot->nodes[hit.node].name;
    if (hit.gpu >= 0)
        Q_EMIT gpuClicked(name, hit.gpu);
    else
        Q_EMIT nodeClicked(name);
}

void GpuHeatmapView::contextMenuEvent(QContextMenuEvent *event)
{
    if (event->reason() == QContextMenuEvent::Keyboard) { // the Menu key: the current cell's menu
        openContextMenuAtCurrent();
        return;
    }
    const Hit hit = m_snapshot ? hitTest(event->pos()) : Hit{}; // viewport coordinates, as QAbstractScrollArea passes them
    if (hit.node < 0)
        return;
    Q_EMIT contextMenuRequested(m_snapshot->nodes[hit.node].name, hit.gpu, event->globalPos());
}

GpuHeatmapView::Hit GpuHeatmapView::currentHit() const
{
    Hit hit;
    if (!m_snapshot || m_currentNode.isEmpty())
        return hit;
    hit.node = m_snapshot->nodeIndexByName.value(m_currentNode, -1);
    if (hit.node >= 0) // the node may have lost GPUs since
        hit.gpu = qMin(m_currentGpu, lastGpu(hit.node));
    return hit;
}

int GpuHeatmapView::lastGpu(int nodeIndex) const
{
    return qMin(int(m_snapshot->nodes[nodeIndex].gpus.size()), m_maxGpus) - 1;
}

QRect GpuHeatmapView::hitRect(const Hit &hit) const
{
    if (hit.gpu >= 0)
        return cellRect(m_snapshot->nodes[hit.node].name, hit.gpu);
    const QRect block = blockRect(hit.node).translated(0, -verticalScrollBar()->value());
    return {block.left(), block.top(), m_nameWidth - 4, block.height()};
}

void GpuHeatmapView::setCurrent(const Hit &hit)
{
    m_currentNode = m_snapshot->nodes[hit.node].name;
    m_currentGpu = hit.gpu;
    viewport()->update();
}

void GpuHeatmapView::scrollToCurrent()
{
    const QRect shown = hitRect(currentHit());
    if (shown.top() < 0)
        verticalScrollBar()->setValue(verticalScrollBar()->value() + shown.top() - 2);
    else if (shown.bottom() >= viewport()->height())
        verticalScrollBar()->setValue(verticalScrollBar()->value() + shown.bottom() - viewport()->height() + 3);
}

void GpuHeatmapView::openContextMenuAtCurrent()
{
    const Hit hit = currentHit();
    if (hit.node < 0)
        return;
    scrollToCurrent(); // so the menu opens beside it
    Q_EMIT contextMenuRequested(m_currentNode, hit.gpu, viewport()->mapToGlobal(hitRect(hit).center()));
}

void GpuHeatmapView::keyPressEvent(QKeyEvent *event)
{
    const int nodes = m_snapshot ? int(m_snapshot->nodes.size()) : 0;
    if (nodes == 0) {
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    if (isContextMenuShortcut(event)) {
        openContextMenuAtCurrent();
        return;
    }
    Hit at = currentHit();
    if (at.node < 0)
        at = {0, -1};
    // Cells in reading order: each node's name, then its GPUs; Up and Down keep the GPU.
    const auto toNode = [&](int node) { return Hit{node, qMin(at.gpu, lastGpu(node))}; };
    const int page = qMax(1, viewport()->height() / rowHeight() - 1) * m_columns;
    Hit next = at;
    switch (event->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        setCurrent(at);
        scrollToCurrent();
        pick(at);
        return;
    case Qt::Key_Left:
        next = at.gpu >= 0 ? Hit{at.node, at.gpu - 1} : at.node > 0 ? Hit{at.node - 1, lastGpu(at.node - 1)} : at;
        break;
    case Qt::Key_Right:
        next = at.gpu < lastGpu(at.node) ? Hit{at.node, at.gpu + 1} : at.node + 1 < nodes ? Hit{at.node + 1, -1} : at;
        break;
    case Qt::Key_Up:
        next = at.node - m_columns >= 0 ? toNode(at.node - m_columns) : at;
        break;
    case Qt::Key_Down:
        next = at.node + m_columns < nodes ? toNode(at.node + m_columns) : at;
        break;
    case Qt::Key_PageUp:
        next = toNode(qMax(at.node % m_columns, at.node - page));
        break;
    case Qt::Key_PageDown: {
        int target = at.node;
        while (target + m_columns < nodes && target + m_columns <= at.node + page)
            target += m_columns;
        next = toNode(target);
        break;
    }
    case Qt::Key_Home:
        next = event->modifiers() & Qt::ControlModifier ? Hit{0, -1} : Hit{at.node, -1};
        break;
    case Qt::Key_End:
        next = event->modifiers() & Qt::ControlModifier ? Hit{nodes - 1, lastGpu(nodes - 1)} : Hit{at.node, lastGpu(at.node)};
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    setCurrent(next);
    scrollToCurrent();
}

void GpuHeatmapView::focusInEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusInEvent(event);
    startCurrent();
    viewport()->update();
}

void GpuHeatmapView::startCurrent()
{
    // A frame to start from; nothing is picked until Enter, Space or a click.
    if (m_snapshot && !m_snapshot->nodes.isEmpty() && currentHit().node < 0) {
        m_currentNode = m_snapshot->nodes.first().name;
        m_currentGpu = -1;
    }
}

void GpuHeatmapView::focusOutEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusOutEvent(event);
    viewport()->update();
}

QString GpuHeatmapView::toolTipFor(const Hit &hit) const
{
    const Node &node = m_snapshot->nodes[hit.node];
    if (hit.gpu < 0)
        return QStringLiteral("%1: %2%3").arg(node.name, node.state,
                                              node.reason.isEmpty() ? QString()
                                                                    : QStringLiteral(" (%1)").arg(node.reason));
    const Gpu &gpu = node.gpus[hit.gpu];
    const GpuMetrics &m = gpu.metrics;
    UnitFormatter f;
    return QStringLiteral("%1 GPU %2 %3\nutil %4  temp %5  power %6  memory %7\n%8")
        .arg(node.name)
        .arg(gpu.index)
        .arg(gpu.model)
        .arg(UnitFormatter::percent(m.utilPercent), f.temperature(m.tempC),
             UnitFormatter::power(m.powerW), f.memoryMiB(m.memUsedMiB),
             gpu.jobId.isEmpty() ? tr("free") : tr("job %1").arg(gpu.jobId));
}

bool GpuHeatmapView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && m_snapshot) {
        auto *help = static_cast<QHelpEvent *>(event);
        const Hit hit = hitTest(help->pos());
        if (hit.node >= 0)
            QToolTip::showText(help->globalPos(), toolTipFor(hit), viewport());
        else
            QToolTip::hideText();
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

} // namespace strata
