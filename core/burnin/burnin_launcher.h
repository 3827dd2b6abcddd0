#pragma once

#include "burnin_request.h"
#include "model/job_submission.h"

#include <QByteArray>
#include <QMap>
#include <QObject>
#include <QDateTime>
#include <QSet>
#include <QTimer>

#include <functional>
#include <memory>

namespace strata {

class KubernetesSource;
class RemoteShell;

// Runs one burn-in on a cluster: deploys strata-burn over SFTP when the remote copy is
// missing or differs (SHA-256), submits it through Slurm (or starts it directly on the SSH
// host), then polls the per-node JSON-lines files and hands every complete line to the caller
// as it arrives. Also re-attaches to a burn-in that is already running, by job id.
//
// Lives on the thread that creates it (GUI or CLI main thread). Every remote step is a future
// from the RemoteShell, continued on this object's thread: nothing here blocks.
class BurninLauncher : public QObject
{
    Q_OBJECT
public:
    BurninLauncher(std::shared_ptr<RemoteShell> shell, QObject *parent = nullptr);
    // Kubernetes clusters: Jobs are created and logs read through this source.
    void setKubernetes(KubernetesSource *kubernetes) { m_kubernetes = kubernetes; }
    // After failed(): the launch was sent but its answer was lost and the cluster could not be
    // read back, so whether the burn-in job exists is unknown (never relaunched blindly).
    bool outcomeUnknown() const { return m_outcomeUnknown; }

    void start(const BurninRequest &request);
    // Re-attach: the job runs already; nodes and output directory as it was launched with.
    void attach(const QString &jobId, const BurninRequest &request);
    void cancel();

    QString jobId() const { return m_jobId; }
    // Every job the burn-in runs as (one per node on Kubernetes).
    QStringList jobIds() const;
    bool isRunning() const { return m_running; }
    void setPollIntervalMs(int ms) { m_pollIntervalMs = ms; }

    // The remote agent's path for a request that names none: in the login user's home, per
    // version and content, so a different build never overwrites one in use.
    static QString defaultRemoteAgentPath(const QByteArray &agentSha256);

Q_SIGNALS:
    void stageChanged(const QString &stage);        // "deploying", "submitting", "running", ...
    void submitted(const QString &jobId);
    void lineReceived(const QString &node, const QByteArray &line);
    void finished(const QString &jobState);          // the job ended (COMPLETED, FAILED, ...)
    void failed(const QString &error);               // the burn-in could not run or be followed

private:
    void deploy();
    void adoptJob(const QString &jobId);
    void onKubeJobCreated(const QString &node, const std::shared_ptr<int> &remaining, const ActionResult &r, bool readBack);
    // sbatch was sent and its answer lost: look for the job by its comment (a few tries).
    void findLaunchedJob(const QString &lostError, int attempt);
    void submit();
    void submitKubernetes(int gpus);
    void pollKubernetes();
    void poll();
    void handlePollOutput(const QByteArray &output);
    void fail(const QString &error);

    std::shared_ptr<RemoteShell> m_shell;
    BurninRequest m_request;
    QString m_jobId;
    QMap<QString, qint64> m_offsets;            // node -> bytes consumed
    QMap<QString, QByteArray> m_partialLines;   // node -> bytes after the last newline
    QTimer m_pollTimer;
    int m_pollIntervalMs = 2000;
    bool m_running = false;
    bool m_polling = false;
    int m_pollsAfterEnd = 0;
    QString m_endState;
    QString m_directPid;
    QString m_pendingReason;
    KubernetesSource *m_kubernetes = nullptr;
    bool m_outcomeUnknown = false;
    QMap<QString, QString> m_kubeJobs;      // node -> "namespace/job"
    QSet<QString> m_nodesDone;              // nodes whose agent wrote its summary
    QDateTime m_deadline;
    int m_pollCount = 0;
    bool m_kubeJobsEnded = false;
};

} // namespace strata
