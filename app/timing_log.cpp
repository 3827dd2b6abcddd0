#include "timing_log.h"

#include "cluster_view.h"
#include "main_window.h"

#include <QApplication>
#include <QDateTime>
#include <QEvent>
#include <QStringList>
#include <QWidget>

namespace strata {

bool TimingLog::open(const QString &path)
{
    m_file.setFileName(path);
    return m_file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text);
}

void TimingLog::watch(MainWindow *window)
{
    m_window = window;
    window->installEventFilter(this);
    auto *view = window->findChild<ClusterView *>();
    if (!view)
        return;
    connect(view, &ClusterView::snapshotApplied, this,
            [this](const SnapshotPtr &snapshot, qint64 prepareMs, qint64 applyMs) {
                const ClusterSnapshot::Totals totals = snapshot->totals();
                // Which configured sources answered (ok) or not, e.g. sources=ssh:ok,slurm:ok,prometheus:failed
                QStringList sources;
                for (const SourceStatus &st : snapshot->sources)
                    if (st.configured)
                        sources << sourceKindName(st.source) + (st.ok ? QStringLiteral(":ok") : QStringLiteral(":failed"));
                m_appliedCounts = QStringLiteral("nodes=%1 jobs=%2 metrics=%3 sources=%4")
                                      .arg(snapshot->nodes.size())
                                      .arg(snapshot->jobs.size())
                                      .arg(snapshot->metricsAvailable ? 1 : 0)
                                      .arg(sources.join(u','));
                write(QStringLiteral("snapshot-applied gpus=%1 prepare_ms=%2 apply_ms=%3 ")
                          .arg(totals.gpus)
                          .arg(prepareMs)
                          .arg(applyMs)
                      + m_appliedCounts);
                if (!m_awaitingPaint) {
                    m_awaitingPaint = true;
                    // Child widgets paint themselves: watch every paint until the next one.
                    qApp->installEventFilter(this);
                }
            });
}

bool TimingLog::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Paint) {
        if (!m_firstPaint && watched == m_window) {
            m_firstPaint = true;
            write(QStringLiteral("first-paint"));
        }
        auto *widget = qobject_cast<QWidget *>(watched);
        if (m_awaitingPaint && widget && m_window && widget->window() == m_window) {
            m_awaitingPaint = false;
            qApp->removeEventFilter(this);
            write(QStringLiteral("paint-after-apply ") + m_appliedCounts);
        }
    }
    return QObject::eventFilter(watched, event);
}

void TimingLog::write(const QString &line)
{
    m_file.write(QByteArray::number(QDateTime::currentMSecsSinceEpoch()) + ' ' + line.toUtf8() + '\n');
    m_file.flush();
}

} // namespace strata
