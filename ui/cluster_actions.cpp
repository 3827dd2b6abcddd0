#include "cluster_actions.h"

#include "burnin_controller.h"
#include "cluster_view.h"
#include "dialogs/drain_dialog.h"
#include "dialogs/silence_dialog.h"
#include "dialogs/job_output_dialog.h"
#include "dialogs/submit_job_dialog.h"
#include "views/inspect_window.h"
#include "views/log_panel.h"

#include "model/orchestrator_source.h"
#include "prometheus/idle_gpu_limit_findings.h"
#include "prometheus/metrics_source.h"
#include "session/cluster_session.h"
#include "profile/grafana_link.h"
#include "session/shell_command.h"
#include "slurm/hostlist.h"

#include <QClipboard>
#include <QDateTime>
#include <QDesktopServices>
#include <QFutureWatcher>
#include <QGuiApplication>
#include <QMenu>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>

namespace strata {

ClusterActions::ClusterActions(QWidget *dialogParent, ClusterView *view, LogPanel *log, QObject *parent)
    : QObject(parent), m_parent(dialogParent), m_view(view), m_log(log),
      m_launcher([](const QStringList &argv, QString *error) {
          if (QProcess::startDetached(argv.first(), argv.mid(1)))
              return true;
          *error = tr("cannot start %1 (not installed, or not on PATH?)").arg(argv.first());
          return false;
      }),
      m_urlOpener([](const QUrl &url) { return QDesktopServices::openUrl(url); })
{
}

QUrl ClusterActions::openGrafana(const QString &urlTemplate, const QHash<QString, QString> &values, const QString &what)
{
    QString error;
    const QUrl url = GrafanaLink::expand(urlTemplate, values, &error);
    if (!url.isValid()) {
        m_log->append(LogPanel::Level::Error, tr("Cannot open %1 in Grafana: %2").arg(what, error));
        return {};
    }
    if (!m_urlOpener(url)) {
        m_log->append(LogPanel::Level::Error, tr("Cannot open %1: no browser took the URL").arg(url.toDisplayString()));
        return {};
    }
    m_log->append(LogPanel::Level::Info, tr("Opened %1 in Grafana: %2").arg(what, url.toDisplayString()));
    return url;
}

QUrl ClusterActions::openGrafanaForNode(const QString &node, int gpu)
{
    if (!m_session)
        return {};
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    return openGrafana(m_session->profile().grafanaNodeUrl,
                       {{QStringLiteral("node"), node},
                        {QStringLiteral("gpu"), gpu >= 0 ? QString::number(gpu) : QString()},
                        {QStringLiteral("cluster"), m_session->profile().name},
                        {QStringLiteral("from"), QString::number(now - 3600 * 1000)},
                        {QStringLiteral("to"), QString::number(now)}},
                       gpu >= 0 ? tr("%1 GPU %2").arg(node).arg(gpu) : node);
}

QUrl ClusterActions::openGrafanaForJob(const QString &jobId)
{
    if (!m_session)
        return {};
    const SnapshotPtr snapshot = m_view->snapshot();
    const Job *job = snapshot ? snapshot->job(jobId) : nullptr;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 from = job && job->startTime > 0 ? job->startTime * 1000 : now - 3600 * 1000;
    return openGrafana(m_session->profile().grafanaJobUrl,
                       {{QStringLiteral("job"), jobId},
                        {QStringLiteral("cluster"), m_session->profile().name},
                        {QStringLiteral("from"), QString::number(from)},
                        {QStringLiteral("to"), QString::number(now)}},
                       tr("job %1").arg(jobId));
}

QString ClusterActions::terminalCommand() const
{
    return m_terminalCommand.trimmed().isEmpty() ? defaultTerminalCommand() : m_terminalCommand;
}

QString ClusterActions::defaultTerminalCommand()
{
    return ShellCommand::defaultTemplate(qEnvironmentVariable("TERMINAL"), [](const QString &program) {
        return !QStandardPaths::findExecutable(program).isEmpty();
    });
}

QStringList ClusterActions::openShell(const ShellTarget &target)
{
    if (!m_session)
        return {};
    const ClusterProfile &profile = m_session->profile();
    const QString title = ShellCommand::title(profile, target);
    const ShellCommand::Result ssh = ShellCommand::sshArguments(profile, target);
    if (!ssh.ok()) {
        m_log->append(LogPanel::Level::Error, tr("Open shell (%1): refused: %2").arg(title, ssh.error));
        return {};
    }
    const ShellCommand::Result terminal = ShellCommand::terminalArguments(terminalCommand(), ssh.argv, title);
    if (!terminal.ok()) {
        m_log->append(LogPanel::Level::Error, tr("Open shell (%1): %2 (Preferences, Terminal)").arg(title, terminal.error));
        return {};
    }
    QString error;
    if (!m_launcher(terminal.argv, &error)) {
        m_log->append(LogPanel::Level::Error, tr("Open shell (%1): %2").arg(title, error));
        return {};
    }
    m_log->append(LogPanel::Level::Info, tr("Opened a shell (%1) in %2").arg(title, terminal.argv.first()));
    return terminal.argv;
}

void ClusterActions::setSession(ClusterSession *session)
{
    if (session != m_session) {
        // The windows read through the session they were opened for; their forwards end here.
        for (const QPointer<InspectWindow> &window : std::as_const(m_inspectWindows))
            delete window.data();
        m_inspectWindows.clear();
    }
    m_session = session;
}

InspectWindow *ClusterActions::inspect(const QString &jobId)
{
    if (!m_session || !m_session->kubeInspector()) {
        m_log->append(LogPanel::Level::Error, tr("Inspect needs a connected Kubernetes cluster"));
        return nullptr;
    }
    const SnapshotPtr snapshot = m_view->snapshot();
    const Job *job = snapshot ? snapshot->job(jobId) : nullptr;
    if (!job) {
        m_log->append(LogPanel::Level::Error, tr("Job %1 is not in the last snapshot").arg(jobId));
        return nullptr;
    }
    const KubeObjectRef object = InspectWindow::referenceOf(*job);
    const QString key = object.display();
    InspectWindow *window = m_inspectWindows.value(key);
    if (!window) {
        window = new InspectWindow(m_session, object, job->pods, m_parent);
        m_inspectWindows.insert(key, window);
    } else {
        window->refresh();
    }
    window->show();
    window->raise();
    window->activateWindow();
    return window;
}

InspectWindow *ClusterActions::inspectClusterEvents()
{
    if (!m_session || !m_session->kubeInspector()) {
        m_log->append(LogPanel::Level::Error, tr("Events need a connected Kubernetes cluster"));
        return nullptr;
    }
    InspectWindow *window = m_inspectWindows.value(QString());
    if (!window) {
        window = new InspectWindow(m_session, KubeObjectRef{}, {}, m_parent);
        m_inspectWindows.insert(QString(), window);
    } else {
        window->refresh();
    }
    window->show();
    window->raise();
    return window;
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
    cancelJob(m_view->actionJob());
}

void ClusterActions::cancelJob(const QString &id)
{
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
    // Enter and Escape keep the job: cancelling takes a click (or its mnemonic) on purpose.
    QPushButton *keep = box->addButton(tr("Keep it"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("keep"));
    box->setDefaultButton(keep);
    box->setEscapeButton(keep);
    connect(yes, &QPushButton::clicked, this, [this, id] {
        if (m_session)
            run(tr("Cancelling job %1…").arg(id), m_session->cancel(id));
    });
    box->open();
}

void ClusterActions::drainNodes()
{
    drainNodes(m_view->actionNodes());
}

void ClusterActions::drainNodes(const QStringList &nodes)
{
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
    resumeNodes(m_view->actionNodes());
}

void ClusterActions::resumeNodes(const QStringList &nodes)
{
    if (!m_session || nodes.isEmpty())
        return;
    auto *box = new QMessageBox(QMessageBox::Question, tr("Resume nodes"),
                                tr("Resume %1? They take new jobs again.").arg(nodes.join(QStringLiteral(", "))),
                                QMessageBox::NoButton, m_parent);
    box->setObjectName(QStringLiteral("confirmResume"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *yes = box->addButton(tr("Resume"), QMessageBox::AcceptRole);
    yes->setObjectName(QStringLiteral("confirm"));
    // Enter keeps them out: a node drained for a fault would take jobs again and fail them.
    box->setDefaultButton(box->addButton(QMessageBox::Cancel));
    connect(yes, &QPushButton::clicked, this, [this, nodes] {
        if (m_session)
            run(tr("Resuming %1…").arg(nodes.join(QLatin1Char(','))), m_session->resume(nodes));
    });
    box->open();
}

void ClusterActions::silenceAlert(const Finding &alert)
{
    if (!m_session || alert.labels.isEmpty())
        return;
    auto *dialog = new SilenceDialog(alert, m_parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, code = alert.code] {
        if (m_session)
            run(tr("Silencing %1 (%2)…").arg(code.mid(6), dialog->request().comment),
                m_session->createSilence(dialog->request()));
    });
    dialog->open();
}

void ClusterActions::expireSilence(const QString &silenceId)
{
    if (m_session && !silenceId.isEmpty())
        run(tr("Expiring silence %1…").arg(silenceId), m_session->expireSilence(silenceId));
}

void ClusterActions::addAlertActions(QMenu *menu, const StackElement &element)
{
    const SnapshotPtr snapshot = m_view->snapshot();
    if (!snapshot)
        return;
    const bool alertmanager = m_session && m_session->metrics() && m_session->metrics()->alertmanager();
    bool first = true;
    for (const Finding &f : snapshot->findings) {
        if (!f.code.startsWith(QLatin1String("alert:")) || f.labels.isEmpty() || f.node != element.key)
            continue;
        if (element.layer == StackElement::Layer::Gpu && f.gpu >= 0 && f.gpu != element.gpu)
            continue;
        if (first)
            menu->addSeparator();
        first = false;
        const QString where = f.gpu >= 0 ? tr("%1 GPU %2").arg(f.node).arg(f.gpu) : f.node;
        QAction *a = nullptr;
        if (f.silencedBy.isEmpty()) {
            a = menu->addAction(tr("Silence alert %1 on %2…").arg(f.code.mid(6), where));
            a->setObjectName(QStringLiteral("contextSilence"));
            connect(a, &QAction::triggered, menu, [this, f] { silenceAlert(f); });
        } else {
            a = menu->addAction(tr("Expire the silence of %1 on %2").arg(f.code.mid(6), where));
            a->setObjectName(QStringLiteral("contextExpireSilence"));
            connect(a, &QAction::triggered, menu, [this, ids = f.silencedBy] {
                for (const QString &id : ids)
                    expireSilence(id);
            });
        }
        if (!alertmanager) {
            a->setEnabled(false);
            a->setToolTip(m_session ? tr("No Alertmanager in this cluster's profile") : tr("Not connected to the cluster"));
        }
    }
}

void ClusterActions::addIdleLimitActions(QMenu *menu, const StackElement &element)
{
    const SnapshotPtr snapshot = m_view->snapshot();
    if (!snapshot)
        return;
    QStringList offered;
    for (const Finding &f : snapshot->findings) {
        if (f.code != IdleGpuLimitFindings::findingCode() || f.node != element.key || f.job.isEmpty()
            || offered.contains(f.job))
            continue;
        if (element.layer == StackElement::Layer::Gpu && f.gpu >= 0 && f.gpu != element.gpu)
            continue;
        if (offered.isEmpty())
            menu->addSeparator();
        offered << f.job;
        const Job *job = snapshot->job(f.job);
        QAction *a = menu->addAction(job ? tr("Cancel idle job %1 of %2…").arg(f.job, job->user)
                                         : tr("Cancel idle job %1…").arg(f.job));
        a->setObjectName(QStringLiteral("contextCancelIdleJob"));
        a->setToolTip(f.message);
        connect(a, &QAction::triggered, menu, [this, id = f.job] { cancelJob(id); });
        if (!m_session) {
            a->setEnabled(false);
            a->setToolTip(tr("Not connected to the cluster"));
        }
    }
}

void ClusterActions::showOutput(const QString &jobId)
{
    const SnapshotPtr snapshot = m_view->snapshot();
    const Job *job = snapshot ? snapshot->job(jobId) : nullptr;
    if (!m_session || !job)
        return;
    // Kubernetes: the pod's (or the Job's pods') log, kubectl logs -f; Slurm: the stdout file.
    const QString kind = m_session->orchestrator()->jobObjectKind(jobId);
    std::unique_ptr<OutputFollower> follower = m_session->followOutput(*job);
    if (!follower) {
        if (!kind.isEmpty())
            m_log->append(LogPanel::Level::Error, tr("\"%1\" is not a Kubernetes pod or job: no log to follow").arg(jobId));
        return;
    }
    auto *dialog = new JobOutputDialog(jobId, follower.release(), m_parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!kind.isEmpty())
        m_log->append(LogPanel::Level::Info, tr("Following the log of %1 %2 (kubectl logs -f)").arg(kind, jobId));
    else
        m_log->append(LogPanel::Level::Info, tr("Following the output of job %1 (%2)").arg(jobId, job->stdoutPath));
    dialog->show();
}

QMenu *ClusterActions::contextMenu(const StackElement &element, const QStringList &nodes, QWidget *parent)
{
    auto *menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("contextMenu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->setToolTipsVisible(true);
    const SnapshotPtr snapshot = m_view->snapshot();
    const bool connected = m_session != nullptr;
    const QString notConnected = tr("Not connected to the cluster");
    const auto add = [menu](const QString &name, const QString &text, auto slot) {
        QAction *a = menu->addAction(text);
        a->setObjectName(name);
        QObject::connect(a, &QAction::triggered, menu, slot);
        return a;
    };
    const auto disableIf = [](QAction *a, bool off, const QString &why) {
        if (off) {
            a->setEnabled(false);
            a->setToolTip(why);
        }
    };
    const auto copy = [](const QString &text) { QGuiApplication::clipboard()->setText(text); };
    const QString nodeLabel = nodes.size() == 1 ? nodes.first()
                                                : tr("%1 nodes").arg(nodes.size());

    switch (element.layer) {
    case StackElement::Layer::Node:
    case StackElement::Layer::Gpu: {
        int drained = 0;
        for (const QString &name : nodes)
            if (const Node *n = snapshot ? snapshot->node(name) : nullptr; n && n->isUnavailable())
                ++drained;
        QAction *drain = add(QStringLiteral("contextDrain"), tr("Drain %1…").arg(nodeLabel),
                             [this, nodes] { drainNodes(nodes); });
        disableIf(drain, !connected, notConnected);
        QAction *resume = add(QStringLiteral("contextResume"), tr("Resume %1…").arg(nodeLabel),
                              [this, nodes] { resumeNodes(nodes); });
        disableIf(resume, !connected, notConnected);
        disableIf(resume, connected && drained == 0, tr("Not drained or down: nothing to resume"));
        if (m_burnin) {
            QAction *burnin = add(QStringLiteral("contextBurnin"), tr("Burn-in %1…").arg(nodeLabel),
                                  [this, element, nodes] { m_burnin->launch(element, nodes); });
            disableIf(burnin, !connected, notConnected);
        }
        menu->addSeparator();
        const QString copied = element.layer == StackElement::Layer::Gpu
            ? tr("%1 GPU %2").arg(element.key).arg(element.gpu) : nodes.join(QLatin1Char('\n'));
        add(QStringLiteral("contextCopy"),
            element.layer == StackElement::Layer::Gpu ? tr("Copy \"%1\"").arg(copied)
                                                      : tr("Copy name(s)"),
            [copy, copied] { copy(copied); });
        add(QStringLiteral("contextFilter"), tr("Filter Nodes to %1").arg(element.key),
            [this, element] { m_view->filterTo(StackElement::node(element.key)); });
        add(QStringLiteral("contextJobsOn"), tr("Jobs on %1").arg(element.key),
            [this, element] { m_view->filterTo(StackElement::job(element.key)); });
        menu->addSeparator();
        QAction *shell = add(QStringLiteral("contextShell"), tr("Open shell on %1").arg(element.key),
                             [this, node = element.key] { openShell(ShellTarget::onNode(node)); });
        disableIf(shell, !connected, notConnected);
        const int gpu = element.layer == StackElement::Layer::Gpu ? element.gpu : -1;
        QAction *grafana = add(QStringLiteral("contextGrafana"), tr("Open %1 in Grafana").arg(element.key),
                               [this, node = element.key, gpu] { openGrafanaForNode(node, gpu); });
        disableIf(grafana, !connected, notConnected);
        disableIf(grafana, connected && m_session->profile().grafanaNodeUrl.isEmpty(),
                  tr("Set the profile's Grafana node URL (Prometheus tab) to open dashboards"));
        addAlertActions(menu, element);
        addIdleLimitActions(menu, element);
        break;
    }
    case StackElement::Layer::Job: {
        const Job *job = snapshot ? snapshot->job(element.key) : nullptr;
        QAction *cancel = add(QStringLiteral("contextCancel"), tr("Cancel job %1…").arg(element.key),
                              [this, id = element.key] { cancelJob(id); });
        disableIf(cancel, !connected, notConnected);
        disableIf(cancel, connected && job && !job->isRunning() && !job->isPending(),
                  tr("The job is %1: nothing to cancel").arg(job ? job->state : QString()));
        QAction *output = add(QStringLiteral("contextOutput"), tr("Show output"),
                              [this, id = element.key] { showOutput(id); });
        disableIf(output, !connected, notConnected);
        const bool followsLog = connected && !m_session->orchestrator()->jobObjectKind(element.key).isEmpty();
        disableIf(output, connected && (!job || (!followsLog && job->stdoutPath.isEmpty())),
                  tr("The scheduler names no output file"));
        if (job && !job->stdoutPath.isEmpty())
            output->setToolTip(output->isEnabled() ? job->stdoutPath : output->toolTip());
        const QString objectKind = connected ? m_session->orchestrator()->jobObjectKind(element.key) : QString();
        QAction *shell = add(QStringLiteral("contextShell"),
                             !objectKind.isEmpty() ? tr("Open shell in %1 %2").arg(objectKind, element.key)
                                                   : tr("Open shell in job %1").arg(element.key),
                             [this, id = element.key, objectKind] {
                                 const SnapshotPtr s = m_view->snapshot();
                                 const Job *j = s ? s->job(id) : nullptr;
                                 if (!j)
                                     return;
                                 // A workload of another kind ("ns/KIND/name") opens in its first pod.
                                 const QString object = id.count(QLatin1Char('/')) == 2
                                                            ? j->pods.value(0).section(QLatin1Char('/'), 1)
                                                            : id.section(QLatin1Char('/'), 1);
                                 openShell(!objectKind.isEmpty()
                                               ? ShellTarget::inKubernetes(id.section(QLatin1Char('/'), 0, 0), objectKind,
                                                                           object)
                                               : ShellTarget::inSlurmJob(id, j->nodes.value(0)));
                             });
        disableIf(shell, !connected, notConnected);
        disableIf(shell, connected && (!job || !job->isRunning()),
                  tr("The job is %1: nothing runs to open a shell in").arg(job ? job->state : tr("gone")));
        QAction *grafana = add(QStringLiteral("contextGrafana"), tr("Open job %1 in Grafana").arg(element.key),
                               [this, id = element.key] { openGrafanaForJob(id); });
        disableIf(grafana, !connected, notConnected);
        disableIf(grafana, connected && m_session->profile().grafanaJobUrl.isEmpty(),
                  tr("Set the profile's Grafana job URL (Prometheus tab) to open dashboards"));
        if (connected && m_session->kubeInspector()) {
            QAction *inspectAction = add(QStringLiteral("contextInspect"), tr("Inspect %1…").arg(element.key),
                                         [this, id = element.key] { inspect(id); });
            disableIf(inspectAction, !job, tr("Not in the last snapshot"));
        }
        menu->addSeparator();
        add(QStringLiteral("contextCopy"), tr("Copy job id"), [copy, id = element.key] { copy(id); });
        if (job && !job->nodes.isEmpty()) {
            const QString hostlist = Hostlist::compress(job->nodes);
            add(QStringLiteral("contextCopyNodes"), tr("Copy node list (%1)").arg(hostlist),
                [copy, hostlist] { copy(hostlist); });
        }
        add(QStringLiteral("contextFilter"), tr("Filter Jobs to %1").arg(element.key),
            [this, element] { m_view->filterTo(element); });
        break;
    }
    case StackElement::Layer::Partition:
    case StackElement::Layer::InstanceType: {
        if (m_burnin) {
            const int count = int(BurninController::nodesFor(snapshot, element, {}).size());
            QAction *burnin = add(QStringLiteral("contextBurnin"), (count == 1 ? tr("Burn-in the node of %1…") : tr("Burn-in the %1 nodes of %2…").arg(count)).arg(element.key),
                                  [this, element] { m_burnin->launch(element); });
            disableIf(burnin, !connected, notConnected);
            disableIf(burnin, connected && count == 0, tr("No node in %1").arg(element.key));
            menu->addSeparator();
        }
        add(QStringLiteral("contextCopy"), tr("Copy name"), [copy, key = element.key] { copy(key); });
        add(QStringLiteral("contextFilter"), tr("Filter Nodes to %1").arg(element.key),
            [this, element] { m_view->filterTo(element); });
        break;
    }
    case StackElement::Layer::Framework: {
        add(QStringLiteral("contextCopy"), tr("Copy name"), [copy, key = element.key] { copy(key); });
        QAction *filter = add(QStringLiteral("contextFilter"), tr("Filter Jobs to %1").arg(element.key),
                              [this, element] { m_view->filterTo(element); });
        disableIf(filter, element.key == WorkloadGroup::unrecognised(),
                  tr("Jobs without a recognised framework have nothing to filter on"));
        break;
    }
    case StackElement::Layer::None:
        break;
    }
    return menu;
}

} // namespace strata
