#include "burnin_history_panel.h"

#include "burnin/burnin_history.h"
#include "model/when_finished.h"
#include "model/pool_task.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace strata {

namespace {

struct Loaded
{
    QVector<BurninGpuTrend> trends;
    QString error;
};

Loaded load(const QString &path, const QString &node)
{
    Loaded result;
    if (!QFileInfo::exists(path))
        return result; // no run yet: nothing to show, not an error
    BurninHistory history;
    QVector<BurninHistoryRecord> records;
    result.error = history.open(path);
    if (result.error.isEmpty())
        result.error = history.recordsForNode(node, &records);
    result.trends = BurninTrend::build(records);
    return result;
}

// A decline worth a line under the chart: the fitted trend lost more than this.
constexpr double kDeclinePct = -3.0;

} // namespace

BurninHistoryPanel::BurninHistoryPanel(QWidget *parent)
    : QWidget(parent), m_figure(new QComboBox(this)), m_summary(new QLabel(this)), m_view(new QChartView(this)),
      m_chart(new QChart)
{
    setObjectName(QStringLiteral("burninHistory"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Burn-in history:"), this));
    m_figure->setObjectName(QStringLiteral("burninHistoryFigure"));
    m_figure->addItem(tr("GEMM TFLOPS"));
    m_figure->addItem(tr("Memory GB/s"));
    m_figure->setAccessibleName(tr("Burn-in history figure"));
    top->addWidget(m_figure);
    top->addStretch(1);
    layout->addLayout(top);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    // setChart releases the view's own first chart without deleting it (Qt's documented
    // behaviour): delete it here, or every node pane leaks a chart (LeakSanitizer).
    QChart *placeholder = m_view->chart();
    m_view->setChart(m_chart);
    delete placeholder;
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(140);
    m_view->setObjectName(QStringLiteral("burninHistoryChart"));
    layout->addWidget(m_view, 1);
    m_summary->setObjectName(QStringLiteral("burninHistorySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    layout->addWidget(m_summary);
    connect(m_figure, &QComboBox::currentIndexChanged, this, &BurninHistoryPanel::draw);
    draw();
}

void BurninHistoryPanel::setHistoryPath(const QString &path)
{
    m_path = path;
    reload();
}

void BurninHistoryPanel::showNode(const QString &node)
{
    if (node == m_node)
        return; // every refresh shows the node again; the history changes only with a run
    m_node = node;
    reload();
}

void BurninHistoryPanel::setFigure(Figure figure)
{
    m_figure->setCurrentIndex(figure == Figure::Tflops ? 0 : 1);
}

void BurninHistoryPanel::reload()
{
    const quint64 serial = ++m_serial;
    if (m_node.isEmpty() || m_path.isEmpty()) {
        m_trends.clear();
        draw();
        return;
    }
    m_loading = true;
    whenFinished(runOnPool(nullptr, load, m_path, m_node), this, [this, serial](const Loaded &result) {
        if (serial != m_serial)
            return; // another node was picked meanwhile
        m_loading = false;
        m_trends = result.trends;
        m_error = result.error;
        draw();
        Q_EMIT loaded();
    });
}

int BurninHistoryPanel::runCount() const
{
    int runs = 0;
    for (const BurninGpuTrend &t : m_trends)
        runs = std::max(runs, int(t.points.size()));
    return runs;
}

QString BurninHistoryPanel::summaryText() const
{
    return m_summary->text();
}

int BurninHistoryPanel::seriesCount() const
{
    return int(m_chart->series().size());
}

void BurninHistoryPanel::draw()
{
    m_chart->removeAllSeries();
    for (QAbstractAxis *axis : m_chart->axes()) {
        m_chart->removeAxis(axis); // gives the axis back to us: ours to delete
        delete axis;
    }
    if (!m_error.isEmpty()) {
        m_summary->setText(m_error);
        return;
    }
    if (m_trends.isEmpty()) {
        m_summary->setText(m_node.isEmpty() ? QString() : tr("No burn-in of %1 stored yet.").arg(m_node));
        return;
    }
    const bool tflops = m_figure->currentIndex() == 0;
    auto *x = new QValueAxis;
    x->setTitleText(tr("run"));
    x->setLabelFormat(QStringLiteral("%d"));
    auto *y = new QValueAxis;
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    double yMax = 0;
    double yMin = std::numeric_limits<double>::max();
    int runs = 1;
    for (const BurninGpuTrend &t : std::as_const(m_trends)) {
        auto *line = new QLineSeries;
        line->setName(QString::number(t.gpu));
        line->setPointsVisible(true);
        for (int i = 0; i < t.points.size(); ++i) {
            const std::optional<double> v = tflops ? t.points[i].tflops : t.points[i].bandwidthGBps;
            if (!v)
                continue;
            line->append(i + 1, *v);
            yMax = std::max(yMax, *v);
            yMin = std::min(yMin, *v);
        }
        runs = std::max(runs, int(t.points.size()));
        m_chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    }
    x->setRange(runs > 1 ? 1 : 0, runs > 1 ? runs : 2);
    x->setTickCount(std::min(runs, 10) + (runs > 1 ? 0 : 2));
    // Around the figures, not from zero: a decline of a few percent has to be seen.
    if (yMax > 0)
        y->setRange(yMin * 0.9, yMax * 1.05);
    else
        y->setRange(0, 1);
    y->setLabelFormat(yMax < 1 ? QStringLiteral("%.4f") : yMax < 100 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    const QPalette pal = palette();
    m_chart->setBackgroundBrush(pal.color(QPalette::Base));
    m_chart->legend()->setLabelColor(pal.color(QPalette::Text));
    for (QAbstractAxis *axis : m_chart->axes()) {
        axis->setLabelsColor(pal.color(QPalette::Text));
        axis->setTitleBrush(pal.color(QPalette::Text));
    }

    QStringList lines;
    int failedRuns = 0;
    for (const BurninGpuTrend &t : std::as_const(m_trends)) {
        failedRuns += t.failedRuns();
        const std::optional<double> change = tflops ? t.tflopsChangePct : t.bandwidthChangePct;
        // Two runs are a difference, not a trend: a line needs three points to mean anything.
        if (change && *change <= kDeclinePct && t.points.size() >= 3)
            lines << tr("GPU %1: %2 %3% over %4 runs").arg(t.gpu).arg(tflops ? tr("TFLOPS") : tr("GB/s"))
                         .arg(*change, 0, 'f', 1).arg(t.points.size());
    }
    QString text = (runs == 1 ? tr("1 run of %1 stored") : tr("%1 runs of %2 stored").arg(runs)).arg(m_node);
    if (failedRuns > 0)
        text += failedRuns == 1 ? tr("; 1 failed GPU run") : tr("; %1 failed GPU runs").arg(failedRuns);
    text += lines.isEmpty() ? tr("; no GPU declining.") : tr("; declining: ") + lines.join(QStringLiteral("; "));
    m_summary->setText(text);
}

} // namespace strata
