#pragma once

#include "model/job_submission.h"

#include <QFuture>
#include <QObject>
#include <QPointer>

class QWidget;

namespace strata {

class ClusterSession;
class ClusterView;
class LogPanel;

// Submit, cancel, drain and resume for the connected cluster: each asks for confirmation
// (its dialog, or a question naming what it will touch), then hands the request to the
// session and follows its future without blocking. Results reach the log through the
// session's actionFinished. GUI thread; owned by the MainWindow, which parents the dialogs.
class ClusterActions : public QObject
{
    Q_OBJECT
public:
    ClusterActions(QWidget *dialogParent, ClusterView *view, LogPanel *log, QObject *parent = nullptr);

    void setSession(ClusterSession *session);
    int running() const { return m_running; }

    void submitJob();
    void cancelJob();
    void drainNodes();
    void resumeNodes();

Q_SIGNALS:
    void started(const QString &what);
    void runningChanged();

private:
    void run(const QString &what, const QFuture<ActionResult> &future);

    QWidget *m_parent;
    ClusterView *m_view;
    LogPanel *m_log;
    QPointer<ClusterSession> m_session;
    int m_running = 0;
};

} // namespace strata
