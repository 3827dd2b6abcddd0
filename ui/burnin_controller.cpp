#include "burnin_controller.h"

#include "cluster_view.h"
#include "dialogs/burnin_dialog.h"
#include "views/burnin_window.h"
#include "views/log_panel.h"
#include "views/node_detail_pane.h"

#include "burnin/burnin_history.h"
#include "burnin/burnin_resume_file.h"
#include "burnin/burnin_transport.h"
#include "burnin/burnin_session.h"
#include "session/cluster_session.h"
#include "slurm/hostlist.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSettings>
#include <QUrl>
#include <QStandardPaths>
#include <QWidget>

namespace strata {

BurninController::BurninController(QWidget *dialogParent, ClusterView *view, LogPanel *log, QObject *parent)
    : QObject(parent), m_parent(dialogParent), m_view(view), m_log(log),
      m_resumePath(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/burnin-running.json"))
{
    setHistoryPath(BurninHistory::defaultPath());
}

void BurninController::setHistoryPath(const QString &path)
{
    m_historyPath = path;
    m_view->nodeDetail()->setBurninHistoryPath(path);
}

void BurninController::setSession(ClusterSession *session)
{
    if (session == m_session)
        return;
    // The windows follow through the old session: stop following; the jobs run on and are
    // re-attached when the window connects to their cluster again.
    for (BurninWindow *w : windows())
        if (!w->isFinished())
            w->close();
    if (m_session)
        disconnect(m_session.data(), nullptr, this, nullptr);
    m_watches.clear();
    m_session = session;
    if (m_session)
        connect(m_session, &ClusterSession::snapshotReady, this, &BurninController::watchJobs);
}

void BurninController::watchJobs(const SnapshotPtr &snapshot)
{
    if (!snapshot)
        return;
    for (auto it = m_watches.begin(); it != m_watches.end();) {
        const std::optional<QString> line = it->update(*snapshot);
        if (line)
            m_log->append(LogPanel::Level::Info, *line);
        const Job *job = snapshot->job(it->jobId());
        // Once it runs (or ended) the burn-in window and the verdict tell the rest.
        const bool settled = job && !job->isPending();
        it = settled ? m_watches.erase(it) : std::next(it);
    }
}

QString BurninController::settingsGroup(const QString &profileName)
{
    // A profile name may hold '/', which QSettings reads as a group.
    return QStringLiteral("burnin/") + QString::fromLatin1(QUrl::toPercentEncoding(profileName));
}

void BurninController::restoreChoices(BurninDialog *dialog) const
{
    QSettings settings;
    settings.beginGroup(settingsGroup(profileName()));
    if (settings.contains(QStringLiteral("tests")))
        dialog->setTests(settings.value(QStringLiteral("tests")).toStringList());
    if (settings.contains(QStringLiteral("durationSeconds")))
        dialog->setDurationSeconds(settings.value(QStringLiteral("durationSeconds")).toInt());
    if (settings.contains(QStringLiteral("backend")))
        dialog->setBackend(settings.value(QStringLiteral("backend")).toString());
}

void BurninController::rememberChoices(const BurninRequest &request) const
{
    QSettings settings;
    settings.beginGroup(settingsGroup(profileName()));
    settings.setValue(QStringLiteral("tests"), request.tests);
    settings.setValue(QStringLiteral("durationSeconds"), request.durationSeconds);
    settings.setValue(QStringLiteral("backend"), request.backend);
}

QString BurninController::profileName() const
{
    return m_session ? m_session->profile().name : QString();
}

QStringList BurninController::nodesFor(const SnapshotPtr &snapshot, const StackElement &element, const QStringList &selected)
{
    switch (element.layer) {
    case StackElement::Layer::Node:
    case StackElement::Layer::Gpu:
        return selected.contains(element.key) ? selected : QStringList{element.key};
    case StackElement::Layer::Partition:
    case StackElement::Layer::InstanceType: {
        QStringList nodes;
        if (!snapshot)
            return nodes;
        for (const Node &n : snapshot->nodes)
            if (element.layer == StackElement::Layer::Partition ? n.partitions.contains(element.key)
                                                                : n.instanceType == element.key)
                nodes << n.name;
        return nodes;
    }
    case StackElement::Layer::Job:
    case StackElement::Layer::Framework:
    case StackElement::Layer::None:
        break;
    }
    return {};
}

QString BurninController::scopeText(const StackElement &element, const QStringList &nodes)
{
    switch (element.layer) {
    case StackElement::Layer::Gpu:
        return tr("%1 (selected from GPU %2; a burn-in takes the whole node)").arg(element.key).arg(element.gpu);
    case StackElement::Layer::Partition:
        return tr("partition %1").arg(element.key);
    case StackElement::Layer::InstanceType:
        return tr("instance type %1").arg(element.key);
    default:
        return Hostlist::compress(nodes);
    }
}

QWidget *BurninController::launchForSelection()
{
    const QStringList nodes = m_view->actionNodes();
    if (!nodes.isEmpty())
        return launch(StackElement::node(nodes.first()), nodes);
    return launch(m_view->selection());
}

QWidget *BurninController::launch(const StackElement &element, const QStringList &selected)
{
    const SnapshotPtr snapshot = m_view->snapshot();
    const QStringList nodes = nodesFor(snapshot, element, selected);
    if (!m_session || nodes.isEmpty())
        return nullptr;
    auto *dialog = new BurninDialog(snapshot, nodes, scopeText(element, nodes), m_parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    restoreChoices(dialog);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const BurninRequest request = dialog->request();
        rememberChoices(request);
        start(request);
    });
    dialog->open();
    return dialog;
}

BurninWindow *BurninController::start(const BurninRequest &request)
{
    return open(request, QString());
}

BurninWindow *BurninController::open(const BurninRequest &given, const QString &attachJobId)
{
    if (!m_session)
        return nullptr;
    BurninRequest request = given;
    const ClusterProfile &profile = m_session->profile();
    const bool kubernetes = profile.orchestrator == OrchestratorKind::Kubernetes;
    request.transport = kubernetes ? BurninTransportKind::Kubernetes : BurninTransportKind::Slurm;
    request.image = profile.burninImage;
    request.namespaceName = profile.kubeNamespace;
    request.agentRemotePath = profile.burninAgentPath;
    request.agentLocalPath = localAgentPath();
    if (request.outputDirectory.isEmpty())
        request.outputDirectory = QStringLiteral(".cache/strata/burnin");
    const QString nodes = Hostlist::compress(request.nodes);
    if (attachJobId.isEmpty() && request.agentLocalPath.isEmpty() && !kubernetes) {
        m_log->append(LogPanel::Level::Error, tr("Burn-in on %1: no local strata-burn to deploy (looked beside strata, in the "
                                                 "build tree and on PATH); install the strata-burn package").arg(nodes));
        return nullptr;
    }
    if (kubernetes && request.image.isEmpty()) {
        m_log->append(LogPanel::Level::Error, tr("Burn-in on %1: a Kubernetes burn-in needs the profile's burn-in image").arg(nodes));
        return nullptr;
    }

    auto *session = new BurninSession(m_session, m_historyPath);
    session->setPollIntervalMs(m_pollIntervalMs);
    auto *window = new BurninWindow(session, request, m_parent);
    m_windows.removeAll(nullptr);
    m_windows << window;
    const QString profileName = this->profileName();
    const QDateTime startedAt = QDateTime::currentDateTimeUtc();
    connect(session, &BurninSession::submitted, this, [this, session, request, profileName, startedAt](const QString &jobId) {
        // Submitted is not running: the next snapshots say whether it waits (and for what) or runs.
        m_log->append(LogPanel::Level::Info, tr("Burn-in job %1 submitted for %2").arg(jobId, Hostlist::compress(request.nodes)));
        m_watches.append(BurninJobWatch(jobId, request.nodes));
        // The request as the transport runs it: its own result directory, absolute paths.
        BurninActiveRun run{profileName, jobId, startedAt,
                            session->transport() ? session->transport()->run().request : request};
        const QString error = BurninResumeFile(m_resumePath).add(run);
        if (!error.isEmpty())
            m_log->append(LogPanel::Level::Error, tr("Burn-in job %1 will not be re-attached after a restart: %2").arg(jobId, error));
    });
    connect(session, &BurninSession::completed, this,
            [this, session, request, profileName](const BurninVerdict &verdict, const QStringList &drained, const QStringList &) {
                BurninResumeFile(m_resumePath).remove(profileName, session->jobId());
                const int failed = int(std::count_if(verdict.gpus.begin(), verdict.gpus.end(),
                                                     [](const BurninGpuVerdict &g) { return !g.passed; }));
                m_log->append(verdict.passed ? LogPanel::Level::Success : LogPanel::Level::Error,
                              verdict.passed ? tr("Burn-in job %1 passed: %2 GPUs").arg(session->jobId()).arg(verdict.gpus.size())
                                             : tr("Burn-in job %1 FAILED: %2 of %3 GPUs%4")
                                                   .arg(session->jobId()).arg(failed).arg(verdict.gpus.size())
                                                   .arg(drained.isEmpty() ? QString() : tr("; drained %1").arg(drained.join(QStringLiteral(", ")))));
                m_view->nodeDetail()->reloadBurninHistory();
                Q_EMIT historyChanged(request.nodes);
            });
    connect(session, &BurninSession::failed, this, [this, session, profileName, nodes](const QString &error) {
        // A job whose launch is unknown stays recorded: it may run, and attaching shows it.
        if (!session->jobId().isEmpty() && !session->outcomeUnknown())
            BurninResumeFile(m_resumePath).remove(profileName, session->jobId());
        m_log->append(LogPanel::Level::Error, tr("Burn-in on %1 failed: %2").arg(nodes, error));
    });
    connect(window, &BurninWindow::detached, this, [this, profileName](const QString &jobId) {
        m_log->append(LogPanel::Level::Info, tr("Stopped following burn-in job %1: it runs on, and is followed again "
                                                "when you connect to %2 (or Actions > Re-attach running burn-ins)")
                                                 .arg(jobId, profileName));
    });
    connect(window, &QObject::destroyed, this, [this] {
        m_windows.removeAll(nullptr);
    });
    Q_EMIT windowOpened(window);
    window->show();
    if (attachJobId.isEmpty()) {
        m_log->append(LogPanel::Level::Info, tr("Starting a burn-in on %1 (%2, %3 s per test, %4 backend)")
                                                 .arg(nodes, request.tests.join(QLatin1Char(',')))
                                                 .arg(request.durationSeconds)
                                                 .arg(request.backend.isEmpty() ? QStringLiteral("default") : request.backend));
        session->start(request);
    } else {
        m_log->append(LogPanel::Level::Info, tr("Re-attaching to burn-in job %1 on %2").arg(attachJobId, nodes));
        session->attach(attachJobId, request);
    }
    return window;
}

int BurninController::reattach()
{
    if (!m_session)
        return 0;
    QVector<BurninActiveRun> runs;
    const QString error = BurninResumeFile(m_resumePath).load(&runs);
    if (!error.isEmpty()) {
        m_log->append(LogPanel::Level::Error, error);
        return 0;
    }
    int attached = 0;
    for (const BurninActiveRun &run : std::as_const(runs)) {
        if (run.profile != profileName())
            continue;
        const bool followed = std::any_of(m_windows.begin(), m_windows.end(), [&](const QPointer<BurninWindow> &w) {
            return w && w->jobId() == run.jobId && !w->isFinished();
        });
        if (followed)
            continue;
        if (BurninWindow *w = open(run.request, run.jobId)) {
            w->setAttachedJob(run.jobId);
            ++attached;
        }
    }
    return attached;
}

QList<BurninWindow *> BurninController::windows() const
{
    QList<BurninWindow *> list;
    for (const QPointer<BurninWindow> &w : m_windows)
        if (w)
            list << w.data();
    return list;
}

QString BurninController::localAgentPath() const
{
    if (!m_agentPath.isEmpty())
        return m_agentPath;
    const QString dir = QCoreApplication::applicationDirPath();
    for (const QString &candidate : {dir + QStringLiteral("/strata-burn"), dir + QStringLiteral("/../burnin/strata-burn")})
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    return QStandardPaths::findExecutable(QStringLiteral("strata-burn"));
}

} // namespace strata
