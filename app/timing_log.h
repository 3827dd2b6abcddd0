#pragma once

#include <QFile>
#include <QObject>
#include <QPointer>

namespace strata {

class MainWindow;

// STRATA_TIMING_LOG=FILE: the window writes when it shows what, one line per event, for the
// scale benchmark (scripts/bench-scale) and anyone timing a start:
//   <epoch ms> first-paint                                      the window's first frame
//   <epoch ms> snapshot-applied gpus=G prepare_ms=P apply_ms=A nodes=N jobs=J metrics=0|1
//              sources=ssh:ok,slurm:ok,prometheus:failed          (the configured sources)
//   <epoch ms> paint-after-apply nodes=N jobs=J metrics=M sources=... the first frame showing it
// Epoch milliseconds, so the caller subtracts its own launch time. Owned by runGui(); GUI
// thread only; costs nothing when the variable is unset (it is never constructed).
class TimingLog : public QObject
{
    Q_OBJECT
public:
    // Opens (truncates) the file; false when it cannot be written.
    bool open(const QString &path);
    void watch(MainWindow *window);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void write(const QString &line);

    QFile m_file;
    QPointer<MainWindow> m_window;
    bool m_firstPaint = false;
    bool m_awaitingPaint = false; // a snapshot was applied; its first frame is not logged yet
    QString m_appliedCounts;
};

} // namespace strata
