#pragma once

#include "model/finding.h"
#include "model/job_submission.h"
#include "models/stack_element.h"
#include "session/shell_target.h"

#include <QFuture>
#include <QObject>
#include <QHash>
#include <QPointer>
#include <QUrl>

#include <functional>

class QMenu;
class QWidget;

namespace strata {

class BurninController;
class ClusterSession;
class ClusterView;
class InspectWindow;
class LogPanel;

// Submit, cancel, drain and resume (and, through BurninController, burn-in) for the connected cluster: each asks for confirmation
// (its dialog, or a question naming what it will touch), then hands the request to the
// session and follows its future without blocking. Results reach the log through the
// session's actionFinished. Also what needs no confirmation: a job's output, a shell on a
// node, in a job or a pod (the person's terminal, started detached). GUI thread; owned by the
// MainWindow, which parents the dialogs.
class ClusterActions : public QObject
{
    Q_OBJECT
public:
    ClusterActions(QWidget *dialogParent, ClusterView *view, LogPanel *log, QObject *parent = nullptr);

    // Starts a program detached (the terminal of "Open shell"); false with *error when it could
    // not be started. Tests put a recorder here.
    using Launcher = std::function<bool(const QStringList &argv, QString *error)>;

    void setSession(ClusterSession *session);
    void setLauncher(Launcher launcher) { m_launcher = std::move(launcher); }
    // Opens a URL in the person's browser ("Open in Grafana"); tests put a recorder here.
    using UrlOpener = std::function<bool(const QUrl &url)>;
    void setUrlOpener(UrlOpener opener) { m_urlOpener = std::move(opener); }
    // The terminal command from Preferences (placeholders {command}, {title}); empty: the
    // default (ShellCommand::defaultTemplate: $TERMINAL, x-terminal-emulator, xterm).
    void setTerminalCommand(const QString &terminalCommand) { m_terminalCommand = terminalCommand; }
    QString terminalCommand() const;
    static QString defaultTerminalCommand();
    // Where the menus' "Burn-in…" goes; null: no burn-in entries.
    void setBurnin(BurninController *burnin) { m_burnin = burnin; }
    int running() const { return m_running; }

    void submitJob();
    void cancelJob();
    void drainNodes();
    void resumeNodes();
    // The same, on named targets (a context menu's row rather than the selection).
    void cancelJob(const QString &id);
    void drainNodes(const QStringList &nodes);
    void resumeNodes(const QStringList &nodes);
    // Follows the job's stdout file over the session's shell in a JobOutputDialog (Slurm).
    void showOutput(const QString &jobId);
    // Alertmanager: silence one firing alert (a SilenceDialog asks how long and why), or end a
    // silence now. The next snapshot shows the alert silenced, or no longer.
    void silenceAlert(const Finding &alert);
    void expireSilence(const QString &silenceId);
    // Opens the person's terminal with ssh through the login node to the target
    // (ShellCommand); refusals and launch failures go to the log. Returns what was started.
    QStringList openShell(const ShellTarget &target);
    // The profile's Grafana template (grafanaNodeUrl or grafanaJobUrl) filled for a node, GPU
    // (gpu >= 0) or job, opened in the browser; problems go to the log. Returns the URL opened.
    QUrl openGrafanaForNode(const QString &node, int gpu = -1);
    QUrl openGrafanaForJob(const QString &jobId);
    // Kubernetes: the Inspect window of a workload of the Jobs table (its YAML, events, pods'
    // logs, port-forwards), or of the cluster's recent events; one window per object, kept
    // (with its forwards) until the session changes. nullptr where the cluster is not Kubernetes
    // or the job is not in the snapshot (said in the log).
    InspectWindow *inspect(const QString &jobId);
    InspectWindow *inspectClusterEvents();

    // The right-click menu for an element (nodes: all the nodes it stands for): the actions
    // that apply to it, disabled with the reason in their tooltip where they cannot run now.
    // The caller pops it up and owns it (WA_DeleteOnClose is set).
    QMenu *contextMenu(const StackElement &element, const QStringList &nodes, QWidget *parent);

Q_SIGNALS:
    void started(const QString &what);
    void runningChanged();

private:
    void run(const QString &what, const QFuture<ActionResult> &future);
    // The alert findings on the element (a node: all of its alerts; a GPU: that GPU's and the
    // node's own), as silence / expire entries.
    void addAlertActions(QMenu *menu, const StackElement &element);
    // On a finding's node or GPU: "Cancel job …" for each "idle-gpu-limit" finding there (the
    // action the finding offers; taken only after cancelJob's confirmation).
    void addIdleLimitActions(QMenu *menu, const StackElement &element);

    QWidget *m_parent;
    ClusterView *m_view;
    LogPanel *m_log;
    QPointer<ClusterSession> m_session;
    Launcher m_launcher;
    UrlOpener m_urlOpener;
    QUrl openGrafana(const QString &urlTemplate, const QHash<QString, QString> &values, const QString &what);
    QString m_terminalCommand;
    BurninController *m_burnin = nullptr;
    int m_running = 0;
    QHash<QString, QPointer<InspectWindow>> m_inspectWindows; // by "Kind namespace/name"; "" the cluster's events
};

} // namespace strata
