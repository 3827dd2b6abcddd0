#pragma once

#include "burnin/burnin_trend.h"

#include <QWidget>

class QChart;
class QChartView;
class QComboBox;
class QLabel;

namespace strata {

// The burn-in history of one node in its detail pane: per GPU the TFLOPS or memory bandwidth
// of every stored run (one line per GPU, x the run number), and below it the GPUs whose
// fitted trend over three runs or more falls by 3 % or more, so a slow decline shows before a
// run fails. Reads the SQLite store on
// the thread pool (open, read, close there) and draws on the GUI thread; a newer request
// supersedes one still reading. GUI thread; owned by the NodeDetailPane.
class BurninHistoryPanel : public QWidget
{
    Q_OBJECT
public:
    enum class Figure { Tflops, Bandwidth };

    explicit BurninHistoryPanel(QWidget *parent = nullptr);

    void setHistoryPath(const QString &path);
    // Loads the node's history (again, after a run, with the same name).
    void showNode(const QString &node);
    void reload();
    void setFigure(Figure figure);

    QString node() const { return m_node; }
    const QVector<BurninGpuTrend> &trends() const { return m_trends; }
    bool isLoading() const { return m_loading; }
    // Runs stored for the node (the most any of its GPUs has).
    int runCount() const;
    QString summaryText() const;
    int seriesCount() const;

Q_SIGNALS:
    void loaded();

private:
    void draw();

    QString m_path;
    QString m_node;
    quint64 m_serial = 0;
    bool m_loading = false;
    QVector<BurninGpuTrend> m_trends;
    QString m_error;
    QComboBox *m_figure;
    QLabel *m_summary;
    QChartView *m_view;
    QChart *m_chart;
};

} // namespace strata
