#include "cluster_actions.h"

#include "cluster_view.h"
#include "dialogs/drain_dialog.h"
#include "dialogs/submit_job_dialog.h"
#include "views/log_panel.h"

#include "session/cluster_session.h"

#include <QFutureWatcher>
#include <QMessageBox>
#include <QPushButton>

namespace strata {

ClusterActions::ClusterActions(QWidget *dialogParent, ClusterView *view, LogPanel *log, QObject *parent)
    : QObject(parent), m_parent(dialogParent), m_view(view), m_log(log)
{
}

void ClusterActions::setSession(ClusterSession *session)
{
    m_session = session;
}

void ClusterActions::run(const QString &what, const QFuture<ActionResult> &future)
{
    ++m_running;
    m_log->append(LogPanel::Level::Info, what);
    Q_EMIT started(what);
    // A watcher, not QFuture::then(): a future holds one continuation only, and the session
    // already hangs its own (actionFinished, the refresh after an action) on this one.
    auto *watcher = new QFutureWatcher<ActionResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        --m_running;
        Q_EMIT runningChanged();
        watcher->deleteLater();
    });
    watcher->setFuture(future);
    Q_EMIT runningChanged();
}

void ClusterActions::submitJob()
{
    if (!m_session)
        return;
    auto *dialog = new SubmitJobDialog(m_view->snapshot(), m_view->actionNodes(), m_parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (!m_session)
            return;
        const JobSubmission s = dialog->submission();
        run(tr("Submitting %1…").arg(s.name.isEmpty() ? tr("a job") : s.name), m_session->submit(s));
    });
    dialog->open();
}

void ClusterActions::cancelJob()
{
    const QString id = m_view->actionJob();
    if (!m_session || id.isEmpty())
        return;
    const SnapshotPtr snapshot = m_view->snapshot();
    const Job *job = snapshot ? snapshot->job(id) : nullptr;
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Cancel job"),
                                job ? tr("Cancel job %1 (%2) of %3, %4?").arg(id, job->name, job->user, job->state)
                                    : tr("Cancel job %1?").arg(id),
                                QMessageBox::NoButton, m_parent);
    box->setObjectName(QStringLiteral("confirmCancel"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *yes = box->addButton(tr("Cancel job"), QMessageBox::AcceptRole);
    yes->setObjectName(QStringLiteral("confirm"));
    box->addButton(tr("Keep it"), QMessageBox::RejectRole);
    connect(yes, &QPushButton::clicked, this, [this, id] {
        if (m_session)
            run(tr("Cancelling job %1…").arg(id), m_session->cancel(id));
    });
    box->open();
}

void ClusterActions::drainNodes()
{
    const QStringList nodes = m_view->actionNodes();
    if (!m_session || nodes.isEmpty())
        return;
    auto *dialog = new DrainDialog(nodes, m_parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (m_session)
            run(tr("Draining %1 (%2)…").arg(dialog->nodes().join(QLatin1Char(',')), dialog->reason()),
                      m_session->drain(dialog->nodes(), dialog->reason()));
    });
    dialog->open();
}

void ClusterActions::resumeNodes()
{
    const QStringList nodes = m_view->actionNodes();
    if (!m_session || nodes.isEmpty())
        return;
    auto *box = new QMessageBox(QMessageBox::Question, tr("Resume nodes"),
                                tr("Resume %1? They take new jobs again.").arg(nodes.join(QStringLiteral(", "))),
                                QMessageBox::NoButton, m_parent);
    box->setObjectName(QStringLiteral("confirmResume"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *yes = box->addButton(tr("Resume"), QMessageBox::AcceptRole);
    yes->setObjectName(QStringLiteral("confirm"));
    box->addButton(QMessageBox::Cancel);
    connect(yes, &QPushButton::clicked, this, [this, nodes] {
        if (m_session)
            run(tr("Resuming %1…").arg(nodes.join(QLatin1Char(','))), m_session->resume(nodes));
    });
    box->open();
}

} // namespace strata
