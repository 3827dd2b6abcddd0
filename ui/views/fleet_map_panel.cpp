#include "fleet_map_panel.h"

#include "fleet_map_view.h"
#include "heatmap_legend.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace strata {

FleetMapPanel::FleetMapPanel(QWidget *parent)
    : QWidget(parent), m_metric(new QComboBox(this)), m_grouping(new QComboBox(this)), m_hint(new QLabel(this)),
      m_legend(new HeatmapLegend(this)), m_view(new FleetMapView(this))
{
    setObjectName(QStringLiteral("fleetPage"));
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    auto *colourLabel = new QLabel(tr("C&olour by:"), this);
    colourLabel->setBuddy(m_metric);
    m_metric->setObjectName(QStringLiteral("fleetMetric"));
    m_metric->setAccessibleName(tr("Colour the fleet map by"));
    for (HeatmapMetric::Kind k : HeatmapMetric::all())
        m_metric->addItem(HeatmapMetric::label(k), HeatmapMetric::id(k));
    auto *groupLabel = new QLabel(tr("&Group by:"), this);
    groupLabel->setBuddy(m_grouping);
    m_grouping->setObjectName(QStringLiteral("fleetGrouping"));
    m_grouping->setAccessibleName(tr("Group the fleet map by"));
    m_grouping->addItem(tr("Instance type"), int(FleetMapLayout::Grouping::InstanceType));
    m_grouping->addItem(tr("Partition"), int(FleetMapLayout::Grouping::Partition));
    m_hint->setText(tr("Wheel: zoom \u00b7 click: pick \u00b7 right click: actions"));
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    bar->addWidget(colourLabel);
    bar->addWidget(m_metric);
    bar->addWidget(groupLabel);
    bar->addWidget(m_grouping);
    bar->addStretch(1);
    bar->addWidget(m_hint);
    layout->addLayout(bar);
    layout->addWidget(m_legend);
    layout->addWidget(m_view, 1);
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] {
        const HeatmapMetric::Kind kind = HeatmapMetric::fromId(m_metric->currentData().toString());
        m_view->setMetric(kind);
        m_legend->setMetric(kind);
    });
    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this] {
        m_view->setGrouping(FleetMapLayout::Grouping(m_grouping->currentData().toInt()));
    });
    // By node state first: down, drained, powered-down, busy and idle nodes apart at a glance.
    setMetric(HeatmapMetric::Kind::NodeState);
}

void FleetMapPanel::setMetric(HeatmapMetric::Kind metric)
{
    m_metric->setCurrentIndex(m_metric->findData(HeatmapMetric::id(metric)));
    m_view->setMetric(metric);
    m_legend->setMetric(metric);
}

} // namespace strata
