#pragma once

#include "heatmap_metric.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace strata {

class GpuHeatmapView;
class HeatmapLegend;

// The Heatmap tab: metric picker, legend and the GPU heatmap itself. GUI thread.
class HeatmapPanel : public QWidget
{
    Q_OBJECT
public:
    explicit HeatmapPanel(QWidget *parent = nullptr);

    GpuHeatmapView *view() const { return m_view; }
    QComboBox *metricCombo() const { return m_metric; }
    void setMetric(HeatmapMetric::Kind metric);
    void setSummary(const QString &text);

Q_SIGNALS:
    void metricChanged(strata::HeatmapMetric::Kind metric);

private:
    QComboBox *m_metric;
    QLabel *m_summary;
    HeatmapLegend *m_legend;
    GpuHeatmapView *m_view;
};

} // namespace strata
