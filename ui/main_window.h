#pragma once

#include "display_preferences.h"
#include "session/cluster_profile.h"

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

namespace strata {

class ClusterActions;
class ClusterSession;
class ClusterView;
class ConnectionsPanel;
class HostKeyDialog;
class LogPanel;
class MetricHistory;
class ProfileStore;
class SecretStore;
class SourceBanner;

// The console window: the cluster list and source status (left dock), the cluster's
// Overview / Heatmap / Nodes / Jobs tabs (centre), the detail pane (right dock) and the log
// (bottom dock). Owns the ClusterSession of the connected cluster; nothing here waits on the
// network: snapshots arrive by signal, actions answer through futures. Remembers its layout
// in QSettings. GUI thread; created by app/.
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

    const QVector<ClusterProfile> &profiles() const { return m_profiles; }
    ClusterView *clusterView() const { return m_view; }
    ConnectionsPanel *connections() const { return m_connections; }
    LogPanel *log() const { return m_log; }
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
    void resumeNodes();
    void showPreferences();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildActions();
    void buildDocks();
    void loadProfiles();
    bool saveProfiles();
    void startSession(const ClusterProfile &profile);
    void onSnapshot(const SnapshotPtr &snapshot);
    void onHostKeyUnknown(const QString &host, const QString &fingerprint);
    void onActionFinished(const ActionResult &result);
    void reportSourceProblems(const SnapshotPtr &snapshot);
    void askPassphrase(const QString &identity);
    void updateStatus();
    void updateActions();
    void updateMetricsAvailability();
    QVector<SourceStatus> displayedSources(const SnapshotPtr &snapshot) const;
    void saveLayout() const;
    void restoreLayout();

    ProfileStore *m_store;
    QVector<ClusterProfile> m_profiles;
    SecretStore *m_secrets;
    std::unique_ptr<ClusterSession> m_session;
    QVector<QPointer<ClusterSession>> m_retired; // closed, awaiting deleteLater
    ClusterView *m_view;
    SourceBanner *m_banner;
    ConnectionsPanel *m_connections;
    LogPanel *m_log;
    ClusterActions *m_actions;
    QDockWidget *m_connectionsDock = nullptr;
    QDockWidget *m_detailDock = nullptr;
    QDockWidget *m_logDock = nullptr;
    QLabel *m_statusCluster;
    QLabel *m_statusTotals;
    QLabel *m_statusTiming;
    QPointer<HostKeyDialog> m_hostKeyDialog;
    QPointer<QWidget> m_passphraseDialog;
    MetricHistory *m_history = nullptr;         // what the panes use
    std::unique_ptr<MetricHistory> m_ownHistory; // the session's Prometheus, when it has one
    bool m_historyOverridden = false;
    DisplayPreferences m_preferences;
    SnapshotPtr m_lastSnapshot; // shown without a session (showSnapshot)
    QHash<QString, QString> m_reportedErrors; // source -> last error logged
    qint64 m_lastPrepareMs = -1;
    qint64 m_lastApplyMs = -1;
};

} // namespace strata
