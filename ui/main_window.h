#pragma once

#include "display_preferences.h"
#include "profile/cluster_profile.h"

#include "model/cluster_snapshot.h"
#include "model/job_submission.h"

#include <QFuture>
#include <QHash>
#include <QMainWindow>
#include <QPointer>
#include <QVector>

#include <memory>

class QDockWidget;
class QLabel;
class QStackedWidget;

namespace strata {

class BurninController;
class ClusterActions;
class ClusterSession;
class ClusterView;
class ConnectionPrompts;
class ConnectionsPanel;
class FabricTestWindow;
class RepairWindow;
class ReportsWindow;
struct ConnectionCheckResult;
class FirstRunPage;
class LogPanel;
class MetricHistory;
class ProfileController;
class ProfileStore;
class SourceBanner;

// The console window: the cluster list and source status (right dock), the cluster's
// Overview / Heatmap / Nodes / Jobs / Fleet tabs (centre), the detail pane (right dock) and the
// log (bottom dock). Owns the ClusterSession of the connected cluster; the profiles are edited
// by its ProfileController, the connection's questions asked by its ConnectionPrompts, the
// actions run by its ClusterActions. Nothing here waits on the network: snapshots arrive by
// signal, actions answer through futures. Remembers its layout in QSettings. GUI thread;
// created by app/.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(ProfileStore *profiles, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Connects to the cluster (reading its secrets from the keyring first).
    void openSession(const ClusterProfile &profile);
    // Takes over a session built elsewhere (tests, other transports) and starts it.
    void adoptSession(std::unique_ptr<ClusterSession> session);
    void closeSession();
    ClusterSession *session() const { return m_session.get(); }
    // Shows a snapshot without a session (benchmarks, screenshots of synthetic clusters).
    void showSnapshot(const SnapshotPtr &snapshot);
    // Where the detail panes get time series from, instead of the session's Prometheus
    // (tests); null: back to the session's.
    void setMetricHistory(MetricHistory *history);

    const QVector<ClusterProfile> &profiles() const;
    ClusterView *clusterView() const { return m_view; }
    ConnectionsPanel *connections() const { return m_connections; }
    LogPanel *log() const { return m_log; }
    ClusterActions *actions() const { return m_actions; }
    // Shown instead of the cluster views while there is no profile, no session and no snapshot.
    FirstRunPage *firstRunPage() const { return m_firstRun; }
    BurninController *burnin() const { return m_burnin; }
    SourceBanner *sourceBanner() const { return m_banner; }
    QAction *action(const QString &objectName) const;
    const DisplayPreferences &preferences() const { return m_preferences; }
    void setPreferences(const DisplayPreferences &preferences);

    // The actions, as the menus and shortcuts run them (each asks for confirmation first).
    void refresh();
    void addProfile();
    void editProfile(const QString &name);
    void removeProfile(const QString &name);
    void connectProfile(const QString &name);
    void submitJob();
    void cancelJob();
    void drainNodes();
    // Fabric test on the picked nodes (at least two): a FabricTestWindow, not yet started.
    FabricTestWindow *openFabricTest();
    // The repair loop's window on the connected cluster (one per session; raised if open).
    RepairWindow *openRepairLoop();
    // GPU-hours over a period on the connected cluster (one per session; raised if open).
    ReportsWindow *openReports();
    void resumeNodes();
    void showPreferences();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildActions();
    void buildDocks();
    void startSession(const ClusterProfile &profile);
    void onSnapshot(const SnapshotPtr &snapshot);
    void onPartialSnapshot(const SnapshotPtr &snapshot);
    void onActionFinished(const ActionResult &result);
    void updateStatus();
    void updateActions();
    void updateMetricsAvailability();
    QVector<SourceStatus> displayedSources(const SnapshotPtr &snapshot) const;
    void saveLayout() const;
    int defaultDockWidth() const;
    void restoreLayout();
    void updateFirstRun();
    void addCheckedProfile(const ClusterProfile &profile, const ConnectionCheckResult &result);

    std::unique_ptr<ClusterSession> m_session;
    QPointer<RepairWindow> m_repairWindow; // works through m_session: goes before it
    QPointer<ReportsWindow> m_reportsWindow; // reads through m_session: goes before it
    QVector<QPointer<ClusterSession>> m_retired; // closed, awaiting deleteLater
    ClusterView *m_view;
    QStackedWidget *m_central;
    FirstRunPage *m_firstRun = nullptr;
    SourceBanner *m_banner;
    ConnectionsPanel *m_connections;
    LogPanel *m_log;
    ClusterActions *m_actions;
    ProfileController *m_profiles;
    ConnectionPrompts *m_prompts;
    BurninController *m_burnin;
    QDockWidget *m_connectionsDock = nullptr;
    QDockWidget *m_detailDock = nullptr;
    QDockWidget *m_logDock = nullptr;
    QLabel *m_statusCluster;
    QLabel *m_statusTotals;
    QLabel *m_statusTiming;
    MetricHistory *m_history = nullptr;         // what the panes use
    MetricHistory *m_ownHistory = nullptr;      // the session's (ClusterSession::metricHistory), when it has one
    bool m_historyOverridden = false;
    bool m_answered = false; // the session's cluster has answered once (Details came to the front)
    DisplayPreferences m_preferences;
    SnapshotPtr m_lastSnapshot; // shown without a session (showSnapshot)
    qint64 m_lastPrepareMs = -1;
    qint64 m_lastApplyMs = -1;
};

} // namespace strata
