// ClusterSession::readHistory and HistoryMerge: accounting's records, the running jobs of the
// latest snapshot that accounting does not list yet, the GPU indices and framework the snapshot
// knows for running jobs, the instance type of each record's nodes; accounting and metrics fail
// apart (NoAccounting still shows the running jobs; no Prometheus: every record says why); a
// cancelled read finishes without an answer.
#include "offline_remote_shell.h"
#include "session/cluster_session.h"
#include "session/history_merge.h"
#include "synthetic_orchestrator.h"

#include <QPromise>
#include <QSignalSpy>
#include <QTest>

using namespace strata;

namespace {

QDateTime at(int day, int hour)
{
    return QDateTime(QDate(2026, 12, day), QTime(hour, 0), Qt::UTC);
}

const HistoryPeriod kWeek{at(1, 0), at(8, 0)};

JobRecord finished(const QString &id, int gpus)
{
    JobRecord r;
    r.id = id;
    r.user = QStringLiteral("alice");
    r.state = JobState::Completed;
    r.stateWord = QStringLiteral("COMPLETED");
    r.started = at(2, 0);
    r.ended = at(2, 4);
    r.nodes = {QStringLiteral("gpu-node01")};
    r.gpus = gpus;
    return r;
}

Job running(const QString &id, const QString &node, QVector<int> indices, int startDay)
{
    Job j;
    j.id = id;
    j.name = QStringLiteral("train ") + id;
    j.user = QStringLiteral("bob");
    j.partition = QStringLiteral("gpu");
    j.setState(QStringLiteral("RUNNING"));
    j.nodes = {node};
    j.gpus.insert(node, indices);
    j.submitTime = at(startDay, 0).toSecsSinceEpoch();
    j.startTime = at(startDay, 1).toSecsSinceEpoch();
    j.framework = QStringLiteral("torch.distributed");
    return j;
}

ClusterSnapshot cluster()
{
    ClusterSnapshot s;
    s.clusterName = QStringLiteral("history");
    for (const char *name : {"gpu-node01", "gpu-node02"}) {
        Node n;
        n.name = QString::fromLatin1(name);
        n.instanceType = QStringLiteral("p5.48xlarge");
        s.nodes << n;
    }
    s.jobs << running(QStringLiteral("10"), QStringLiteral("gpu-node01"), {0, 1}, 6)  // accounting lists it
           << running(QStringLiteral("11"), QStringLiteral("gpu-node02"), {4}, 7);    // accounting does not yet
    s.finalize();
    return s;
}

// A synthetic cluster whose accounting answers as scripted, or never (held).
class HistoryOrchestrator : public SyntheticOrchestrator
{
public:
    HistoryOrchestrator(ClusterSnapshot state, AccountingAnswer answer, bool hold = false)
        : SyntheticOrchestrator(std::move(state)), m_answer(std::move(answer)), m_hold(hold)
    {
    }
    QFuture<AccountingAnswer> readJobRecords(const HistoryPeriod &period) override
    {
        m_period = period;
        if (m_hold) {
            m_held.start();
            return m_held.future();
        }
        return QtFuture::makeReadyFuture(m_answer);
    }
    HistoryPeriod m_period;
    QPromise<AccountingAnswer> m_held;

private:
    AccountingAnswer m_answer;
    bool m_hold;
};

ClusterProfile profile()
{
    ClusterProfile p;
    p.name = QStringLiteral("history");
    p.sshHost = QStringLiteral("127.0.0.1");
    return p;
}

AccountingAnswer accountingOf(QVector<JobRecord> records)
{
    AccountingAnswer a;
    a.records = std::move(records);
    a.command = QStringLiteral("sacct ...");
    a.bytes = 1234;
    a.skippedRows = 1;
    a.warnings = {QStringLiteral("job 7: claims 2147483648 GPUs on 1 node(s)")};
    return a;
}

JobRecord running10InAccounting()
{
    JobRecord r = finished(QStringLiteral("10"), 2);
    r.state = JobState::Running;
    r.ended = QDateTime();
    r.nodes = {QStringLiteral("gpu-node01")};
    return r;
}

} // namespace

class TestReadHistory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void mergeAddsWhatAccountingLacks();
    void mergeWithoutSnapshot();
    void mergeMatchesKubernetesWorkloadsByPods();
    void readHistoryWithAccounting();
    void readHistoryWithoutAccounting();
    void cancelledRead();
};

void TestReadHistory::mergeAddsWhatAccountingLacks()
{
    const ClusterSnapshot s = cluster();
    JobRecord ended = finished(QStringLiteral("11"), 1); // accounting already saw 11 end: kept as it says
    ended.nodes = {QStringLiteral("gpu-node02")};
    const QVector<JobRecord> merged = HistoryMerge::merge({finished(QStringLiteral("9"), 4), running10InAccounting()}, &s, kWeek);
    QCOMPARE(merged.size(), 3);
    QCOMPARE(merged[0].id, QStringLiteral("9"));
    QCOMPARE(merged[0].gpuIndicesByNode.size(), 0);
    QCOMPARE(merged[0].instanceType, QStringLiteral("p5.48xlarge"));
    QCOMPARE(merged[1].id, QStringLiteral("10"));
    QCOMPARE(merged[1].gpuIndicesByNode.value(QStringLiteral("gpu-node01")), (QVector<int>{0, 1}));
    QCOMPARE(merged[1].framework, QStringLiteral("torch.distributed"));
    QCOMPARE(merged[2].id, QStringLiteral("11"));
    QCOMPARE(merged[2].name, QStringLiteral("train 11"));
    QCOMPARE(merged[2].state, JobState::Running);
    QCOMPARE(merged[2].gpus, 1);
    QCOMPARE(merged[2].started, at(7, 1));
    QVERIFY(!merged[2].ended.isValid());
    QCOMPARE(merged[2].gpuIndicesByNode.value(QStringLiteral("gpu-node02")), (QVector<int>{4}));

    const QVector<JobRecord> withEnded = HistoryMerge::merge({ended}, &s, kWeek);
    QCOMPARE(withEnded.size(), 2); // 11 as accounting says (ended), 10 from the snapshot
    QCOMPARE(withEnded[0].id, QStringLiteral("11"));
    QCOMPARE(withEnded[0].ended, at(2, 4));
    QCOMPARE(withEnded[0].gpuIndicesByNode.size(), 0);
    QCOMPARE(withEnded[1].id, QStringLiteral("10"));

    // A period that ended before the running jobs started holds none of them.
    const QVector<JobRecord> before = HistoryMerge::merge({}, &s, HistoryPeriod{at(1, 0), at(2, 0)});
    QCOMPARE(before.size(), 0);
}

void TestReadHistory::mergeWithoutSnapshot()
{
    const QVector<JobRecord> merged = HistoryMerge::merge({finished(QStringLiteral("9"), 4)}, nullptr, kWeek);
    QCOMPARE(merged.size(), 1);
    QCOMPARE(merged[0].instanceType, QString());
}

// kube-state-metrics follows no owner above a JobSet: a running TrainJob's record from it is
// "ml/JobSet/llama". The live view, which lists TrainJobs, names the same pods "ml/TrainJob/llama":
// one workload, counted once, under the live name. A finished record is left as it is.
void TestReadHistory::mergeMatchesKubernetesWorkloadsByPods()
{
    ClusterSnapshot s;
    Job live = running(QStringLiteral("ml/TrainJob/llama"), QStringLiteral("kube-gpu-01"), {}, 6);
    live.name = QStringLiteral("llama");
    live.gpus.clear();
    live.gpusRequested = 8;
    live.pods = {QStringLiteral("ml/llama-node-0-0-abcde"), QStringLiteral("ml/llama-node-0-1-fghij")};
    Job other = running(QStringLiteral("ml/TrainJob/gemma"), QStringLiteral("kube-gpu-02"), {}, 6);
    other.gpus.clear();
    other.gpusRequested = 4;
    other.pods = {QStringLiteral("ml/gemma-node-0-0-zzzzz")};
    s.jobs << live << other;
    s.finalize();

    JobRecord fromKsm;
    fromKsm.id = QStringLiteral("ml/JobSet/llama");
    fromKsm.name = QStringLiteral("llama");
    fromKsm.account = QStringLiteral("ml");
    fromKsm.state = JobState::Running;
    fromKsm.started = at(6, 1);
    fromKsm.gpus = 8;
    for (const QString &key : live.pods)
        fromKsm.pods << PodSpan{key, QStringLiteral("kube-gpu-01"), 4, at(6, 1), QDateTime()};
    JobRecord finishedKsm = fromKsm;
    finishedKsm.id = QStringLiteral("ml/JobSet/gemma");
    finishedKsm.name = QStringLiteral("gemma");
    finishedKsm.ended = at(6, 3);
    finishedKsm.pods = {PodSpan{other.pods[0], QStringLiteral("kube-gpu-02"), 4, at(6, 1), at(6, 3)}};

    const QVector<JobRecord> merged = HistoryMerge::merge({fromKsm, finishedKsm}, &s, kWeek);
    QCOMPARE(merged.size(), 3);
    QCOMPARE(merged[0].id, QStringLiteral("ml/TrainJob/llama")); // the live name, once
    QCOMPARE(merged[0].pods.size(), 2);
    QCOMPARE(merged[0].gpuHours(kWeek), 8.0 * 47.0); // the pods' own spans, to the week's end
    QCOMPARE(merged[0].framework, QStringLiteral("torch.distributed"));
    QCOMPARE(merged[1].id, QStringLiteral("ml/JobSet/gemma")); // ended: as kube-state-metrics says
    QCOMPARE(merged[2].id, QStringLiteral("ml/TrainJob/gemma")); // running again now: added from the view
}

void TestReadHistory::readHistoryWithAccounting()
{
    auto *orchestrator = new HistoryOrchestrator(cluster(), accountingOf({finished(QStringLiteral("9"), 4), running10InAccounting()}));
    ClusterSession session(profile(), std::make_shared<OfflineRemoteShell>(), std::unique_ptr<OrchestratorSource>(orchestrator));
    QSignalSpy ready(&session, &ClusterSession::snapshotReady);
    session.refreshNow();
    QVERIFY(ready.wait(5000));

    QFuture<HistoryAnswer> future = session.readHistory(kWeek);
    QTRY_VERIFY_WITH_TIMEOUT(future.isFinished(), 5000);
    QCOMPARE(future.resultCount(), 1);
    const HistoryAnswer a = future.result();
    QCOMPARE(orchestrator->m_period.start, kWeek.start);
    QCOMPARE(a.period.end, kWeek.end);
    QCOMPARE(a.accountingError, QString());
    QCOMPARE(a.accountingErrorKind, ErrorKind::None);
    QCOMPARE(a.skippedRows, 1);
    QCOMPARE(a.warnings, QStringList{QStringLiteral("job 7: claims 2147483648 GPUs on 1 node(s)")});
    QCOMPARE(a.accountingBytes, qint64(1234));
    QCOMPARE(a.accountingCommand, QStringLiteral("sacct ..."));
    QCOMPARE(a.records.size(), 3);
    QCOMPARE(a.records[2].id, QStringLiteral("11"));
    QCOMPARE(a.records[1].gpuIndicesByNode.value(QStringLiteral("gpu-node01")), (QVector<int>{0, 1}));
    // No Prometheus in the profile: said once for the read and on every record.
    QCOMPARE(a.metricsErrorKind, ErrorKind::SourceUnsupported);
    QCOMPARE(a.metricsError, QStringLiteral("no Prometheus in the profile: GPU usage not read"));
    for (const JobRecord &r : a.records) {
        QCOMPARE(r.efficiency.basis, JobEfficiency::Basis::None);
        QCOMPARE(r.efficiency.why, QStringLiteral("metrics not read: no Prometheus in the profile"));
    }
    QVERIFY(a.totalMs >= 0);
}

void TestReadHistory::readHistoryWithoutAccounting()
{
    AccountingAnswer none;
    none.error = QStringLiteral("no slurmdbd: job accounting is not configured on this cluster");
    none.errorKind = ErrorKind::NoAccounting;
    auto *orchestrator = new HistoryOrchestrator(cluster(), none);
    ClusterSession session(profile(), std::make_shared<OfflineRemoteShell>(), std::unique_ptr<OrchestratorSource>(orchestrator));
    // Before any refresh: nothing running is known either.
    QFuture<HistoryAnswer> early = session.readHistory(kWeek);
    QTRY_VERIFY_WITH_TIMEOUT(early.isFinished(), 5000);
    QCOMPARE(early.result().accountingErrorKind, ErrorKind::NoAccounting);
    QCOMPARE(early.result().records.size(), 0);

    QSignalSpy ready(&session, &ClusterSession::snapshotReady);
    session.refreshNow();
    QVERIFY(ready.wait(5000));
    QFuture<HistoryAnswer> future = session.readHistory(kWeek);
    QTRY_VERIFY_WITH_TIMEOUT(future.isFinished(), 5000);
    const HistoryAnswer a = future.result();
    QCOMPARE(a.accountingErrorKind, ErrorKind::NoAccounting);
    QVERIFY(a.accountingError.startsWith(QLatin1String("no slurmdbd")));
    // The jobs running now are still shown.
    QCOMPARE(a.records.size(), 2);
    QCOMPARE(a.records[0].id, QStringLiteral("10"));
    QCOMPARE(a.records[1].id, QStringLiteral("11"));
}

void TestReadHistory::cancelledRead()
{
    auto *orchestrator = new HistoryOrchestrator(cluster(), AccountingAnswer{}, true);
    ClusterSession session(profile(), std::make_shared<OfflineRemoteShell>(), std::unique_ptr<OrchestratorSource>(orchestrator));
    QFuture<HistoryAnswer> future = session.readHistory(kWeek);
    QTest::qWait(50);
    QVERIFY(!future.isFinished());
    future.cancel();
    // The accounting read under way is cancelled with it, and the answer finishes without a result.
    QTRY_VERIFY_WITH_TIMEOUT(orchestrator->m_held.isCanceled(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(future.isFinished(), 5000);
    QCOMPARE(future.resultCount(), 0);
    orchestrator->m_held.finish();
}

QTEST_MAIN(TestReadHistory)
#include "tst_read_history.moc"
