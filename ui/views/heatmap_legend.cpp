#include "heatmap_legend.h"

#include "color_map.h"
#include "state_colouring.h"

#include <QPainter>

namespace strata {

HeatmapLegend::HeatmapLegend(QWidget *parent) : QWidget(parent)
{
    setAccessibleName(tr("Heatmap colour scale"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void HeatmapLegend::setMetric(HeatmapMetric::Kind metric)
{
    m_metric = metric;
    update();
}

QSize HeatmapLegend::sizeHint() const
{
    return {600, fontMetrics().height() + 8};
}

void HeatmapLegend::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QFontMetrics fm = fontMetrics();
    const int h = fm.height();
    const int top = (height() - h) / 2;
    int x = 0;
    const auto text = [&](const QString &s) {
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(x, top, fm.horizontalAdvance(s) + 2, h), Qt::AlignVCenter, s);
        x += fm.horizontalAdvance(s) + 8;
    };
    const auto swatch = [&](const QColor &c) {
        p.fillRect(QRect(x, top + 2, 14, h - 4), c);
        x += 18;
    };
    if (m_metric == HeatmapMetric::Kind::NodeState) {
        for (StateColouring::Class c : StateColouring::all()) {
            swatch(StateColouring::color(c));
            text(StateColouring::name(c));
        }
    } else if (m_metric == HeatmapMetric::Kind::Allocation) {
        for (GpuCapacity::Bucket b : {GpuCapacity::Bucket::Busy, GpuCapacity::Bucket::Idle, GpuCapacity::Bucket::Starting,
                                      GpuCapacity::Bucket::Launchable, GpuCapacity::Bucket::Unavailable}) {
            swatch(ColorMap::capacityColor(b));
            text(GpuCapacity::bucketName(b));
        }
    } else {
        text(HeatmapMetric::lowLabel(m_metric));
        const QRect bar(x, top + 2, 160, h - 4);
        QLinearGradient g(bar.topLeft(), bar.topRight());
        for (int i = 0; i <= 8; ++i)
            g.setColorAt(i / 8.0, ColorMap::sequential(i / 8.0));
        p.fillRect(bar, g);
        x += bar.width() + 6;
        text(HeatmapMetric::highLabel(m_metric));
        const QRect missing(x, top + 2, 14, h - 4);
        p.fillRect(missing, ColorMap::missingFill(palette()));
        p.fillRect(missing, QBrush(ColorMap::missingHatch(palette()), Qt::BDiagPattern));
        x += 18;
        text(tr("\u2014 not reported"));
    }
    const QRect mark(x, top + 2, 14, h - 4);
    p.setPen(QPen(ColorMap::severityColor(Finding::Severity::Critical), 2));
    p.drawRect(mark.adjusted(1, 1, -1, -1));
    x += 18;
    text(tr("finding (critical red, warning orange)"));
}

} // namespace strata
