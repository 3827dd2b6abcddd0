#pragma once

#include "models/stack_element.h"

#include "burnin/burnin_job_watch.h"
#include "burnin/burnin_request.h"
#include "model/cluster_snapshot.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QVector>

class QWidget;

namespace strata {

class BurninDialog;
class BurninWindow;
class ClusterSession;
class ClusterView;
class LogPanel;

// Burn-in from the window: turns a selection (nodes, a GPU, a partition, an instance type,
// heatmap and fleet cells) into nodes, asks with a BurninDialog, runs the burn-in through the
// core's BurninSession in a BurninWindow, and remembers each running one in a small file
// (BurninResumeFile) so that it is followed again when the window connects to that cluster
// after a restart. When a run is judged it tells the node pane's history to reload. While a
// submitted job pends the log says what it waits for (BurninJobWatch), never that it runs.
// The dialog's tests, duration and backend are remembered per cluster profile (QSettings,
// "burnin/<profile>/..."): a lab without GPUs keeps the CPU backend, a GPU fleet its own
// duration; whether to drain on failure is asked afresh every time.
// GUI thread; owned by the MainWindow, which parents the dialogs.
class BurninController : public QObject
{
    Q_OBJECT
public:
    BurninController(QWidget *dialogParent, ClusterView *view, LogPanel *log, QObject *parent = nullptr);

    void setSession(ClusterSession *session);
    // Defaults: BurninHistory::defaultPath(); <AppDataLocation>/burnin-running.json; the
    // strata-burn beside the executable (or in the build tree, or on PATH).
    void setHistoryPath(const QString &path);
    QString historyPath() const { return m_historyPath; }
    void setResumeFilePath(const QString &path) { m_resumePath = path; }
    QString resumeFilePath() const { return m_resumePath; }
    void setAgentPath(const QString &path) { m_agentPath = path; }
    // The strata-burn to deploy: the one set, else beside the executable, the build tree, PATH.
    QString localAgentPath() const;
    // Milliseconds between reads of the agents' output (tests poll faster).
    void setPollIntervalMs(int ms) { m_pollIntervalMs = ms; }

    // The nodes a selection stands for on a snapshot: a node or GPU its node, a partition or
    // an instance type every node in it; `selected` (the Nodes table's selected rows) wins
    // for a node that is one of them.
    static QStringList nodesFor(const SnapshotPtr &snapshot, const StackElement &element, const QStringList &selected);
    static QString scopeText(const StackElement &element, const QStringList &nodes);

    // Asks for a burn-in on what the element stands for (the Actions menu: the view's
    // selection). Returns the dialog, or null when there is nothing to burn in.
    QWidget *launch(const StackElement &element, const QStringList &nodes = {});
    QWidget *launchForSelection();
    // Starts a burn-in without asking (the dialog's accept, and tests).
    BurninWindow *start(const BurninRequest &request);
    // Follows again the burn-ins of the connected cluster recorded as running. Returns how many.
    int reattach();
    QList<BurninWindow *> windows() const;
    // The settings key under which the dialog's choices for this profile are kept.
    static QString settingsGroup(const QString &profileName);

Q_SIGNALS:
    void windowOpened(strata::BurninWindow *window);
    // A run was judged and stored: the history of these nodes changed.
    void historyChanged(const QStringList &nodes);

private:
    BurninWindow *open(const BurninRequest &request, const QString &attachJobId);
    QString profileName() const;
    void restoreChoices(BurninDialog *dialog) const;
    void rememberChoices(const BurninRequest &request) const;
    void watchJobs(const SnapshotPtr &snapshot);

    QWidget *m_parent;
    ClusterView *m_view;
    LogPanel *m_log;
    QPointer<ClusterSession> m_session;
    QString m_historyPath;
    QString m_resumePath;
    QString m_agentPath;
    int m_pollIntervalMs = 2000;
    QList<QPointer<BurninWindow>> m_windows;
    QVector<BurninJobWatch> m_watches; // submitted jobs not yet seen running
};

} // namespace strata
