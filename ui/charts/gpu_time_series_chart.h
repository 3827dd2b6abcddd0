#pragma once

#include "model/chart_metric.h"
#include "model/time_series.h"

#include <QWidget>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QStackedWidget;

namespace strata {

// GPU time series (one line per GPU) over a selectable window, for the node and job panes.
// It only draws what it is given: the owner fetches the series (MetricHistory) when
// rangeRequested fires and hands them to setSeries(), or says why there are none with
// setUnavailable(). GUI thread.
class GpuTimeSeriesChart : public QWidget
{
    Q_OBJECT
public:
    explicit GpuTimeSeriesChart(QWidget *parent = nullptr);

    ChartMetric::Kind metric() const;
    // What the metric picker offers (default ChartMetric::all(); a job's chart adds the
    // application's figures).
    void setMetrics(const QList<ChartMetric::Kind> &kinds);
    int windowSeconds() const;
    void setSeries(ChartMetric::Kind metric, const QVector<TimeSeries> &series);
    void setUnavailable(const QString &why);
    void setLoading();
    // The message shown instead of the chart, empty while the chart is shown.
    QString message() const;
    int seriesCount() const;
    QChart *chart() const { return m_chart; }

Q_SIGNALS:
    void rangeRequested(strata::ChartMetric::Kind metric, int windowSeconds);

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPalette();
    void request();

    QComboBox *m_metric;
    QComboBox *m_window;
    QStackedWidget *m_stack;
    QLabel *m_message;
    QChartView *m_view;
    QChart *m_chart;
};

} // namespace strata
