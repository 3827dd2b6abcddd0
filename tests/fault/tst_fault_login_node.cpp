// The login node (the lab's OpenSSH sshd) stopped, stalled, cut halfway through an output, and
// restarted, under a live ClusterSession: the SSH and Slurm sources fail with their reason over
// stale data of a known age, Prometheus stays live, no refresh outlasts the timeouts, and the
// session recovers by itself once the fault clears.
#include "fault_lab.h"
#include "fault_proxy.h"

#include <QTemporaryDir>

using namespace strata;
using namespace strata::fault;

class TestFaultLoginNode : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void stopped();
    void stalled();
    void cutHalfwayThroughOutput();
    void restarted();

private:
    std::unique_ptr<ClusterSession> newSession(quint16 sshPort = 0);
    ClusterProfile m_profile;
    QTemporaryDir m_dir;
    const QStringList m_failing{QStringLiteral("ssh"), QStringLiteral("slurm")};
    const QStringList m_live{QStringLiteral("prometheus")};
    const QStringList m_all{QStringLiteral("ssh"), QStringLiteral("slurm"), QStringLiteral("prometheus")};
};

void TestFaultLoginNode::initTestCase()
{
    QString error;
    m_profile = labProfile(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(m_profile.hasPrometheus(), "the lab's connect.args name no Prometheus");
}

void TestFaultLoginNode::cleanup()
{
    QString output;
    QVERIFY2(runLab({QStringLiteral("start"), QStringLiteral("sshd")}, &output), qPrintable(output));
}

std::unique_ptr<ClusterSession> TestFaultLoginNode::newSession(quint16 sshPort)
{
    ClusterProfile p = m_profile;
    if (sshPort) { // through a FaultProxy: the same sshd, so the same host key
        p.sshPort = sshPort;
        p.knownHostsFile = knownHostsThrough(m_profile, sshPort, m_dir.path());
    }
    return std::make_unique<ClusterSession>(p);
}

void TestFaultLoginNode::stopped()
{
    auto session = newSession();
    const Refresh good = firstLiveRefresh(*session, m_all);
    QString problem = checkLive(good, m_all);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const QDateTime lastGood = good.source(SourceKind::Ssh)->lastSuccess;

    QString error;
    QVERIFY2(stopLoginNode(&error), qPrintable(error));
    // Two refreshes while it is down: the reason stays, the data's age grows, Prometheus answers.
    static const QRegularExpression refused(QStringLiteral("cannot connect to root@127\\.0\\.0\\.1:\\d+: .*(refused|Connection)"));
    const Refresh first = refreshOnce(*session);
    problem = checkFailing(first, m_failing, refused, lastGood);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    problem = checkLive(first, m_live, good.source(SourceKind::Prometheus)->lastSuccess);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY2(first.elapsedMs < kConnectTimeoutSeconds * 1000 + 2000, qPrintable(describe(first)));

    QThread::msleep(1200); // past the first reconnect backoff (1 s): the next refresh tries again
    const Refresh second = refreshOnce(*session);
    problem = checkFailing(second, m_failing, refused, lastGood);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(lastGood.msecsTo(second.snapshot->takenAt) > lastGood.msecsTo(first.snapshot->takenAt));
    QVERIFY2(second.elapsedMs < kConnectTimeoutSeconds * 1000 + 2000, qPrintable(describe(second)));

    QVERIFY2(runLab({QStringLiteral("start"), QStringLiteral("sshd")}, &error), qPrintable(error));
    Refresh back;
    const int refreshes = refreshUntilLive(*session, m_all, 15000, &back);
    QVERIFY2(refreshes > 0, qPrintable(describe(back)));
    QCOMPARE(back.snapshot->nodes.size(), good.snapshot->nodes.size());
}

void TestFaultLoginNode::stalled()
{
    FaultProxy proxy(quint16(m_profile.sshPort));
    QString error;
    QVERIFY2(proxy.start(&error), qPrintable(error));
    auto session = newSession(proxy.port());
    const Refresh good = firstLiveRefresh(*session, m_all);
    QString problem = checkLive(good, m_all);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const QDateTime lastGood = good.source(SourceKind::Ssh)->lastSuccess;

    // The connection is open and sshd never answers again: every wait must end on a timeout.
    proxy.stall();
    static const QRegularExpression timedOut(QStringLiteral("(did not finish within \\d+ s|[Tt]imeout|timed out)"));
    const Refresh stalled = refreshOnce(*session);
    problem = checkFailing(stalled, m_failing, timedOut, lastGood);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    problem = checkLive(stalled, m_live, good.source(SourceKind::Prometheus)->lastSuccess);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const qint64 bound = (kConnectTimeoutSeconds + kCommandTimeoutSeconds) * 1000 + 2000;
    QVERIFY2(stalled.elapsedMs < bound, qPrintable(QStringLiteral("bound %1 ms; %2").arg(bound).arg(describe(stalled))));

    proxy.pass();
    Refresh back;
    const int refreshes = refreshUntilLive(*session, m_all, 20000, &back);
    QVERIFY2(refreshes > 0, qPrintable(describe(back)));
}

void TestFaultLoginNode::cutHalfwayThroughOutput()
{
    FaultProxy proxy(quint16(m_profile.sshPort));
    QString error;
    QVERIFY2(proxy.start(&error), qPrintable(error));
    auto session = newSession(proxy.port());
    const qint64 before = proxy.bytesToClients();
    const Refresh good = firstLiveRefresh(*session, m_all);
    QString problem = checkLive(good, m_all);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const QDateTime lastGood = good.source(SourceKind::Ssh)->lastSuccess;
    const qint64 refreshBytes = proxy.bytesToClients() - before; // handshake + one refresh's output

    // The next refresh's answers are cut after 4 KiB: past `scontrol show partition`, inside
    // `sinfo --json` (the lab's is ~6 KB; at 2,000 nodes ~3 MB).
    constexpr qint64 cut = 4096;
    QVERIFY2(refreshBytes > 2 * cut, qPrintable(QStringLiteral("a refresh moved only %1 bytes").arg(refreshBytes)));
    proxy.cutAfter(cut);
    const qint64 beforeCut = proxy.bytesToClients();
    static const QRegularExpression broke(QStringLiteral("(broke while the command ran|ended without an exit status|not connected|closed)"));
    const Refresh cutRefresh = refreshOnce(*session);
    problem = checkFailing(cutRefresh, m_failing, broke, lastGood);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY2(proxy.connectionsCut() >= 1, "the proxy cut nothing");
    QVERIFY2(proxy.bytesToClients() - beforeCut >= cut, "the cut came before the output");
    problem = checkLive(cutRefresh, m_live, good.source(SourceKind::Prometheus)->lastSuccess);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY2(cutRefresh.elapsedMs < (kConnectTimeoutSeconds + kCommandTimeoutSeconds) * 1000, qPrintable(describe(cutRefresh)));

    proxy.pass();
    Refresh back;
    const int refreshes = refreshUntilLive(*session, m_all, 15000, &back);
    QVERIFY2(refreshes > 0, qPrintable(describe(back)));
    QCOMPARE(back.snapshot->nodes.size(), good.snapshot->nodes.size());
}

void TestFaultLoginNode::restarted()
{
    auto session = newSession();
    const Refresh good = firstLiveRefresh(*session, m_all);
    QString problem = checkLive(good, m_all);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));

    // Down and back between two refreshes: the session's connection died with the old sshd.
    QString error;
    QVERIFY2(stopLoginNode(&error), qPrintable(error));
    QVERIFY2(runLab({QStringLiteral("start"), QStringLiteral("sshd")}, &error), qPrintable(error));
    Refresh back;
    const int refreshes = refreshUntilLive(*session, m_all, 15000, &back);
    QVERIFY2(refreshes > 0, qPrintable(describe(back)));
    // A dead idle connection is noticed when a channel cannot open, before any command was
    // sent: reconnecting then is safe, so the very first refresh succeeds.
    QCOMPARE(refreshes, 1);
    QCOMPARE(back.snapshot->nodes.size(), good.snapshot->nodes.size());
}

QTEST_GUILESS_MAIN(TestFaultLoginNode)
#include "tst_fault_login_node.moc"
