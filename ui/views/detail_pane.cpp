#include "detail_pane.h"

#include "charts/gpu_history_loader.h"
#include "charts/gpu_time_series_chart.h"

#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace strata {

DetailPane::DetailPane(const QString &objectName, QWidget *parent)
    : QWidget(parent), m_layout(new QVBoxLayout(this)), m_title(new QLabel(this)), m_form(new QFormLayout)
{
    setObjectName(objectName);
    QFont big = m_title->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.2);
    m_title->setFont(big);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true); // a long node or job name wraps instead of widening the dock
    m_layout->addWidget(m_title);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_layout->addLayout(m_form);
}

QLabel *DetailPane::addRow(const QString &label, ValueText text)
{
    auto *value = new QLabel(this);
    value->setWordWrap(true);
    if (text == ValueText::Plain) {
        value->setTextFormat(Qt::PlainText);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    } else {
        value->setTextFormat(Qt::RichText);
        value->setTextInteractionFlags(Qt::TextBrowserInteraction);
    }
    m_form->addRow(label + QLatin1Char(':'), value);
    return value;
}

GpuTimeSeriesChart *DetailPane::createHistoryChart()
{
    Q_ASSERT(!m_chart);
    m_chart = new GpuTimeSeriesChart(this);
    m_loader = new GpuHistoryLoader(m_chart, this);
    return m_chart;
}

void DetailPane::setMetricHistory(MetricHistory *history, const QString &unavailableReason)
{
    m_loader->setHistory(history, unavailableReason);
}

} // namespace strata
