#include "gpu_history_loader.h"

#include "gpu_time_series_chart.h"
#include "model/when_finished.h"


#include <memory>

namespace strata {

GpuHistoryLoader::GpuHistoryLoader(GpuTimeSeriesChart *chart, QObject *parent)
    : QObject(parent), m_chart(chart),
      m_unavailable(tr("Metrics unavailable: this cluster profile has no Prometheus.")),
      m_noTargets(tr("This job holds no GPUs yet."))
{
    connect(chart, &GpuTimeSeriesChart::rangeRequested, this, &GpuHistoryLoader::reload);
    m_again.setSingleShot(true);
    connect(&m_again, &QTimer::timeout, this, [this] {
        if (m_chart->isVisible())
            reload();
        else
            m_again.start(5000); // asked again once it is shown
    });
}

void GpuHistoryLoader::setHistory(MetricHistory *history, const QString &unavailableReason)
{
    m_history = history;
    m_unavailable = unavailableReason;
    reload();
}

void GpuHistoryLoader::setTargets(const QVector<Target> &targets)
{
    if (targets == m_targets)
        return;
    m_targets = targets;
    reload();
}

void GpuHistoryLoader::setNoTargetsText(const QString &text)
{
    if (text == m_noTargets)
        return;
    m_noTargets = text;
    if (m_targets.isEmpty())
        reload();
}

void GpuHistoryLoader::setJob(const QString &jobId)
{
    if (jobId == m_jobId)
        return;
    m_jobId = jobId;
    if (ChartMetric::isApplication(m_chart->metric()))
        reload();
}

void GpuHistoryLoader::reload()
{
    const quint64 serial = ++m_serial;
    m_again.stop();
    if (!m_history) {
        m_chart->setUnavailable(m_unavailable);
        return;
    }
    const ChartMetric::Kind metric = m_chart->metric();
    const QDateTime end = QDateTime::currentDateTimeUtc();
    const int window = m_chart->windowSeconds();
    // About 240 points per line whatever the window.
    const int step = qMax(15, window / 240);
    if (ChartMetric::isApplication(metric)) {
        // One line for the job, whatever GPUs it holds.
        MetricHistoryRequest request;
        request.metric = metric;
        request.jobId = m_jobId;
        request.start = end.addSecs(-window);
        request.end = end;
        request.stepSeconds = step;
        m_chart->setLoading();
        whenFinished(m_history->range(request), this, [this, serial, metric](const MetricHistory::Result &r) {
            if (serial != m_serial)
                return;
            if (!r.error.isEmpty())
                m_chart->setUnavailable(tr("Metrics query failed: %1").arg(r.error));
            else if (r.series.isEmpty())
                m_chart->setUnavailable(tr("This job's application reports no %1 (see docs/metrics.md for the names Strata reads).")
                                            .arg(ChartMetric::label(metric)));
            else
                m_chart->setSeries(metric, r.series);
            m_again.start(r.series.isEmpty() ? 15000 : 30000);
        });
        return;
    }
    if (m_targets.isEmpty()) {
        m_chart->setUnavailable(m_noTargets);
        return;
    }
    m_chart->setLoading();
    struct Gathered
    {
        int waiting = 0;
        QVector<TimeSeries> series;
        QStringList errors;
    };
    auto gathered = std::make_shared<Gathered>();
    gathered->waiting = int(m_targets.size());
    for (const Target &target : std::as_const(m_targets)) {
        MetricHistoryRequest request;
        request.node = target.first;
        request.gpus = target.second;
        request.metric = metric;
        request.start = end.addSecs(-window);
        request.end = end;
        request.stepSeconds = step;
        const bool prefix = m_targets.size() > 1;
        whenFinished(m_history->range(request), this, [this, serial, gathered, metric, prefix,
                                              node = target.first](const MetricHistory::Result &r) {
            if (serial != m_serial)
                return; // a newer request owns the chart
            for (TimeSeries ts : r.series) {
                if (prefix)
                    ts.label = node + QLatin1Char(':') + ts.label;
                gathered->series << ts;
            }
            if (!r.error.isEmpty())
                gathered->errors << r.error;
            if (--gathered->waiting > 0)
                return;
            if (gathered->series.isEmpty() && !gathered->errors.isEmpty())
                m_chart->setUnavailable(tr("Metrics query failed: %1").arg(gathered->errors.join(QLatin1String("; "))));
            else
                m_chart->setSeries(metric, gathered->series);
            m_again.start(gathered->series.isEmpty() ? 5000 : 30000);
        });
    }
}

} // namespace strata
