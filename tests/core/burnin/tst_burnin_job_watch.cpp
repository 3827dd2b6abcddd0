// Issue 33: a burn-in job that pends on a drained node was logged as running there. The watch
// says "waiting for NODE (pending: REASON)" while the scheduler holds it, once per reason, and
// "runs on" only once the job runs.
#include "burnin/burnin_job_watch.h"

#include <QTest>

using namespace strata;

namespace {

ClusterSnapshot withJob(const QString &state, const QString &reason, const QStringList &nodes = {})
{
    ClusterSnapshot s;
    Job j;
    j.id = QStringLiteral("41");
    j.setState(state);
    j.reason = reason;
    j.nodes = nodes;
    s.jobs << j;
    s.finalize();
    return s;
}

} // namespace

class TestBurninJobWatch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pendingIsNeverRunning()
    {
        BurninJobWatch watch(QStringLiteral("41"), {QStringLiteral("gpu-node03")});
        QCOMPARE(watch.update(ClusterSnapshot{}), std::nullopt); // not listed yet
        QCOMPARE(watch.update(withJob(QStringLiteral("PENDING"), QStringLiteral("ReqNodeNotAvail, UnavailableNodes:gpu-node03"))),
                 std::optional<QString>(QStringLiteral("Burn-in job 41 is waiting for gpu-node03 "
                                                       "(pending: ReqNodeNotAvail, UnavailableNodes:gpu-node03)")));
        // The same reason again: nothing new to say.
        QCOMPARE(watch.update(withJob(QStringLiteral("PENDING"), QStringLiteral("ReqNodeNotAvail, UnavailableNodes:gpu-node03"))),
                 std::nullopt);
        QCOMPARE(watch.update(withJob(QStringLiteral("PENDING"), QStringLiteral("Resources"))),
                 std::optional<QString>(QStringLiteral("Burn-in job 41 is waiting for gpu-node03 (pending: Resources)")));
        QCOMPARE(watch.update(withJob(QStringLiteral("RUNNING"), QStringLiteral("None"), {QStringLiteral("gpu-node03")})),
                 std::optional<QString>(QStringLiteral("Burn-in job 41 runs on gpu-node03")));
        QCOMPARE(watch.update(withJob(QStringLiteral("RUNNING"), QStringLiteral("None"), {QStringLiteral("gpu-node03")})),
                 std::nullopt);
        // Its end is the verdict's to tell.
        QCOMPARE(watch.update(withJob(QStringLiteral("COMPLETED"), QStringLiteral("None"), {QStringLiteral("gpu-node03")})),
                 std::nullopt);
    }

    void theKindDecidesNotTheWord()
    {
        // A reason that says "RUNNING" is still a pending job's reason.
        BurninJobWatch watch(QStringLiteral("41"), {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")});
        QCOMPARE(watch.update(withJob(QStringLiteral("PENDING"), QStringLiteral("RUNNING"))),
                 std::optional<QString>(QStringLiteral("Burn-in job 41 is waiting for gpu-node[01-02] (pending: RUNNING)")));
        // Configuring holds the nodes: it runs there, launching.
        QCOMPARE(watch.update(withJob(QStringLiteral("CONFIGURING"), QStringLiteral("None"),
                                      {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")})),
                 std::optional<QString>(QStringLiteral("Burn-in job 41 runs on gpu-node[01-02]")));
    }
};

QTEST_MAIN(TestBurninJobWatch)
#include "tst_burnin_job_watch.moc"
