#pragma once

#include <QString>
#include <QWidget>

class QFormLayout;
class QLabel;
class QVBoxLayout;

namespace strata {

class GpuHistoryLoader;
class GpuTimeSeriesChart;
class MetricHistory;

// What the node and job detail panes share: a bold title, a form of labelled values under it,
// then what the pane adds (NodeDetailPane: GPU table, jobs, burn-in history; JobDetailPane:
// the command), and a GPU time-series chart fed by a GpuHistoryLoader. A pane builds itself
// in its constructor: title and form first (here), its own widgets and createHistoryChart()
// where it places them. GUI thread.
class DetailPane : public QWidget
{
    Q_OBJECT
public:
    // Where the chart's series come from; without one it says unavailableReason.
    void setMetricHistory(MetricHistory *history, const QString &unavailableReason);
    GpuTimeSeriesChart *chart() const { return m_chart; }

protected:
    // How a form row shows its value: plain text selectable by mouse (free text from the
    // cluster), or rich text the pane escapes itself, with links to follow.
    enum class ValueText { Plain, EscapedRich };

    explicit DetailPane(const QString &objectName, QWidget *parent = nullptr);

    QLabel *title() const { return m_title; }
    QVBoxLayout *paneLayout() const { return m_layout; }
    // A labelled row of the form ("State:"), its value label.
    QLabel *addRow(const QString &label, ValueText text);
    // The chart and its loader, once, when the pane's own widgets before it exist (their order
    // is the focus order); the pane places the chart.
    GpuTimeSeriesChart *createHistoryChart();
    GpuHistoryLoader *historyLoader() const { return m_loader; }

private:
    QVBoxLayout *m_layout;
    QLabel *m_title;
    QFormLayout *m_form;
    GpuTimeSeriesChart *m_chart = nullptr;
    GpuHistoryLoader *m_loader = nullptr;
};

} // namespace strata
