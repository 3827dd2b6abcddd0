#pragma once

#include "burnin_request.h"
#include "burnin_run_state.h"

#include <QObject>
#include <QTimer>

namespace strata {

// How a burn-in reaches its nodes: one interface, one implementation per way of running the
// agent (BurninSlurmTransport: one exclusive sbatch job, srun per node; BurninSshTransport:
// the agent started on each node over SSH through the login node; BurninKubernetesTransport:
// one Job per node that tolerates the cordon). BurninSession, the CLI and the window talk to
// this interface only; BurninTransportFactory picks the implementation for a request.
//
// A transport launches, streams each node's protocol lines as they arrive (lineReceived), and
// says once how the run ended: finished(jobState) or failed(error). Lives on the thread that
// creates it (GUI or CLI main thread); every remote step is a future continued on that
// thread, so nothing blocks. One run at a time; start() forgets the previous one.
class BurninTransport : public QObject
{
    Q_OBJECT
public:
    explicit BurninTransport(QObject *parent = nullptr);
    ~BurninTransport() override;

    virtual BurninTransportKind kind() const = 0;
    void start(const BurninRequest &request);
    // Re-attach to a run already going (after the console was closed), by the id submitted()
    // gave. Transports that cannot follow a run they did not start fail() saying so.
    virtual void attach(const QString &jobId, const BurninRequest &request);
    virtual void cancel() = 0;

    QString jobId() const { return m_run.jobId; }
    // Every scheduler job the burn-in runs as (one per node on Kubernetes, none over SSH): the
    // drain step leaves these out when it looks for other users' work on a failing node.
    virtual QStringList jobIds() const;
    bool isRunning() const { return m_run.running; }
    // After failed(): the launch was sent but its answer was lost and the cluster could not be
    // read back, so whether the burn-in runs is unknown (never relaunched blindly).
    bool outcomeUnknown() const { return m_run.outcomeUnknown; }
    const BurninRunState &run() const { return m_run; }
    void setPollIntervalMs(int ms) { m_pollIntervalMs = ms; }

Q_SIGNALS:
    void stageChanged(const QString &stage);        // "deploying", "submitting", "running", ...
    void submitted(const QString &jobId);
    void lineReceived(const QString &node, const QByteArray &line);
    void finished(const QString &jobState);          // the run ended (COMPLETED, FAILED, ...)
    void failed(const QString &error);               // the burn-in could not run or be followed

protected:
    // Why this transport cannot run the request at all (empty: it can); checked by start()
    // before anything reaches the cluster.
    virtual QString refusal(const BurninRequest &request) const;
    // Called by start() once m_run holds the fresh request.
    virtual void launch() = 0;
    virtual void poll() = 0;

    void fail(const QString &error);
    // Stops following the run without a word (cancel() says how it ended itself).
    void halt();
    void end(const QString &jobState);
    // The launch is done: say so and poll from now on.
    void announceRunning();
    void schedulePoll(int ms = -1);
    // Appends a node's fresh bytes and hands on every complete line.
    void consume(const QString &node, const QByteArray &chunk);
    // The bytes after a node's last newline, handed on as a line when the run ends.
    void flushPartialLines();
    int pollIntervalMs() const { return m_pollIntervalMs; }

    BurninRunState m_run;

private:
    QTimer m_pollTimer;
    int m_pollIntervalMs = 2000;
};

} // namespace strata
