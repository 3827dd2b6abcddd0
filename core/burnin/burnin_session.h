#pragma once

#include "burnin_event.h"
#include "burnin_node_run.h"
#include "burnin_protocol_parser.h"
#include "burnin_request.h"
#include "burnin_verdict.h"

#include <QMap>
#include <QObject>
#include <QThreadPool>

#include <memory>

namespace strata {

class BurninTransport;
class ClusterSession;

// One burn-in from launch to verdict: runs it through the BurninTransport its request names
// (Slurm, SSH or Kubernetes, made fresh for each run by BurninTransportFactory), parses each node's
// stream as it arrives, judges the run when the job ends, stores it in the history file and,
// when asked, drains the failing nodes with a reason naming GPU, test and figure. A failing
// node that runs another user's job is drained only if the request says the person agreed.
// Lives on the ClusterSession's thread; never blocks.
class BurninSession : public QObject
{
    Q_OBJECT
public:
    BurninSession(ClusterSession *cluster, const QString &historyPath, QObject *parent = nullptr);
    ~BurninSession() override;

    void start(const BurninRequest &request);
    void attach(const QString &jobId, const BurninRequest &request);
    void cancel();
    // Milliseconds between reads of the agents' output files.
    void setPollIntervalMs(int ms);

    const BurninVerdict &verdict() const { return m_run.verdict; }
    const QVector<BurninNodeRun> runs() const;
    QString jobId() const;
    // The transport of the current (or last) run; null before the first start().
    const BurninTransport *transport() const { return m_transport.get(); }
    // After failed(): the launch was sent, its answer lost, and the cluster could not be read back.
    bool outcomeUnknown() const;


Q_SIGNALS:
    void stageChanged(const QString &stage);
    void submitted(const QString &jobId);
    void eventReceived(const QString &node, const strata::BurninEvent &event);
    // The run ended and was judged; drained lists the nodes taken out of service, notDrained
    // says for each failing node left alone why.
    void completed(const strata::BurninVerdict &verdict, const QStringList &drained, const QStringList &notDrained);
    void failed(const QString &error);

private:
    void onLine(const QString &node, const QByteArray &line);
    void onFinished(const QString &jobState);
    void drainFailedNodes();
    void finish();

    // Everything one run holds, replaced whole by start() and attach().
    struct Run
    {
        BurninRequest request;
        QMap<QString, BurninProtocolParser> parsers;
        QMap<QString, BurninNodeRun> nodes;
        BurninVerdict verdict;
        QStringList drained;
        QStringList notDrained;
        int pendingDrains = 0;
        QDateTime startedAt;
    };

    void begin(const BurninRequest &request);

    ClusterSession *m_cluster;
    QString m_historyPath;
    std::unique_ptr<BurninTransport> m_transport;
    int m_pollIntervalMs = 0; // 0: the transport's own
    Run m_run;
    quint64 m_runGeneration = 0; // begin() counts runs: a late verdict of an earlier one is dropped
    // Judges a finished run and writes the history off the caller's thread; its destructor
    // waits for a judgement under way (bounded: no network, one local file).
    QThreadPool m_worker;
};

} // namespace strata
