#pragma once

#include "model/chart_metric.h"
#include "model/time_series.h"

#include <QWidget>

class QChart;
class QChartView;
class QCheckBox;
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
    // A job over several nodes: one line per node (the mean of its GPUs, NodeMeanSeries)
    // instead of one per GPU. The "Per node" box is shown only when the series name two nodes
    // or more; the choice is kept across reloads.
    void setPerNode(bool perNode);
    bool perNode() const;
    // Nodes drawn heavier and in the alert colour, their legend entry followed by `why` (a
    // straggler's node in its job's chart); the others keep their colours, thinner.
    void setEmphasis(const QStringList &nodes, const QString &why);
    QStringList emphasis() const { return m_emphasis; }
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
    void render();

    QComboBox *m_metric;
    QComboBox *m_window;
    QCheckBox *m_perNode;
    QStackedWidget *m_stack;
    QLabel *m_message;
    QChartView *m_view;
    QChart *m_chart;
    ChartMetric::Kind m_shownMetric = ChartMetric::Kind(0);
    QVector<TimeSeries> m_series; // as given: one per GPU
    QStringList m_emphasis;
    QString m_emphasisWhy;
};

} // namespace strata
