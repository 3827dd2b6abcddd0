#pragma once

#include "heatmap_metric.h"

#include <QWidget>

namespace strata {

// The key under the heatmap: the colour scale with its ends, the hatched "no data" swatch and
// the finding marks, painted in the palette's colours. GUI thread.
class HeatmapLegend : public QWidget
{
    Q_OBJECT
public:
    explicit HeatmapLegend(QWidget *parent = nullptr);
    void setMetric(HeatmapMetric::Kind metric);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    HeatmapMetric::Kind m_metric = HeatmapMetric::Kind::Utilisation;
};

} // namespace strata
