#pragma once

#include "model/metric_history.h"

#include <QObject>
#include <QTimer>
#include <QPair>
#include <QVector>

namespace strata {

class GpuTimeSeriesChart;

// Feeds one GpuTimeSeriesChart: asks the MetricHistory for the GPUs of the shown node or job
// whenever the target, metric or window changes, and drops answers that arrive after a newer
// request. Keeps a shown chart current (asks again every 30 s, or after 5 s when the last
// answer was an error or empty, as right after Prometheus starts). Without a history it shows
// why there are no charts. GUI thread; owned by its pane.
class GpuHistoryLoader : public QObject
{
    Q_OBJECT
public:
    using Target = QPair<QString, QVector<int>>; // node, GPU indices (empty: all)

    GpuHistoryLoader(GpuTimeSeriesChart *chart, QObject *parent = nullptr);

    // history null: charts are unavailable, for the reason given.
    void setHistory(MetricHistory *history, const QString &unavailableReason);
    void setTargets(const QVector<Target> &targets);
    // What the chart says when there are no targets (a pending job: no GPUs yet; an ended one:
    // what it held).
    void setNoTargetsText(const QString &text);
    // The job the chart stands for (its application metrics); empty in a node's chart.
    void setJob(const QString &jobId);
    void reload();

private:
    GpuTimeSeriesChart *m_chart;
    MetricHistory *m_history = nullptr;
    QString m_unavailable;
    QVector<Target> m_targets;
    QString m_noTargets;
    QString m_jobId;
    quint64 m_serial = 0;
    QTimer m_again;
};

} // namespace strata
