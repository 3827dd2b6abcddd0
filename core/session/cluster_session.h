#pragma once

#include "profile/cluster_profile.h"
#include "model/cluster_snapshot.h"
#include "model/history_answer.h"
#include "model/job_submission.h"
#include "model/orchestrator_part.h"
#include "model/output_follower.h"
#include "model/login_challenge.h"

#include <QFuture>
#include <QObject>
#include <QVector>
#include <QElapsedTimer>
#include <QTimer>

#include <memory>

namespace strata {

class LoginPrompter;
class OrchestratorSource;
class QueuedLoginPrompter;
class MetricHistory;
class MetricsSource;
struct MetricsPart;
class KubeInspector;
class RemoteShell;
struct SilenceRequest;

// One connected cluster: polls the orchestrator (and Prometheus when the profile has one),
// merges their parts into immutable snapshots, and runs actions. Lives on the thread that
// creates it (the GUI thread in the window, the main thread in the CLI); every source does its
// I/O on its own worker, so nothing here blocks. Owned by whoever shows the cluster.
//
// Polling: one refresh at a time (a tick that finds one running is dropped), exponential
// backoff while the orchestrator fails, interval from the profile. While the login node answers
// and only the scheduler behind it fails, the scheduler is probed once an interval
// (OrchestratorSource::probe: `scontrol ping`) and refreshed as soon as it answers, so its
// return shows within an interval plus a refresh instead of at the end of the backoff. A
// failing source keeps its last good part, marked stale in the snapshot's SourceStatus.
class ClusterSession : public QObject
{
    Q_OBJECT
public:
    // Builds the SSH shell, the orchestrator source and (if configured) the metrics source.
    // Login questions (keyboard-interactive) are emitted as loginQuestion once someone said
    // setAnswersLoginQuestions(true); until then such a login fails (LoginPromptUnavailable).
    explicit ClusterSession(const ClusterProfile &profile, QObject *parent = nullptr);
    // The same with login questions asked by prompter (the CLI's terminal) on the SSH thread.
    ClusterSession(const ClusterProfile &profile, std::shared_ptr<LoginPrompter> prompter, QObject *parent = nullptr);
    // For tests and other transports: the session takes ownership of the sources.
    ClusterSession(const ClusterProfile &profile, std::shared_ptr<RemoteShell> shell,
                   std::unique_ptr<OrchestratorSource> orchestrator, QObject *parent = nullptr);
    ~ClusterSession() override;

    // The profile's scheduler (Slurm, or Kubernetes through kubectl) over shell.
    static std::unique_ptr<OrchestratorSource> makeOrchestrator(const ClusterProfile &profile,
                                                                const std::shared_ptr<RemoteShell> &shell);

    const ClusterProfile &profile() const { return m_profile; }
    SnapshotPtr latest() const { return m_latest; }
    bool isPolling() const { return m_polling; }
    bool isRefreshing() const { return m_refreshing; }
    MetricsSource *metrics() const { return m_metrics.get(); }

    void start();        // first refresh now, then every interval
    void stop();
    void refreshNow();   // ignored while a refresh runs
    void setRefreshInterval(int seconds);

    // After hostKeyUnknown: trust the offered key (written to known_hosts), then reconnect.
    void acceptHostKey(const QString &fingerprint);
    // After an "ssh" SourceStatus of kind PassphraseNeeded: use this passphrase for the
    // identity file (kept in memory for this session only), then reconnect.
    void setPassphrase(const QString &passphrase);
    // Whether someone answers loginQuestion (the window's prompts); see the constructor.
    void setAnswersLoginQuestions(bool answers);
    // The answers to loginQuestion id (one per prompt, in order), or no answer (declined).
    void answerLoginQuestion(int id, const QStringList &answers);
    void declineLoginQuestion(int id);
    // The prompter whose questions come out as loginQuestion (what the SSH shell asks unless
    // the constructor was given another prompter; a test's shell can ask it too).
    std::shared_ptr<LoginPrompter> loginQuestions() const;

    QFuture<ActionResult> submit(const JobSubmission &submission);
    QFuture<ActionResult> cancel(const QString &jobId);
    QFuture<ActionResult> drain(const QStringList &nodes, const QString &reason);
    QFuture<ActionResult> resume(const QStringList &nodes);
    // Alertmanager silences: action "silence" (target: the matchers; the message names the new
    // silence's id) and "expire-silence" (target: the id). Without an
    // Alertmanager in the profile: InvalidRequest. Emits actionFinished and refreshes, so the
    // finding shows the alert silenced (or no longer) on the next snapshot.
    QFuture<ActionResult> createSilence(const SilenceRequest &request);
    QFuture<ActionResult> expireSilence(const QString &silenceId);
    // Reads the cluster back for an action whose outcome was unknown (see ActionOutcome); emits
    // actionFinished with the settled result. The session does this by itself on the first
    // refresh that reaches the cluster again; the CLI, which does not wait for one, asks.
    QFuture<ActionResult> reconcile(const ActionResult &unknown);
    // Actions sent whose outcome is still unknown, oldest first.
    QVector<ActionResult> unknownActions() const { return m_unknownActions; }

    // The jobs of a period with their efficiency: the orchestrator's accounting
    // (OrchestratorSource::readJobRecords), the running jobs of latest() that accounting does
    // not list yet, then their GPUs' usage from the metrics source when the profile has one.
    // Call on this session's thread. The reads and the merge run on the sources' workers and a
    // pool thread, never on this one; the future finishes here. Cancel it to stop (the answer
    // is then dropped). Records not measured say why in their efficiency. Accounting and metrics fail apart: the answer
    // carries each error with its kind (NoAccounting on a cluster without slurmdbd).
    QFuture<HistoryAnswer> readHistory(const HistoryPeriod &period);

    std::shared_ptr<RemoteShell> shell() const { return m_shell; }
    OrchestratorSource *orchestrator() const { return m_orchestrator.get(); }
    // The same source, shared with what may outlive this session by a moment (a burn-in
    // transport deleted later): the Kubernetes burn-in works through it, not a second source.
    std::shared_ptr<OrchestratorSource> sharedOrchestrator() const { return m_orchestrator; }

    // What the window needs of the cluster beyond snapshots and actions, offered by the sources
    // so that it never holds a shell or an HTTP client of its own:
    // a job's output followed as it grows (OrchestratorSource::followOutput: not started, the
    // caller owns it; nullptr where the job has nothing to follow);
    std::unique_ptr<OutputFollower> followOutput(const Job &job) const;
    // a metric's history over a time range (MetricsSource::history, owned by this session);
    // nullptr without a Prometheus URL in the profile.
    MetricHistory *metricHistory() const;
    // a Kubernetes object's YAML, its events, a container's log and port-forwards
    // (KubernetesSource::inspector); nullptr for a Slurm cluster.
    KubeInspector *kubeInspector() const;

Q_SIGNALS:
    void snapshotReady(strata::SnapshotPtr snapshot);
    // Before the first good snapshot only: what the orchestrator has read so far (its nodes and
    // partitions; no jobs yet, which means "not read yet", never "none"), so a window can paint.
    // Followed by snapshotReady for the same refresh, never after it (a whole snapshot merged
    // first waits for it). latest() stays the last whole snapshot.
    void partialSnapshotReady(strata::SnapshotPtr snapshot);
    void refreshStarted();
    // The host is not in known_hosts: ask the person (fingerprint is "SHA256:...").
    void hostKeyUnknown(const QString &host, const QString &fingerprint);
    // The login asks the person (a one-time code, a PAM password): answer with
    // answerLoginQuestion or declineLoginQuestion. The SSH thread waits; the GUI does not.
    void loginQuestion(int id, const strata::LoginChallenge &challenge);
    void actionFinished(const strata::ActionResult &result);

public:
    // While polling, a source whose watches saw a change (Kubernetes) is refreshed this soon
    // after its last refresh began instead of at the interval, and looked at this often.
    static constexpr int kChangeRefreshGapMs = 1500;
    static constexpr int kChangeCheckMs = 250;

private:
    void onTimer();
    void onChangeCheck();
    void onProbeTimer();
    void finishRefresh(const OrchestratorPart &part);
    void finishEarly(const OrchestratorPart &part);
    void finishMetrics(const MetricsPart &part);
    void partDone();
    // The error text for a pool task of this session that threw (logged at critical).
    QString taskFailure(const QString &what, const QString &why) const;
    QFuture<ActionResult> watchAction(const QFuture<ActionResult> &future);
    static QFuture<ActionResult> noAlertmanager(ActionResult result);
    void reconcileUnknownActions();
    void forgetUnknown(const ActionResult &settled);

    void emitLoginQuestionsOf(const std::shared_ptr<QueuedLoginPrompter> &questions);
    void publish();
    void finishPublish(const SnapshotPtr &snapshot);
    SourceStatus &status(SourceKind source);

    ClusterProfile m_profile;
    std::shared_ptr<QueuedLoginPrompter> m_loginQuestions; // never null
    std::shared_ptr<RemoteShell> m_shell;
    std::shared_ptr<OrchestratorSource> m_orchestrator;
    SnapshotPtr m_latest;
    QTimer m_timer;
    QTimer m_changeCheck;           // while polling: hasChangesWaiting() looked at
    QTimer m_probeTimer;            // while the scheduler alone fails: probe() once an interval
    bool m_probing = false;
    QElapsedTimer m_sinceRefreshStart;
    bool m_refreshing = false;
    bool m_polling = false;
    bool m_refreshQueued = false;
    int m_failures = 0;
    std::unique_ptr<MetricsSource> m_metrics;
    std::shared_ptr<const MetricsPart> m_lastGoodMetrics;
    // The metrics refresh under way was asked without running jobs (the first of a session):
    // once the scheduler has answered, the usage history of its running jobs is read too.
    bool m_metricsKnewNoJobs = false;
    std::shared_ptr<const MetricsPart> m_usageFollowUp; // joined into the metrics at publish
    int m_partsPending = 0;
    bool m_partialMerging = false; // a partial snapshot is being merged: the whole one waits for it
    SnapshotPtr m_heldWhole;
    OrchestratorPart m_lastGoodPart;
    bool m_haveGoodPart = false;
    QVector<SourceStatus> m_statuses;
    QString m_announcedFingerprint; // hostKeyUnknown is emitted once per offered key
    QVector<ActionResult> m_unknownActions;
    int m_reconcilesRunning = 0;
};

} // namespace strata
