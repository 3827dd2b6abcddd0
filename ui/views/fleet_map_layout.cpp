#include "fleet_map_layout.h"

#include <QCoreApplication>
#include <QLocale>
#include <QMap>

#include <cmath>

namespace strata {

namespace {

struct Metrics
{
    int blockW, blockH;
};

Metrics blockSize(int cell, int gap, int nodeGap, int columns, int rows, int label)
{
    return {columns * (cell + gap) - gap + nodeGap, rows * (cell + gap) - gap + nodeGap + label};
}

} // namespace

QString FleetMapLayout::groupKey(const Node &node, Grouping grouping)
{
    if (grouping == Grouping::InstanceType)
        return node.instanceType.isEmpty() ? QCoreApplication::translate("FleetMapLayout", "unknown instance type")
                                           : node.instanceType;
    // The node's whole partition set: nodes in the same partitions share a group.
    return node.partitions.isEmpty() ? QCoreApplication::translate("FleetMapLayout", "no partition")
                                     : node.partitions.join(QStringLiteral(", "));
}

FleetMapLayout FleetMapLayout::compute(const ClusterSnapshot &snapshot, Grouping grouping, const QSize &viewport,
                                       double zoom, int headerHeight, const QSize &name)
{
    FleetMapLayout layout;
    QMap<QString, QVector<int>> byKey; // sorted by group name
    int maxGpus = 1;
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        const Node &n = snapshot.nodes[i];
        byKey[groupKey(n, grouping)] << i;
        maxGpus = qMax(maxGpus, int(n.gpus.size()));
    }
    layout.blockRows = maxGpus > 1 ? 2 : 1;
    layout.blockColumns = (maxGpus + layout.blockRows - 1) / layout.blockRows;
    const int width = qMax(1, viewport.width() - 2 * kMargin);

    const auto heightAt = [&](int cell, int nodeGap, int label) {
        const Metrics m = blockSize(cell, layout.gap, nodeGap, layout.blockColumns, layout.blockRows, label);
        const int perRow = qMax(1, (width + nodeGap) / m.blockW);
        qint64 h = kMargin;
        for (const QVector<int> &nodes : std::as_const(byKey))
            h += headerHeight + qint64((nodes.size() + perRow - 1) / perRow) * m.blockH + kMargin;
        return h;
    };
    const auto nodeGapFor = [](int cell) { return cell >= 4 ? 2 : 1; };
    // A name fits over a block as wide as it (a small gap keeps neighbours' names apart).
    const auto namesFit = [&](int cell) {
        return !name.isEmpty() && layout.blockColumns * (cell + layout.gap) - layout.gap >= name.width() + 4;
    };
    int fit = 0;
    for (int cell = kMaxCell; cell >= kMinCell && namesFit(cell); --cell)
        if (heightAt(cell, nodeGapFor(cell), name.height()) <= viewport.height()) {
            fit = cell;
            break;
        }
    for (int cell = kMaxCell; fit == 0 && cell > kMinCell; --cell)
        if (heightAt(cell, nodeGapFor(cell), 0) <= viewport.height())
            fit = cell;
    fit = qMax(fit, int(kMinCell));
    layout.cell = qBound(kMinCell, int(std::lround(fit * zoom)), kMaxCell);
    layout.fitZoom = double(layout.cell) / fit;
    layout.nodeGap = nodeGapFor(layout.cell);
    layout.labelHeight = namesFit(layout.cell) ? name.height() : 0;

    const Metrics m = blockSize(layout.cell, layout.gap, layout.nodeGap, layout.blockColumns, layout.blockRows,
                                layout.labelHeight);
    // Zoomed in, the blocks keep the arrangement that fits, so zooming moves nothing around:
    // the map grows and the scroll bars take over.
    const Metrics fitted = blockSize(fit, layout.gap, nodeGapFor(fit), layout.blockColumns, layout.blockRows, 0);
    const int perRow = qMax(1, (width + nodeGapFor(fit)) / fitted.blockW);
    layout.nodeRects.resize(snapshot.nodes.size());
    const QLocale locale;
    int y = kMargin;
    int right = 0;
    for (auto it = byKey.cbegin(); it != byKey.cend(); ++it) {
        Group g;
        g.nodes = it.value();
        int gpus = 0;
        for (int i : g.nodes)
            gpus += int(snapshot.nodes[i].gpus.size());
        g.title = QCoreApplication::translate("FleetMapLayout", "%1 \u00b7 %2 nodes \u00b7 %3 GPUs")
                      .arg(it.key(), locale.toString(g.nodes.size()), locale.toString(gpus));
        g.header = QRect(kMargin, y, qMax(width, perRow * m.blockW), headerHeight);
        y += headerHeight;
        for (int k = 0; k < g.nodes.size(); ++k) {
            const QRect r(kMargin + (k % perRow) * m.blockW, y + (k / perRow) * m.blockH + layout.labelHeight,
                          m.blockW - layout.nodeGap, m.blockH - layout.nodeGap - layout.labelHeight);
            layout.nodeRects[g.nodes[k]] = r;
            right = qMax(right, r.right());
        }
        y += int((g.nodes.size() + perRow - 1) / perRow) * m.blockH + kMargin;
        layout.groups << g;
    }
    layout.contentSize = QSize(qMax(right + kMargin + 1, kMargin + width), y);
    return layout;
}

QRect FleetMapLayout::gpuRect(int node, int gpuPosition) const
{
    if (node < 0 || node >= nodeRects.size() || gpuPosition < 0 || gpuPosition >= blockColumns * blockRows)
        return {};
    const QRect block = nodeRects[node];
    const int col = gpuPosition % blockColumns, row = gpuPosition / blockColumns;
    return QRect(block.left() + col * (cell + gap), block.top() + row * (cell + gap), cell, cell);
}

QRect FleetMapLayout::nameRect(int node) const
{
    if (labelHeight == 0 || node < 0 || node >= nodeRects.size())
        return {};
    const QRect &block = nodeRects[node];
    return {block.left(), block.top() - labelHeight, block.width(), labelHeight};
}

std::pair<int, int> FleetMapLayout::hit(const ClusterSnapshot &snapshot, const QPoint &p) const
{
    for (const Group &g : groups) {
        if (g.nodes.isEmpty())
            continue;
        const QRect &first = nodeRects[g.nodes.first()];
        const QRect &last = nodeRects[g.nodes.last()];
        if (p.y() < first.top() - labelHeight || p.y() > last.bottom() + nodeGap)
            continue;
        for (int i : g.nodes) {
            const QRect &r = nodeRects[i];
            if (!r.adjusted(0, -labelHeight, nodeGap, nodeGap).contains(p))
                continue;
            if (p.y() < r.top())
                return {i, -1}; // its name
            const int col = (p.x() - r.left()) / (cell + gap), row = (p.y() - r.top()) / (cell + gap);
            const int position = row * blockColumns + col;
            const bool inCell = col < blockColumns && row < blockRows && gpuRect(i, position).adjusted(0, 0, gap, gap).contains(p);
            return {i, inCell && position < snapshot.nodes[i].gpus.size() ? position : -1};
        }
    }
    return {-1, -1};
}

} // namespace strata
