#include "gpu_heatmap_view.h"

#include "color_map.h"
#include "unit_formatter.h"

#include <QHelpEvent>
#include <QContextMenuEvent>
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
    return {m_showValues ? blockWidth() * 2 : oneColumnWidth(), rowHeight() * 20};
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
    m_cell = size;
    m_showValues = showValues;
    relayout();
    viewport()->update();
}

int GpuHeatmapView::oneColumnWidth() const
{
    return blockWidth() + verticalScrollBar()->sizeHint().width() + 2 * frameWidth() + 4;
}

int GpuHeatmapView::blockWidth() const
{
    return m_nameWidth + m_maxGpus * m_cell.width() + kBlockGap;
}

void GpuHeatmapView::relayout()
{
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
                   m_snapshot ? tr("The cluster reports no nodes.") : tr("Not connected."));
        return;
    }
    const int scroll = verticalScrollBar()->value();
    const QRect dirty = event->rect().translated(0, scroll);
    const int firstLine = qMax(0, (dirty.top() - 2) / rowHeight());
    const int lastLine = (dirty.bottom() - 2) / rowHeight();
    const int nodes = int(m_snapshot->nodes.size());
    QFont small = font();
    small.setPointSizeF(qMax(6.0, font().pointSizeF() * 0.8));
    p.setFont(small);
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
    if (m_showValues || m_cell.height() >= 12)
        p.drawText(nameRect.adjusted(kNameDot + 3, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   node.name);
    if (findings.nodeSeverity >= 0) {
        p.setPen(Qt::NoPen);
        p.setBrush(ColorMap::severityColor(Finding::Severity(findings.nodeSeverity)));
        const QPoint c(nameRect.right() - 3, nameRect.top() + 1);
        p.drawPolygon(QPolygon({c + QPoint(-5, 0), c + QPoint(4, 0), c + QPoint(4, 9)}));
    }

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
    const QString &name = m_snapshot->nodes[hit.node].name;
    if (hit.gpu >= 0)
        Q_EMIT gpuClicked(name, hit.gpu);
    else
        Q_EMIT nodeClicked(name);
}

void GpuHeatmapView::contextMenuEvent(QContextMenuEvent *event)
{
    const Hit hit = m_snapshot ? hitTest(event->pos()) : Hit{}; // viewport coordinates, as QAbstractScrollArea passes them
    if (hit.node < 0)
        return;
    Q_EMIT contextMenuRequested(m_snapshot->nodes[hit.node].name, hit.gpu, event->globalPos());
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
