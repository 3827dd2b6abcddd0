// ClusterSession while its scheduler fails behind a login node that answers: it probes the
// scheduler once an interval and refreshes as soon as the probe says it answers, instead of
// waiting out its backoff (issue 33: fresh data came ~85 s after slurmctld was back); a login
// node that fails, or a source that cannot tell, keeps the plain backoff and is never probed.
// The real controller's case is tst_fault_slurmctld::backWithinAnIntervalWhilePolling.
#include "model/orchestrator_source.h"
#include "offline_remote_shell.h"
#include "session/cluster_session.h"

#include <QSignalSpy>
#include <QTest>

using namespace strata;

Q_DECLARE_METATYPE(strata::OrchestratorProbe::Answer)

namespace {

// A scheduler that fails every refresh (as the scheduler, or as its transport) until told to
// answer, and whose probe answers as scripted. Records what the session asked, in order.
class FailingOrchestrator : public OrchestratorSource
{
public:
    FailingOrchestrator(bool transportFails, OrchestratorProbe::Answer probeAnswer)
        : m_transportFails(transportFails), m_probeAnswer(probeAnswer)
    {
    }
    OrchestratorKind kind() const override { return OrchestratorKind::Slurm; }
    QFuture<OrchestratorPart> refresh() override
    {
        m_asked << QStringLiteral("refresh");
        OrchestratorPart part;
        if (!m_answers) {
            part.error = m_transportFails ? QStringLiteral("connection refused") : QStringLiteral("Unable to contact slurm controller");
            part.errorKind = m_transportFails ? ErrorKind::ConnectFailed : ErrorKind::CommandFailed;
            part.transportFailed = m_transportFails;
        }
        return QtFuture::makeReadyFuture(part);
    }
    QFuture<OrchestratorProbe> probe() override
    {
        m_asked << QStringLiteral("probe");
        if (m_probeAnswer == OrchestratorProbe::Answer::Answers)
            m_answers = true; // the controller is back: the next refresh works
        return QtFuture::makeReadyFuture(OrchestratorProbe{m_probeAnswer, QStringLiteral("scripted")});
    }
    QFuture<ActionResult> submit(const JobSubmission &) override { return QtFuture::makeReadyFuture(ActionResult{}); }
    QFuture<ActionResult> cancel(const QString &) override { return QtFuture::makeReadyFuture(ActionResult{}); }
    QFuture<ActionResult> drain(const QStringList &, const QString &) override { return QtFuture::makeReadyFuture(ActionResult{}); }
    QFuture<ActionResult> resume(const QStringList &) override { return QtFuture::makeReadyFuture(ActionResult{}); }
    QFuture<ActionResult> reconcile(const ActionResult &r) override { return QtFuture::makeReadyFuture(r); }

    // The probe's answer from now on (the controller comes back).
    void setProbeAnswer(OrchestratorProbe::Answer answer) { m_probeAnswer = answer; }
    const QStringList &asked() const { return m_asked; }
    int count(const QString &what) const { return int(m_asked.count(what)); }

private:
    bool m_transportFails;
    OrchestratorProbe::Answer m_probeAnswer;
    bool m_answers = false;
    QStringList m_asked;
};

ClusterProfile profileEverySecond()
{
    ClusterProfile profile;
    profile.name = QStringLiteral("probe");
    profile.sshHost = QStringLiteral("127.0.0.1");
    profile.refreshIntervalSeconds = 1; // backoff 2, 4, 8 s after 1, 2, 3 failures
    return profile;
}

} // namespace

class TestSessionProbe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void schedulerBackRefreshesAtOnce()
    {
        auto owned = std::make_unique<FailingOrchestrator>(false, OrchestratorProbe::Answer::Silent);
        FailingOrchestrator *orchestrator = owned.get();
        ClusterSession session(profileEverySecond(), std::make_shared<OfflineRemoteShell>(), std::move(owned));
        QSignalSpy ready(&session, &ClusterSession::snapshotReady);
        session.start();
        // Three failed refreshes (at 0, 2 and 6 s): the backoff is now 8 s.
        QTRY_COMPARE_WITH_TIMEOUT(orchestrator->count(QStringLiteral("refresh")), 3, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 3, 5000);
        QVERIFY(!session.latest()->source(SourceKind::Slurm)->ok);
        // Probed once an interval meanwhile, silent: no refresh came of it.
        QTRY_VERIFY_WITH_TIMEOUT(orchestrator->count(QStringLiteral("probe")) >= 2, 5000);
        QCOMPARE(orchestrator->count(QStringLiteral("refresh")), 3);

        orchestrator->setProbeAnswer(OrchestratorProbe::Answer::Answers);
        QTRY_VERIFY_WITH_TIMEOUT(session.latest()->source(SourceKind::Slurm)->ok, 8000);
        // The refresh that brought the data back came right after the probe that answered
        // (the backoff's own refresh would follow a silent probe or none).
        const QStringList &asked = orchestrator->asked();
        QCOMPARE(asked.last(), QStringLiteral("refresh"));
        QCOMPARE(asked.at(asked.size() - 2), QStringLiteral("probe"));
        QCOMPARE(orchestrator->count(QStringLiteral("refresh")), 4);
        // Live again: no more probes.
        const int probes = orchestrator->count(QStringLiteral("probe"));
        QTest::qWait(1500);
        QCOMPARE(orchestrator->count(QStringLiteral("probe")), probes);
    }

    void transportFailureIsNeverProbed_data()
    {
        QTest::addColumn<bool>("transportFails");
        QTest::addColumn<OrchestratorProbe::Answer>("probeAnswer");
        QTest::addColumn<int>("probes");
        // Each probe would be a new login (an MFA code even): the backoff alone.
        QTest::newRow("login node fails") << true << OrchestratorProbe::Answer::Answers << 0;
        // Asked once after each failure; "cannot tell" leaves the backoff as it was.
        QTest::newRow("source cannot tell") << false << OrchestratorProbe::Answer::CannotTell << 2;
    }

    void transportFailureIsNeverProbed()
    {
        QFETCH(bool, transportFails);
        QFETCH(OrchestratorProbe::Answer, probeAnswer);
        QFETCH(int, probes);
        auto owned = std::make_unique<FailingOrchestrator>(transportFails, probeAnswer);
        FailingOrchestrator *orchestrator = owned.get();
        ClusterSession session(profileEverySecond(), std::make_shared<OfflineRemoteShell>(), std::move(owned));
        session.start();
        // Two failed refreshes (at 0 and 2 s), then the 4 s backoff's first 2.5 s.
        QTRY_COMPARE_WITH_TIMEOUT(orchestrator->count(QStringLiteral("refresh")), 2, 10000);
        QTest::qWait(2500);
        QCOMPARE(orchestrator->count(QStringLiteral("probe")), probes);
        QCOMPARE(orchestrator->count(QStringLiteral("refresh")), 2);
        QVERIFY(!session.latest()->source(SourceKind::Slurm)->ok);
    }
};

QTEST_GUILESS_MAIN(TestSessionProbe)
#include "tst_session_probe.moc"
