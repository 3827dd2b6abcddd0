#include "gpu_time_series_chart.h"

#include "model/node_mean_series.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>

namespace strata {

GpuTimeSeriesChart::GpuTimeSeriesChart(QWidget *parent)
    : QWidget(parent), m_metric(new QComboBox(this)), m_window(new QComboBox(this)),
      m_perNode(new QCheckBox(tr("Per node"), this)), m_stack(new QStackedWidget(this)), m_message(new QLabel(this)), m_chart(new QChart)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    m_metric->setObjectName(QStringLiteral("chartMetric"));
    m_window->setObjectName(QStringLiteral("chartWindow"));
    for (ChartMetric::Kind k : ChartMetric::all())
        m_metric->addItem(ChartMetric::label(k), int(k));
    m_window->addItem(tr("Last 15 minutes"), 15 * 60);
    m_window->addItem(tr("Last hour"), 3600);
    m_window->addItem(tr("Last 6 hours"), 6 * 3600);
    m_window->addItem(tr("Last 24 hours"), 24 * 3600);
    m_window->setCurrentIndex(1);
    // Side by side in a dock about 40 characters wide: each may shrink below its longest item
    // (eliding it) rather than widen the pane past the dock.
    for (QComboBox *combo : {m_metric, m_window}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(5);
    }
    bar->addWidget(m_metric, 1);
    bar->addWidget(m_window, 1);
    m_perNode->setObjectName(QStringLiteral("chartPerNode"));
    m_perNode->setToolTip(tr("One line per node, the mean of its GPUs: a node that lags its job's others stands out"));
    m_perNode->setVisible(false);
    bar->addWidget(m_perNode);
    layout->addLayout(bar);

    m_message->setObjectName(QStringLiteral("chartMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    QFont small = m_chart->legend()->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_chart->legend()->setFont(small);
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(180);
    m_stack->addWidget(m_message);
    m_stack->addWidget(m_view);
    layout->addWidget(m_stack, 1);
    applyPalette();
    setUnavailable(tr("Select a node or job."));

    connect(m_metric, &QComboBox::currentIndexChanged, this, &GpuTimeSeriesChart::request);
    connect(m_window, &QComboBox::currentIndexChanged, this, &GpuTimeSeriesChart::request);
    connect(m_perNode, &QCheckBox::toggled, this, [this] {
        if (!m_series.isEmpty())
            render();
    });
}

void GpuTimeSeriesChart::setPerNode(bool perNode)
{
    m_perNode->setChecked(perNode);
}

bool GpuTimeSeriesChart::perNode() const
{
    return m_perNode->isChecked();
}

void GpuTimeSeriesChart::setEmphasis(const QStringList &nodes, const QString &why)
{
    if (nodes == m_emphasis && why == m_emphasisWhy)
        return;
    m_emphasis = nodes;
    m_emphasisWhy = why;
    if (!m_series.isEmpty())
        render();
}

void GpuTimeSeriesChart::setMetrics(const QList<ChartMetric::Kind> &kinds)
{
    const QSignalBlocker quiet(m_metric);
    const int current = m_metric->currentData().toInt();
    m_metric->clear();
    for (ChartMetric::Kind k : kinds)
        m_metric->addItem(ChartMetric::label(k), int(k));
    m_metric->setCurrentIndex(qMax(0, m_metric->findData(current)));
}

ChartMetric::Kind GpuTimeSeriesChart::metric() const
{
    return ChartMetric::Kind(m_metric->currentData().toInt());
}

int GpuTimeSeriesChart::windowSeconds() const
{
    return m_window->currentData().toInt();
}

void GpuTimeSeriesChart::request()
{
    Q_EMIT rangeRequested(metric(), windowSeconds());
}

void GpuTimeSeriesChart::setUnavailable(const QString &why)
{
    m_series.clear();
    m_message->setText(why);
    m_stack->setCurrentWidget(m_message);
}

void GpuTimeSeriesChart::setLoading()
{
    setUnavailable(tr("Loading %1…").arg(ChartMetric::label(metric())));
}

QString GpuTimeSeriesChart::message() const
{
    return m_stack->currentWidget() == m_message ? m_message->text() : QString();
}

int GpuTimeSeriesChart::seriesCount() const
{
    int count = 0;
    for (QAbstractSeries *s : m_chart->series())
        count += s->isVisible() && !s->name().isEmpty();
    return count;
}

void GpuTimeSeriesChart::setSeries(ChartMetric::Kind metric, const QVector<TimeSeries> &series)
{
    m_shownMetric = metric;
    m_series = series;
    m_perNode->setVisible(NodeMeanSeries::nodeCount(series) >= 2);
    render();
}

void GpuTimeSeriesChart::render()
{
    const ChartMetric::Kind metric = m_shownMetric;
    const bool perNode = !m_perNode->isHidden() && m_perNode->isChecked(); // isHidden: the chart may not be on screen yet
    const QVector<TimeSeries> series = perNode ? NodeMeanSeries::meanPerNode(m_series) : m_series;
    const QVector<TimeSeries> given = m_series; // setUnavailable() below forgets them
    m_chart->removeAllSeries();
    for (QAbstractAxis *axis : m_chart->axes()) {
        m_chart->removeAxis(axis); // gives the axis back to us: ours to delete
        delete axis;
    }
    if (series.isEmpty()) {
        setUnavailable(tr("No %1 samples in this window.").arg(ChartMetric::label(metric)));
        return;
    }
    const QColor alert(0xd6, 0x27, 0x28);
    auto *x = new QDateTimeAxis;
    x->setFormat(windowSeconds() > 6 * 3600 ? QStringLiteral("dd hh:mm") : QStringLiteral("hh:mm"));
    auto *y = new QValueAxis; // its unit is in the metric picker above: no title eats the width
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    double xMin = std::numeric_limits<double>::max(), xMax = std::numeric_limits<double>::lowest();
    double yMax = 0;
    const double scale = metric == ChartMetric::Memory ? 1.0 / 1024 : 1.0; // MiB -> GiB
    for (const TimeSeries &ts : series) {
        // A NaN is a gap: every unbroken run becomes its own line in the GPU's colour.
        QLineSeries *line = nullptr;
        QColor colour;
        bool named = false;
        const bool emphasised = m_emphasis.contains(perNode ? ts.label : NodeMeanSeries::nodeOf(ts));
        const QString name = emphasised && perNode && !m_emphasisWhy.isEmpty()
                                 ? tr("%1 (%2)").arg(ts.label, m_emphasisWhy)
                                 : ts.label;
        for (const QPointF &p : ts.points) {
            if (std::isnan(p.y())) {
                line = nullptr;
                continue;
            }
            if (!line) {
                line = new QLineSeries;
                if (!named) {
                    line->setName(name);
                    named = true;
                }
                m_chart->addSeries(line);
                line->attachAxis(x);
                line->attachAxis(y);
                if (!colour.isValid())
                    colour = emphasised ? alert : line->color();
                QPen pen(colour);
                pen.setWidthF(emphasised ? 3.0 : (m_emphasis.isEmpty() ? 2.0 : 1.2));
                line->setPen(pen);
            }
            line->append(p.x(), p.y() * scale);
            xMin = qMin(xMin, p.x());
            xMax = qMax(xMax, p.x());
            yMax = qMax(yMax, p.y() * scale);
        }
    }
    // Unnamed continuation segments stay out of the legend.
    const auto markers = m_chart->legend()->markers();
    for (QLegendMarker *marker : markers)
        marker->setVisible(!marker->series()->name().isEmpty());
    if (xMin > xMax) {
        setUnavailable(tr("No %1 samples in this window.").arg(ChartMetric::label(metric)));
        return;
    }
    m_series = given;
    x->setRange(QDateTime::fromMSecsSinceEpoch(qint64(xMin)), QDateTime::fromMSecsSinceEpoch(qint64(xMax)));
    const double top = ChartMetric::axisMax(metric);
    y->setRange(0, top > 0 ? top : qMax(1.0, yMax * 1.1));
    applyPalette();
    m_stack->setCurrentWidget(m_view);
}

void GpuTimeSeriesChart::applyPalette()
{
    // Follow the window's palette instead of a fixed chart theme: readable light or dark.
    const QPalette pal = palette();
    m_chart->setBackgroundBrush(pal.color(QPalette::Base));
    m_chart->setTitleBrush(pal.color(QPalette::Text));
    m_chart->legend()->setLabelColor(pal.color(QPalette::Text));
    for (QAbstractAxis *axis : m_chart->axes()) {
        axis->setLabelsColor(pal.color(QPalette::Text));
        axis->setTitleBrush(pal.color(QPalette::Text));
        axis->setGridLineColor(pal.color(QPalette::Midlight));
        axis->setLinePenColor(pal.color(QPalette::Mid));
    }
}

void GpuTimeSeriesChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
    QWidget::changeEvent(event);
}

} // namespace strata
