// ClusterSession's merge of an orchestrator part into a snapshot: a part whose source detected
// the workloads itself (SlurmSource does, on its pool) is taken as it is, its jobs and nodes
// shared with the part the session keeps (no copy of 50,000 jobs per refresh, docs/PERF.md), with
// the source's findings; a part without (the Kubernetes source) is detected in the merge. Either
// way the snapshot says the same.
#include "model/cluster_snapshot.h"
#include "model/orchestrator_source.h"
#include "model/workload_detector.h"
#include "offline_remote_shell.h"
#include "session/cluster_session.h"

#include <QSignalSpy>
#include <QTest>

using namespace strata;

namespace {

class FixedOrchestrator : public OrchestratorSource
{
public:
    explicit FixedOrchestrator(OrchestratorPart part) : m_part(std::move(part)) {}
    OrchestratorKind kind() const override { return OrchestratorKind::Slurm; }
    QFuture<OrchestratorPart> refresh() override { return QtFuture::makeReadyFuture(m_part); }
    QFuture<ActionResult> submit(const JobSubmission &) override { return QtFuture::makeReadyFuture(ActionResult{}); }
    QFuture<ActionResult> cancel(const QString &) override { return QtFuture::makeReadyFuture(ActionResult{}); }
    QFuture<ActionResult> drain(const QStringList &, const QString &) override { return QtFuture::makeReadyFuture(ActionResult{}); }
    QFuture<ActionResult> resume(const QStringList &) override { return QtFuture::makeReadyFuture(ActionResult{}); }
    QFuture<ActionResult> reconcile(const ActionResult &r) override { return QtFuture::makeReadyFuture(r); }

private:
    OrchestratorPart m_part;
};

OrchestratorPart partWithJobs()
{
    OrchestratorPart part;
    Node n;
    n.name = QStringLiteral("gpu-node01");
    n.gpuCount = 8;
    part.nodes << n;
    Job serving;
    serving.id = QStringLiteral("1");
    serving.name = QStringLiteral("llama-serve");
    serving.setState(QStringLiteral("RUNNING"));
    serving.command = QStringLiteral("vllm serve meta-llama/Llama-3.1-8B --tensor-parallel-size 8");
    Job overridden;
    overridden.id = QStringLiteral("2");
    overridden.name = QStringLiteral("mystery");
    overridden.setState(QStringLiteral("PENDING"));
    overridden.comment = QStringLiteral("strata:kind=nonsense");
    Job plain;
    plain.id = QStringLiteral("3");
    plain.name = QStringLiteral("x");
    plain.setState(QStringLiteral("PENDING"));
    part.jobs << serving << overridden << plain;
    return part;
}

SnapshotPtr mergeOnce(const OrchestratorPart &part)
{
    ClusterProfile profile;
    profile.name = QStringLiteral("merge");
    profile.sshHost = QStringLiteral("127.0.0.1");
    ClusterSession session(profile, std::make_shared<OfflineRemoteShell>(), std::make_unique<FixedOrchestrator>(part));
    QSignalSpy ready(&session, &ClusterSession::snapshotReady);
    session.refreshNow();
    if (!ready.wait(5000))
        return nullptr;
    return session.latest();
}

int countFindings(const ClusterSnapshot &s, const QString &code)
{
    int n = 0;
    for (const Finding &f : s.findings)
        n += f.code == code ? 1 : 0;
    return n;
}

} // namespace

class TestSessionMerge : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void detectedBySourceIsTakenAsItIsAndShared()
    {
        OrchestratorPart part = partWithJobs();
        part.workloadFindings = WorkloadDetector::apply(part.jobs);
        const QVector<Job> sourceJobs = part.jobs;   // what the source handed over
        const QVector<Node> sourceNodes = part.nodes;
        const SnapshotPtr s = mergeOnce(part);
        QVERIFY(s);
        QVERIFY(s->source(SourceKind::Slurm)->ok);
        QCOMPARE(s->jobs.size(), 3);
        // No copy: the snapshot's jobs and nodes are the very vectors the source produced.
        QVERIFY(s->jobs.isSharedWith(sourceJobs));
        QVERIFY(s->nodes.isSharedWith(sourceNodes));
        QCOMPARE(s->job(QStringLiteral("1"))->framework, QStringLiteral("vllm"));
        QCOMPARE(s->job(QStringLiteral("1"))->kind, QStringLiteral("serving"));
        QCOMPARE(countFindings(*s, QStringLiteral("workload-kind-unknown")), 1);
    }

    void notDetectedBySourceIsDetectedInTheMerge()
    {
        const OrchestratorPart part = partWithJobs();
        QVERIFY(!part.workloadFindings);
        QVERIFY(part.jobs[0].framework.isEmpty());
        const SnapshotPtr s = mergeOnce(part);
        QVERIFY(s);
        QCOMPARE(s->job(QStringLiteral("1"))->framework, QStringLiteral("vllm"));
        QCOMPARE(s->job(QStringLiteral("1"))->kind, QStringLiteral("serving"));
        QCOMPARE(s->job(QStringLiteral("1"))->kindSource, QStringLiteral("detected"));
        QCOMPARE(countFindings(*s, QStringLiteral("workload-kind-unknown")), 1);
        QVERIFY(s->job(QStringLiteral("3"))->kind.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSessionMerge)
#include "tst_session_merge.moc"
