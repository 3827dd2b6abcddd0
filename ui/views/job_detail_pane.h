#pragma once

#include "model/cluster_snapshot.h"

#include <QWidget>

class QFormLayout;
class QLabel;
class QPlainTextEdit;

namespace strata {

class GpuHistoryLoader;
class GpuTimeSeriesChart;
class MetricHistory;

// One job in detail: state and reason, where it runs (nodes and GPU indices), time, the
// efficiency verdict, its command and output path, and its GPUs' utilisation over time.
// GUI thread.
class JobDetailPane : public QWidget
{
    Q_OBJECT
public:
    explicit JobDetailPane(QWidget *parent = nullptr);

    void setMetricHistory(MetricHistory *history, const QString &unavailableReason);
    void showJob(const SnapshotPtr &snapshot, const QString &id);
    QString jobId() const { return m_id; }
    QString verdictText() const;
    QString placementText() const;
    QString applicationText() const;
    GpuTimeSeriesChart *chart() const { return m_chart; }

Q_SIGNALS:
    void nodePicked(const QString &node);

private:
    QLabel *addRow(QFormLayout *form, const QString &label);

    QString m_id;
    QLabel *m_title;
    QLabel *m_state;
    QLabel *m_owner;
    QLabel *m_placement;
    QLabel *m_time;
    QLabel *m_verdict;
    QLabel *m_workload;
    QLabel *m_app;
    QLabel *m_stdout;
    QLabel *m_workDir;
    QPlainTextEdit *m_command;
    GpuTimeSeriesChart *m_chart;
    GpuHistoryLoader *m_loader;
};

} // namespace strata
