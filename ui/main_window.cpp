#include "main_window.h"

#include "burnin_controller.h"
#include "fabric/fabric_nodes.h"
#include "fabric/fabric_test_runner.h"
#include "fabric/fabric_transport_factory.h"
#include "model/gpu_catalog.h"
#include "views/fabric_test_window.h"
#include "views/repair_window.h"
#include "views/reports_window.h"
#include "cluster_actions.h"
#include "cluster_view.h"
#include "connection_prompts.h"
#include "dialogs/preferences_dialog.h"
#include "profile_controller.h"
#include "source_health.h"
#include "unit_formatter.h"
#include "views/connections_panel.h"
#include "views/first_run_page.h"
#include "views/job_detail_pane.h"
#include "views/log_panel.h"
#include "views/source_banner.h"
#include "views/table_page.h"

#include "session/cluster_session.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <utility>

namespace strata {

namespace {

// The host a session reaches first, as the window names it while connecting.
QString hostOf(const ClusterProfile &profile)
{
    return profile.sshHost.isEmpty() ? profile.name : profile.sshHost;
}

} // namespace

MainWindow::MainWindow(ProfileStore *profiles, QWidget *parent)
    : QMainWindow(parent), m_view(new ClusterView(this)), m_central(new QStackedWidget(this)), m_banner(new SourceBanner(this)),
      m_connections(new ConnectionsPanel(this)), m_log(new LogPanel(this)),
      m_actions(new ClusterActions(this, m_view, m_log, this)),
      m_profiles(new ProfileController(profiles, this, m_connections, m_log, this)),
      m_prompts(new ConnectionPrompts(this, m_connections, m_log, this)),
      m_burnin(new BurninController(this, m_view, m_log, this)),
      m_statusCluster(new QLabel(this)), m_statusTotals(new QLabel(this)), m_statusTiming(new QLabel(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Strata"));
    // The banner sits over the views, so stale data is never shown without saying so.
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_banner);
    centralLayout->addWidget(m_view, 1);
    m_central->addWidget(central);
    setCentralWidget(m_central);
    connect(m_banner, &SourceBanner::retryRequested, this, &MainWindow::refresh);
    m_actions->setBurnin(m_burnin);
    buildDocks();
    buildActions();
    m_statusCluster->setObjectName(QStringLiteral("statusCluster"));
    m_statusTotals->setObjectName(QStringLiteral("statusTotals"));
    m_statusTiming->setObjectName(QStringLiteral("statusTiming"));
    statusBar()->addPermanentWidget(m_statusCluster);
    statusBar()->addPermanentWidget(m_statusTotals);
    statusBar()->addPermanentWidget(m_statusTiming);

    connect(m_connections, &ConnectionsPanel::addRequested, this, &MainWindow::addProfile);
    connect(m_connections, &ConnectionsPanel::editRequested, this, &MainWindow::editProfile);
    connect(m_connections, &ConnectionsPanel::removeRequested, this, &MainWindow::removeProfile);
    connect(m_connections, &ConnectionsPanel::connectRequested, this, &MainWindow::connectProfile);
    connect(m_connections, &ConnectionsPanel::disconnectRequested, this, &MainWindow::closeSession);
    connect(m_prompts, &ConnectionPrompts::hostKeyRefused, this, [this](const QString &host) {
        closeSession();
        m_connections->setMessage(tr("Refused the host key of %1: not connected.").arg(host));
    });
    connect(m_view, &ClusterView::snapshotApplied, this,
            [this](const SnapshotPtr &, qint64 prepareMs, qint64 applyMs) {
                m_lastPrepareMs = prepareMs;
                m_lastApplyMs = applyMs;
                updateStatus();
            });
    connect(m_actions, &ClusterActions::started, this,
            [this](const QString &what) { statusBar()->showMessage(what, 5000); });
    connect(m_actions, &ClusterActions::runningChanged, this, &MainWindow::updateStatus);
    connect(m_view, &ClusterView::selectionChanged, this, &MainWindow::updateActions);
    connect(m_view->jobDetail(), &JobDetailPane::inspectRequested, m_actions,
            [this](const QString &jobId) { m_actions->inspect(jobId); });
    connect(m_view, &ClusterView::contextMenuRequested, this,
            [this](const StackElement &element, const QStringList &nodes, const QPoint &globalPos) {
                m_actions->contextMenu(element, nodes, this)->popup(globalPos);
            });
    connect(m_view, &ClusterView::selectionChanged, this, [this](const StackElement &element) {
        if (element.isValid())
            m_detailDock->raise();
    });
    auto *ticker = new QTimer(this);
    ticker->setInterval(1000);
    connect(ticker, &QTimer::timeout, this, &MainWindow::updateStatus);
    ticker->start();

    QSettings settings;
    m_preferences = DisplayPreferences::load(settings);
    m_view->setPreferences(m_preferences);
    m_actions->setTerminalCommand(m_preferences.terminalCommand);
    connect(m_profiles, &ProfileController::profilesChanged, this, &MainWindow::updateFirstRun);
    m_profiles->load();
    restoreLayout();
    updateMetricsAvailability();
    updateActions();
    updateStatus();
}

MainWindow::~MainWindow()
{
    delete m_repairWindow.data(); // before the session it works through
    delete m_reportsWindow.data();
    if (m_session)
        m_session->stop();
    // Without an event loop left to run their deleteLater, closed sessions go now.
    for (const QPointer<ClusterSession> &retired : std::as_const(m_retired))
        delete retired.data();
}

int MainWindow::defaultDockWidth() const
{
    // About 40 characters: the node pane's labels and GPU table wrap and elide to it, and at
    // 1280 px the tables keep about three quarters of the width.
    return qBound(260, fontMetrics().averageCharWidth() * 40, 340);
}

QAction *MainWindow::action(const QString &objectName) const
{
    return findChild<QAction *>(objectName);
}

void MainWindow::buildDocks()
{
    m_connectionsDock = new QDockWidget(tr("Clusters"), this);
    m_connectionsDock->setObjectName(QStringLiteral("connectionsDock"));
    m_connectionsDock->setWidget(m_connections);
    addDockWidget(Qt::RightDockWidgetArea, m_connectionsDock);
    m_detailDock = new QDockWidget(tr("Details"), this);
    m_detailDock->setObjectName(QStringLiteral("detailDock"));
    // Scrolled: a node pane (rows, chart, burn-in history) is taller than a 1280x800 screen
    // leaves it, and the dock would otherwise push the whole window past the screen's bottom.
    auto *detailScroll = new QScrollArea;
    detailScroll->setObjectName(QStringLiteral("detailScroll"));
    detailScroll->setWidgetResizable(true);
    detailScroll->setFrameShape(QFrame::NoFrame);
    detailScroll->setWidget(m_view->details());
    m_detailDock->setWidget(detailScroll);
    addDockWidget(Qt::RightDockWidgetArea, m_detailDock);
    // One narrow column for both at 1280x800, so the tables get the width: Clusters in front
    // while connecting (it says how that goes), Details once the cluster has answered (the
    // Clusters tab stays one click away) and whenever something is picked. Both can be
    // dragged apart.
    tabifyDockWidget(m_connectionsDock, m_detailDock);
    m_connectionsDock->raise();
    m_logDock = new QDockWidget(tr("Log"), this);
    m_logDock->setObjectName(QStringLiteral("logDock"));
    m_logDock->setWidget(m_log);
    addDockWidget(Qt::BottomDockWidgetArea, m_logDock);
    resizeDocks({m_detailDock}, {defaultDockWidth()}, Qt::Horizontal);
    resizeDocks({m_logDock}, {110}, Qt::Vertical);
}

void MainWindow::buildActions()
{
    const auto make = [this](const QString &name, const QString &text, const QKeySequence &key,
                             auto slot) {
        auto *a = new QAction(text, this);
        a->setObjectName(name);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    QMenu *file = menuBar()->addMenu(tr("&Cluster"));
    file->addAction(make(QStringLiteral("actionAddProfile"), tr("&Add cluster…"), QKeySequence(tr("Ctrl+Shift+N")),
                         [this] { addProfile(); }));
    file->addAction(make(QStringLiteral("actionEditProfile"), tr("&Edit cluster…"), {},
                         [this] { editProfile(m_connections->selectedProfile()); }));
    file->addAction(make(QStringLiteral("actionConnect"), tr("&Connect"), QKeySequence(tr("Ctrl+Shift+C")),
                         [this] { connectProfile(m_connections->selectedProfile()); }));
    file->addAction(make(QStringLiteral("actionDisconnect"), tr("&Disconnect"), QKeySequence(tr("Ctrl+Shift+D")),
                         [this] { closeSession(); }));
    file->addSeparator();
    file->addAction(make(QStringLiteral("actionPreferences"), tr("&Preferences…"), QKeySequence::Preferences,
                         [this] { showPreferences(); }));
    action(QStringLiteral("actionPreferences"))->setShortcuts({QKeySequence::Preferences, QKeySequence(tr("Ctrl+,"))});
    file->addSeparator();
    file->addAction(make(QStringLiteral("actionQuit"), tr("&Quit"), QKeySequence::Quit, [this] { close(); }));

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(make(QStringLiteral("actionRefresh"), tr("&Refresh now"), QKeySequence(Qt::Key_F5),
                         [this] { refresh(); }));
    view->addAction(make(QStringLiteral("actionFilter"), tr("&Filter…"), QKeySequence::Find,
                         [this] { m_view->focusFilter(); }));
    view->addSeparator();
    const QStringList tabs = {tr("&Overview"), tr("&Heatmap"), tr("&Nodes"), tr("&Jobs"), tr("F&leet map")};
    for (int i = 0; i < tabs.size(); ++i)
        view->addAction(make(QStringLiteral("actionTab%1").arg(i + 1), tabs[i],
                             QKeySequence(tr("Ctrl+%1").arg(i + 1)),
                             [this, i] { m_view->tabs()->setCurrentIndex(i); }));
    view->addAction(make(QStringLiteral("actionKubernetesEvents"), tr("Kubernetes &events…"), {},
                         [this] { m_actions->inspectClusterEvents(); }));
    view->addAction(make(QStringLiteral("actionReports"), tr("GPU-hours &report…"), {}, [this] { openReports(); }));
    view->addSeparator();
    for (QDockWidget *dock : {m_connectionsDock, m_detailDock, m_logDock})
        view->addAction(dock->toggleViewAction());

    QMenu *actions = menuBar()->addMenu(tr("&Actions"));
    actions->addAction(make(QStringLiteral("actionSubmit"), tr("&Submit job…"), QKeySequence::New,
                            [this] { submitJob(); }));
    actions->addAction(make(QStringLiteral("actionCancel"), tr("&Cancel job…"), QKeySequence(tr("Ctrl+K")),
                            [this] { cancelJob(); }));
    actions->addSeparator();
    actions->addAction(make(QStringLiteral("actionDrain"), tr("&Drain nodes…"), QKeySequence(tr("Ctrl+D")),
                            [this] { drainNodes(); }));
    actions->addAction(make(QStringLiteral("actionResume"), tr("&Resume nodes…"), QKeySequence(tr("Ctrl+R")),
                            [this] { resumeNodes(); }));
    actions->addSeparator();
    actions->addAction(make(QStringLiteral("actionBurnin"), tr("&Burn-in…"), QKeySequence(tr("Ctrl+B")),
                            [this] { m_burnin->launchForSelection(); }));
    actions->addAction(make(QStringLiteral("actionBurninReattach"), tr("Re-&attach running burn-ins"), {},
                            [this] { m_burnin->reattach(); }));
    actions->addAction(make(QStringLiteral("actionFabricTest"), tr("&Fabric test…"), {}, [this] { openFabricTest(); }));
    actions->addAction(make(QStringLiteral("actionRepairLoop"), tr("Re&pair loop…"), {}, [this] { openRepairLoop(); }));
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(make(QStringLiteral("actionAbout"), tr("&About Strata"), {}, [this] {
        auto *box = new QMessageBox(QMessageBox::Information, tr("About Strata"),
                                    tr("Strata %1: a console for GPU clusters (Slurm, Kubernetes, "
                                       "Prometheus/DCGM).")
                                        .arg(QStringLiteral(STRATA_VERSION)),
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }));
}

const QVector<ClusterProfile> &MainWindow::profiles() const
{
    return m_profiles->profiles();
}

void MainWindow::updateFirstRun()
{
    const bool wanted = m_profiles->profiles().isEmpty() && !m_session && !m_lastSnapshot;
    if (wanted && !m_firstRun) {
        m_firstRun = new FirstRunPage({}, m_central);
        m_central->addWidget(m_firstRun);
        connect(m_firstRun, &FirstRunPage::profileReady, this, &MainWindow::addCheckedProfile);
    }
    if (m_firstRun) {
        QStringList names;
        for (const ClusterProfile &p : m_profiles->profiles())
            names << p.name;
        m_firstRun->setTakenNames(names);
    }
    m_central->setCurrentIndex(wanted ? 1 : 0);
}

void MainWindow::addCheckedProfile(const ClusterProfile &profile, const ConnectionCheckResult &result)
{
    m_profiles->addChecked(profile, result.scheduler);
    openSession(profile);
}

void MainWindow::addProfile()
{
    m_profiles->addProfile();
}

void MainWindow::editProfile(const QString &name)
{
    m_profiles->editProfile(name);
}

void MainWindow::removeProfile(const QString &name)
{
    m_profiles->removeProfile(name);
}

void MainWindow::connectProfile(const QString &name)
{
    if (const ClusterProfile *p = m_profiles->find(name))
        openSession(*p);
}

void MainWindow::openSession(const ClusterProfile &profile)
{
    closeSession();
    m_connections->setMessage(tr("Connecting to %1 (%2)…").arg(profile.name, profile.sshTarget()));
    m_profiles->withSecrets(profile, [this](const ClusterProfile &withSecrets) { startSession(withSecrets); });
}

void MainWindow::startSession(const ClusterProfile &profile)
{
    adoptSession(std::make_unique<ClusterSession>(profile));
}

void MainWindow::adoptSession(std::unique_ptr<ClusterSession> session)
{
    closeSession();
    m_session = std::move(session);
    updateFirstRun();
    ClusterSession *s = m_session.get();
    m_actions->setSession(s);
    m_burnin->setSession(s);
    connect(s, &ClusterSession::snapshotReady, this, &MainWindow::onSnapshot);
    m_prompts->setSession(s);
    connect(s, &ClusterSession::partialSnapshotReady, this, &MainWindow::onPartialSnapshot);
    connect(s, &ClusterSession::actionFinished, this, &MainWindow::onActionFinished);
    connect(s, &ClusterSession::refreshStarted, this, [this] { m_statusCluster->setText(tr("%1 \u00b7 refreshing…").arg(m_session->profile().name)); });
    if (m_preferences.refreshIntervalSeconds > 0)
        s->setRefreshInterval(m_preferences.refreshIntervalSeconds);
    m_connections->setConnected(s->profile().name);
    m_connections->setSources(displayedSources(nullptr));
    m_connectionsDock->raise();
    m_answered = false;
    if (s->profile().hasPrometheus()) {
        m_ownHistory = s->metricHistory();
        if (!m_historyOverridden)
            m_history = m_ownHistory;
    }
    m_log->append(LogPanel::Level::Info, tr("Connecting to %1 (%2)").arg(s->profile().name, s->profile().sshTarget()));
    m_view->setReach(ClusterView::Reach::Connecting, hostOf(s->profile()));
    setWindowTitle(tr("%1 \u2014 Strata").arg(s->profile().name));
    updateMetricsAvailability();
    s->start();
    m_burnin->reattach(); // the burn-ins this cluster ran when the window last closed
    updateActions();
}

void MainWindow::closeSession()
{
    if (!m_session)
        return;
    const QString name = m_session->profile().name;
    delete m_repairWindow.data(); // its engine works through the session
    delete m_reportsWindow.data(); // it reads through the session
    m_session->stop();
    // Later, not now: this may run inside one of the session's own signals.
    m_actions->setSession(nullptr);
    m_burnin->setSession(nullptr);
    ClusterSession *closing = m_session.release();
    m_retired.removeAll(nullptr);
    m_retired << closing;
    closing->deleteLater();
    m_prompts->setSession(nullptr);
    m_connections->setConnected({});
    m_connections->setMessage(tr("Disconnected from %1.").arg(name));
    m_log->append(LogPanel::Level::Info, tr("Disconnected from %1").arg(name));
    m_view->clear();
    m_view->setReach(ClusterView::Reach::NotConnected);
    m_lastSnapshot.reset();
    updateFirstRun();
    if (!m_historyOverridden)
        m_history = nullptr;
    m_ownHistory = nullptr;
    updateMetricsAvailability();
    setWindowTitle(tr("Strata"));
    updateActions();
    updateStatus();
}

void MainWindow::showSnapshot(const SnapshotPtr &snapshot)
{
    m_lastSnapshot = snapshot;
    updateFirstRun();
    m_view->setSnapshot(snapshot);
    m_connections->setSources(snapshot->sources);
    m_statusCluster->setText(snapshot->clusterName);
    updateActions();
    updateStatus();
}

void MainWindow::setMetricHistory(MetricHistory *history)
{
    m_historyOverridden = history != nullptr;
    m_history = history ? history : m_ownHistory;
    updateMetricsAvailability();
}

void MainWindow::updateMetricsAvailability()
{
    const bool hasPrometheus = m_session && m_session->profile().hasPrometheus();
    QString reason;
    if (!m_session)
        reason = tr("Metrics unavailable: not connected.");
    else if (!hasPrometheus)
        reason = tr("Metrics unavailable: the profile %1 has no Prometheus URL.").arg(m_session->profile().name);
    else
        reason = tr("Metrics unavailable.");
    m_view->setMetricHistory(hasPrometheus ? m_history : nullptr, reason);
}

void MainWindow::onSnapshot(const SnapshotPtr &snapshot)
{
    // The first answer or error ends "connecting" (a partial snapshot is an answer too).
    m_view->setSnapshot(snapshot);
    if (m_session)
        m_view->setReach(ClusterView::Reach::Connected, hostOf(m_session->profile()));
    m_connections->setSources(displayedSources(snapshot));
    const SourceStatus *ssh = snapshot->source(SourceKind::Ssh);
    if (ssh && ssh->ok && m_session && !std::exchange(m_answered, true))
        m_detailDock->raise(); // once per session: a person who looks at Clusters again keeps it
    if (ssh && ssh->ok && m_session) {
        int gpus = 0;
        for (const Node &n : snapshot->nodes)
            gpus += n.gpuCount;
        m_connections->setMessage(tr("Connected to %1: %2 nodes, %3 GPUs.")
                                      .arg(m_session->profile().name)
                                      .arg(snapshot->nodes.size())
                                      .arg(gpus));
    }
    m_prompts->report(snapshot->sources);
    updateStatus();
    updateActions();
}

// The nodes and partitions of the first refresh, painted while its job list is still read.
void MainWindow::onPartialSnapshot(const SnapshotPtr &snapshot)
{
    m_view->setSnapshot(snapshot);
    if (m_session)
        m_view->setReach(ClusterView::Reach::Connected, hostOf(m_session->profile()));
    if (!m_session)
        return;
    int gpus = 0;
    for (const Node &n : snapshot->nodes)
        gpus += n.gpuCount;
    m_connections->setMessage(tr("Connected to %1: %2 nodes, %3 GPUs; reading the job list…")
                                  .arg(m_session->profile().name)
                                  .arg(snapshot->nodes.size())
                                  .arg(gpus));
}

QVector<SourceStatus> MainWindow::displayedSources(const SnapshotPtr &snapshot) const
{
    QVector<SourceStatus> shown = snapshot ? snapshot->sources : QVector<SourceStatus>{};
    if (!m_session)
        return shown;
    // Every source the profile implies gets a row, even before (or without) its first report.
    const auto ensure = [&](SourceKind name, bool configured) {
        for (const SourceStatus &s : shown)
            if (s.source == name)
                return;
        SourceStatus s;
        s.source = name;
        s.configured = configured;
        if (configured && snapshot)
            s.error = tr("no report from this source yet");
        shown << s;
    };
    const ClusterProfile &p = m_session->profile();
    ensure(SourceKind::Ssh, true);
    ensure(sourceKind(p.orchestrator), true);
    ensure(SourceKind::Prometheus, p.hasPrometheus());
    return shown;
}

void MainWindow::refresh()
{
    if (m_session)
        m_session->refreshNow();
}

void MainWindow::onActionFinished(const ActionResult &r)
{
    QString text;
    switch (r.outcome()) {
    case ActionOutcome::Done:
        text = tr("%1 %2: %3").arg(actionKindName(r.action), r.target, r.message);
        break;
    case ActionOutcome::Failed:
        text = tr("%1 %2 failed: %3").arg(actionKindName(r.action), r.target, r.message);
        break;
    case ActionOutcome::Unknown:
        // Sent, answer lost: the session reads the cluster back on its next good refresh and
        // logs the settled result then. Nothing is resent.
        text = tr("%1 %2: %3 - it will be checked against the cluster when it answers again; do not repeat it")
                   .arg(actionKindName(r.action), r.target, r.message);
        break;
    }
    m_log->append(r.ok ? LogPanel::Level::Success
                       : r.outcomeUnknown ? LogPanel::Level::Info : LogPanel::Level::Error, text);
    statusBar()->showMessage(text, 10000);
}

void MainWindow::submitJob()
{
    m_actions->submitJob();
}

void MainWindow::cancelJob()
{
    m_actions->cancelJob();
}

void MainWindow::drainNodes()
{
    m_actions->drainNodes();
}

void MainWindow::resumeNodes()
{
    m_actions->resumeNodes();
}

void MainWindow::showPreferences()
{
    auto *dialog = new PreferencesDialog(m_preferences, this, ClusterActions::defaultTerminalCommand());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { setPreferences(dialog->preferences()); });
    dialog->open();
}

void MainWindow::setPreferences(const DisplayPreferences &preferences)
{
    m_preferences = preferences;
    QSettings settings;
    preferences.save(settings);
    m_view->setPreferences(preferences);
    m_actions->setTerminalCommand(preferences.terminalCommand);
    if (m_session)
        m_session->setRefreshInterval(preferences.refreshIntervalSeconds > 0
                                          ? preferences.refreshIntervalSeconds
                                          : m_session->profile().refreshIntervalSeconds);
}

void MainWindow::updateActions()
{
    const bool connected = m_session != nullptr;
    const bool haveNodes = !m_view->actionNodes().isEmpty();
    action(QStringLiteral("actionDisconnect"))->setEnabled(connected);
    action(QStringLiteral("actionRefresh"))->setEnabled(connected);
    action(QStringLiteral("actionSubmit"))->setEnabled(connected);
    action(QStringLiteral("actionCancel"))->setEnabled(connected && !m_view->actionJob().isEmpty());
    action(QStringLiteral("actionDrain"))->setEnabled(connected && haveNodes);
    action(QStringLiteral("actionResume"))->setEnabled(connected && haveNodes);
    const StackElement::Layer picked = m_view->selection().layer;
    action(QStringLiteral("actionBurnin"))->setEnabled(connected && (haveNodes || picked == StackElement::Layer::Partition
                                                                     || picked == StackElement::Layer::InstanceType));
    action(QStringLiteral("actionBurninReattach"))->setEnabled(connected);
    action(QStringLiteral("actionFabricTest"))->setEnabled(connected && m_view->actionNodes().size() >= 2);
    action(QStringLiteral("actionRepairLoop"))->setEnabled(connected);
    action(QStringLiteral("actionReports"))->setEnabled(connected);
}

FabricTestWindow *MainWindow::openFabricTest()
{
    const QStringList nodes = m_view->actionNodes();
    const SnapshotPtr snapshot = m_view->snapshot();
    if (!m_session || nodes.size() < 2 || !snapshot)
        return nullptr;
    // The floor from the nodes' instance type, the ranks per node from their GPUs.
    FabricRequest request;
    request.nodes = nodes;
    const bool kubernetes = m_session->profile().orchestrator == OrchestratorKind::Kubernetes;
    const FabricNodes found = fabricNodes(*snapshot, nodes, GpuCatalog::builtIn(), m_session->profile().orchestrator);
    request.floorGBps = found.expectation.floorGBps;
    request.gpusPerNode = found.gpusPerNode;
    if (kubernetes) {
        request.tool = FabricToolChoice::TorchProbe;
        request.namespaceName = m_session->profile().kubeNamespace;
        request.image = QStringLiteral("nvcr.io/nvidia/pytorch:24.12-py3"); // as `strata fabric --image`'s default
    }
    auto *window = new FabricTestWindow(new FabricTestRunner(FabricTransportFactory::create(m_session.get())), request, found.expectation.explanation, this);
    window->setFleetHistory(m_burnin->historyPath(), found.instanceType); // the burn-in history file
    if (const QString refusal = fabricNodesRefusal(found); !refusal.isEmpty())
        window->refuseStart(refusal);
    connect(window, &FabricTestWindow::ended, this, [this, window] { m_log->append(LogPanel::Level::Info, tr("Fabric test: %1").arg(window->verdictText())); });
    window->show();
    return window;
}

RepairWindow *MainWindow::openRepairLoop()
{
    if (!m_session)
        return nullptr;
    if (m_repairWindow) {
        m_repairWindow->raise();
        m_repairWindow->activateWindow();
        return m_repairWindow;
    }
    // A child of the window, closed with the session (it works through it).
    m_repairWindow = new RepairWindow(m_session.get(), m_burnin->localAgentPath(), m_burnin->historyPath(), this);
    m_repairWindow->setAttribute(Qt::WA_DeleteOnClose);
    m_repairWindow->show();
    return m_repairWindow;
}

ReportsWindow *MainWindow::openReports()
{
    if (!m_session)
        return nullptr;
    if (m_reportsWindow) {
        m_reportsWindow->raise();
        m_reportsWindow->activateWindow();
        return m_reportsWindow;
    }
    ClusterSession *session = m_session.get();
    m_reportsWindow = new ReportsWindow([session](const HistoryPeriod &period) { return session->readHistory(period); }, this);
    m_reportsWindow->setWindowTitle(tr("GPU-hours report · %1").arg(session->profile().name));
    // Kubernetes records no submitter: its workloads' account (the namespace) is the grouping.
    if (session->profile().orchestrator == OrchestratorKind::Kubernetes)
        m_reportsWindow->chooseGrouping(UsageReport::Grouping::Account);
    m_reportsWindow->setAttribute(Qt::WA_DeleteOnClose);
    m_reportsWindow->show();
    return m_reportsWindow;
}

void MainWindow::updateStatus()
{
    const SnapshotPtr s = m_view->snapshot();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    // Freshness from the sources (each one's last good answer), never from takenAt, which is
    // when the snapshot was merged: a failing Slurm still publishes every interval.
    const SnapshotPtr shown = m_session && m_session->latest() ? m_session->latest() : m_lastSnapshot;
    const QVector<SourceStatus> sources = shown ? shown->sources : QVector<SourceStatus>{};
    m_banner->setSources(sources, now);
    const SourceHealth health = SourceHealth::assess(sources);
    QString freshness;
    if (health.oldestData.isValid()) {
        freshness = tr("data from %1").arg(UnitFormatter::age(health.oldestData, now));
        if (!health.healthy())
            freshness += tr(" (%1 failing)").arg(SourceHealth::displayName(health.failing.first().source));
    }
    if (m_session) {
        const QString name = m_session->profile().name;
        m_statusCluster->setText(!shown ? tr("%1 \u00b7 connecting to %2…").arg(name, hostOf(m_session->profile()))
                                 : freshness.isEmpty() ? tr("%1 \u00b7 no data yet").arg(name)
                                                       : tr("%1 \u00b7 %2").arg(name, freshness));
    } else if (!shown) {
        m_statusCluster->setText(tr("not connected"));
    } else {
        m_statusCluster->setText(freshness.isEmpty() ? shown->clusterName : tr("%1 \u00b7 %2").arg(shown->clusterName, freshness));
    }
    if (s && !s->nodes.isEmpty()) {
        const ClusterSnapshot::Totals &t = m_view->totals();
        const QLocale locale;
        m_statusTotals->setText(tr("GPUs %1 \u00b7 jobs %2").arg(t.gpuSplitText(locale), t.jobSplitText(locale)));
    } else {
        m_statusTotals->clear();
    }
    QString timing = m_lastApplyMs >= 0 ? tr("update: %1 ms worker, %2 ms screen").arg(m_lastPrepareMs).arg(m_lastApplyMs) : QString();
    if (m_actions->running() > 0)
        timing = tr("%n action(s) running", nullptr, m_actions->running()) + (timing.isEmpty() ? QString() : QStringLiteral(" \u00b7 ") + timing);
    m_statusTiming->setText(timing);
}

void MainWindow::saveLayout() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/tab"), m_view->tabs()->currentIndex());
    for (const QSplitter *splitter : findChildren<QSplitter *>())
        if (!splitter->objectName().isEmpty())
            settings.setValue(QStringLiteral("splitters/") + splitter->objectName(), splitter->saveState());
    for (TablePage *page : {m_view->nodesPage(), m_view->jobsPage()})
        settings.setValue(QStringLiteral("tableColumns/") + page->objectName(), page->view()->horizontalHeader()->saveState());
    settings.setValue(QStringLiteral("window/profile"), m_connections->selectedProfile());
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1280, 800);
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_view->tabs()->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
    for (QSplitter *splitter : findChildren<QSplitter *>())
        if (!splitter->objectName().isEmpty())
            splitter->restoreState(settings.value(QStringLiteral("splitters/") + splitter->objectName()).toByteArray());
    for (TablePage *page : {m_view->nodesPage(), m_view->jobsPage()}) {
        // "tableColumns/", not the "tables/" of before: those states hid the state, power and
        // limit columns off-screen at 1280 px, and would keep doing so.
        const QByteArray state = settings.value(QStringLiteral("tableColumns/") + page->objectName()).toByteArray();
        if (!state.isEmpty())
            page->view()->horizontalHeader()->restoreState(state);
    }
    const QString profile = settings.value(QStringLiteral("window/profile")).toString();
    if (!profile.isEmpty())
        m_connections->selectProfile(profile);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveLayout();
    QMainWindow::closeEvent(event);
}

} // namespace strata
