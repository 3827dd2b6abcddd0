#include "heatmap_panel.h"

#include "gpu_heatmap_view.h"
#include "heatmap_legend.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace strata {

HeatmapPanel::HeatmapPanel(QWidget *parent)
    : QWidget(parent), m_metric(new QComboBox(this)), m_summary(new QLabel(this)),
      m_legend(new HeatmapLegend(this)), m_view(new GpuHeatmapView(this))
{
    setObjectName(QStringLiteral("heatmapPage"));
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    auto *label = new QLabel(tr("&Colour by:"), this);
    label->setBuddy(m_metric);
    m_metric->setObjectName(QStringLiteral("heatmapMetric"));
    for (HeatmapMetric::Kind k : HeatmapMetric::all())
        m_metric->addItem(HeatmapMetric::label(k), HeatmapMetric::id(k));
    bar->addWidget(label);
    bar->addWidget(m_metric);
    bar->addWidget(m_summary, 1);
    layout->addLayout(bar);
    layout->addWidget(m_legend);
    m_view->setObjectName(QStringLiteral("heatmap"));
    m_summary->setObjectName(QStringLiteral("heatmapSummary"));
    layout->addWidget(m_view, 1);
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] {
        const HeatmapMetric::Kind kind = HeatmapMetric::fromId(m_metric->currentData().toString());
        m_view->setMetric(kind);
        m_legend->setMetric(kind);
        Q_EMIT metricChanged(kind);
    });
    setMetric(HeatmapMetric::Kind::Utilisation);
}

void HeatmapPanel::setMetric(HeatmapMetric::Kind metric)
{
    m_metric->setCurrentIndex(m_metric->findData(HeatmapMetric::id(metric)));
    m_view->setMetric(metric);
    m_legend->setMetric(metric);
}

void HeatmapPanel::setSummary(const QString &text)
{
    m_summary->setText(text);
}

} // namespace strata
