// Attack (issue 23, finding 3): a worker task of a refresh fails with an exception. A hostile
// count once made the Slurm and Kubernetes sources allocate 2,000,000,000 Gpu entries on their
// pool; the std::bad_alloc was kept inside the task's future, whenFinished() called nothing for
// a future without a result, and the session waited for that refresh for ever (`strata snapshot`
// hung whatever --command-timeout said; the window never refreshed again). Promise: a pool task
// that throws ends its refresh with an error a person sees (the orchestrator's status names
// the profile and the exception), and the next refresh runs as usual.
#include "model/orchestrator_source.h"
#include "model/pool_task.h"
#include "model/when_finished.h"
#include "offline_remote_shell.h"
#include "session/cluster_session.h"

#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

#include <atomic>
#include <new>

using namespace strata;

namespace {

// A Slurm source whose refresh task throws std::bad_alloc the first `failures` times, as
// SlurmSource's did on a node reporting 2,000,000,000 GPUs, then answers one node.
class ThrowingOrchestrator : public OrchestratorSource
{
public:
    explicit ThrowingOrchestrator(int failures) : m_failures(failures) {}
    ~ThrowingOrchestrator() override { m_pool.waitForDone(); }
    OrchestratorKind kind() const override { return OrchestratorKind::Slurm; }
    QFuture<OrchestratorPart> refresh() override
    {
        return runOnPool(&m_pool, [this]() -> OrchestratorPart {
            if (m_failures.fetch_sub(1) > 0)
                throw std::bad_alloc();
            OrchestratorPart part;
            Node n;
            n.name = QStringLiteral("gpu-node01");
            n.gpuCount = 8;
            part.nodes << n;
            return part;
        });
    }
    QFuture<ActionResult> submit(const JobSubmission &) override { return QtFuture::makeReadyFuture(ActionResult{}); }
    QFuture<ActionResult> cancel(const QString &) override { return QtFuture::makeReadyFuture(ActionResult{}); }
    QFuture<ActionResult> drain(const QStringList &, const QString &) override { return QtFuture::makeReadyFuture(ActionResult{}); }
    QFuture<ActionResult> resume(const QStringList &) override { return QtFuture::makeReadyFuture(ActionResult{}); }
    QFuture<ActionResult> reconcile(const ActionResult &r) override { return QtFuture::makeReadyFuture(r); }

private:
    std::atomic<int> m_failures;
    QThreadPool m_pool;
};

ClusterProfile profile()
{
    ClusterProfile p;
    p.name = QStringLiteral("hostile-lab");
    p.sshHost = QStringLiteral("127.0.0.1");
    p.refreshIntervalSeconds = 1;
    return p;
}

} // namespace

class TestAttackPoolTask : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void throwingTaskIsReported()
    {
        QObject context;
        QString failure;
        bool handled = false;
        whenFinished(runOnPool(nullptr, []() -> int { throw std::bad_alloc(); }), &context,
                     [&](int) { handled = true; }, [&](const QString &why) { failure = why; });
        QTRY_COMPARE_WITH_TIMEOUT(failure, QStringLiteral("std::bad_alloc"), 5000);
        QVERIFY(!handled);
    }

    void refreshEndsWithTheTasksError()
    {
        ClusterSession session(profile(), std::make_shared<OfflineRemoteShell>(), std::make_unique<ThrowingOrchestrator>(1));
        QSignalSpy ready(&session, &ClusterSession::snapshotReady);
        session.refreshNow();
        QVERIFY2(ready.wait(5000), "the refresh whose task threw never ended");
        const SnapshotPtr failed = ready.takeFirst().at(0).value<SnapshotPtr>();
        QVERIFY(failed);
        const SourceStatus *slurm = failed->source(SourceKind::Slurm);
        QVERIFY(slurm);
        QVERIFY(!slurm->ok);
        QCOMPARE(slurm->errorKind, ErrorKind::ParseFailed);
        QCOMPARE(slurm->error, QStringLiteral("reading slurm of hostile-lab failed inside Strata (std::bad_alloc), most likely "
                                              "on an answer too large or too strange to hold; the next refresh tries again"));
        QVERIFY(failed->nodes.isEmpty());

        // The session is not stuck: the next refresh reads the cluster.
        session.refreshNow();
        QVERIFY2(ready.wait(5000), "no refresh after the failed one");
        const SnapshotPtr good = ready.takeFirst().at(0).value<SnapshotPtr>();
        QVERIFY(good->source(SourceKind::Slurm)->ok);
        QCOMPARE(good->nodes.size(), 1);
        QCOMPARE(good->nodes[0].gpuCount, 8);
    }
};

QTEST_GUILESS_MAIN(TestAttackPoolTask)
#include "tst_attack_pool_task.moc"
