#pragma once

#include "fleet_map_layout.h"
#include "heatmap_metric.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace strata {

class FleetMapView;
class HeatmapLegend;

// The Fleet tab: colour-by and group-by pickers, the legend and the dense map of every GPU.
// GUI thread.
class FleetMapPanel : public QWidget
{
    Q_OBJECT
public:
    explicit FleetMapPanel(QWidget *parent = nullptr);
    FleetMapView *view() const { return m_view; }
    QComboBox *metricCombo() const { return m_metric; }
    QComboBox *groupingCombo() const { return m_grouping; }
    void setMetric(HeatmapMetric::Kind metric);

private:
    QComboBox *m_metric;
    QComboBox *m_grouping;
    QLabel *m_hint;
    HeatmapLegend *m_legend;
    FleetMapView *m_view;
};

} // namespace strata
