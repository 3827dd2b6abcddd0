// Prometheus (the lab's real Prometheus 2.42) stopped, stalled, cut halfway through an answer,
// and restarted, under a live ClusterSession: the prometheus source fails with its reason over
// stale metrics of a known age, the login node and Slurm stay live, no refresh outlasts the
// request timeout, and metrics come back by themselves.
#include "fault_lab.h"
#include "fault_proxy.h"

#include <QUrl>

using namespace strata;
using namespace strata::fault;

class TestFaultPrometheus : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void stopped();
    void stalled();
    void cutHalfwayThroughAnswer();
    void restarted();

private:
    std::unique_ptr<ClusterSession> newSession(quint16 prometheusPort = 0);
    // Takes the good refresh every case starts from; its prometheus lastSuccess.
    QDateTime startHealthy(ClusterSession &session, Refresh *good);
    ClusterProfile m_profile;
    quint16 m_prometheusPort = 0;
    const QStringList m_failing{QStringLiteral("prometheus")};
    const QStringList m_live{QStringLiteral("ssh"), QStringLiteral("slurm")};
    const QStringList m_all{QStringLiteral("ssh"), QStringLiteral("slurm"), QStringLiteral("prometheus")};
};

void TestFaultPrometheus::initTestCase()
{
    QString error;
    m_profile = labProfile(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(m_profile.hasPrometheus(), "the lab's connect.args name no Prometheus");
    m_prometheusPort = quint16(QUrl(m_profile.prometheusUrl).port());
    QVERIFY(m_prometheusPort > 0);
}

void TestFaultPrometheus::cleanup()
{
    QString output;
    QVERIFY2(runLab({QStringLiteral("start"), QStringLiteral("prometheus")}, &output), qPrintable(output));
}

std::unique_ptr<ClusterSession> TestFaultPrometheus::newSession(quint16 prometheusPort)
{
    ClusterProfile p = m_profile;
    if (prometheusPort)
        p.prometheusUrl = QStringLiteral("http://127.0.0.1:%1").arg(prometheusPort);
    return std::make_unique<ClusterSession>(p);
}

QDateTime TestFaultPrometheus::startHealthy(ClusterSession &session, Refresh *good)
{
    *good = firstLiveRefresh(session, m_all);
    const QString problem = checkLive(*good, m_all);
    if (!problem.isEmpty()) {
        QTest::qFail(qPrintable(problem), __FILE__, __LINE__);
        return {};
    }
    return good->source(SourceKind::Prometheus)->lastSuccess;
}

void TestFaultPrometheus::stopped()
{
    auto session = newSession();
    Refresh good;
    const QDateTime lastGood = startHealthy(*session, &good);
    QVERIFY(lastGood.isValid());

    QString error;
    QVERIFY2(runLab({QStringLiteral("stop"), QStringLiteral("prometheus")}, &error), qPrintable(error));
    static const QRegularExpression refused(QStringLiteral("Prometheus at http://127\\.0\\.0\\.1:\\d+ not reachable: .*refused"));
    const Refresh first = refreshOnce(*session);
    QString problem = checkFailing(first, m_failing, refused, lastGood);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    problem = checkLive(first, m_live, good.source(SourceKind::Slurm)->lastSuccess);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY2(first.elapsedMs < kCommandTimeoutSeconds * 1000, qPrintable(describe(first)));
    // The last good metrics still shown (within 5 minutes), marked stale.
    QCOMPARE(first.snapshot->nodes.size(), good.snapshot->nodes.size());

    const Refresh second = refreshOnce(*session);
    problem = checkFailing(second, m_failing, refused, lastGood);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(lastGood.msecsTo(second.snapshot->takenAt) > lastGood.msecsTo(first.snapshot->takenAt));

    QVERIFY2(runLab({QStringLiteral("start"), QStringLiteral("prometheus")}, &error), qPrintable(error));
    Refresh back;
    QVERIFY2(refreshUntilLive(*session, m_all, 15000, &back) > 0, qPrintable(describe(back)));
}

void TestFaultPrometheus::stalled()
{
    FaultProxy proxy(m_prometheusPort);
    QString error;
    QVERIFY2(proxy.start(&error), qPrintable(error));
    auto session = newSession(proxy.port());
    Refresh good;
    const QDateTime lastGood = startHealthy(*session, &good);
    QVERIFY(lastGood.isValid());

    proxy.stall();
    static const QRegularExpression timedOut(QStringLiteral("Prometheus at http://127\\.0\\.0\\.1:\\d+ (did not answer|stopped sending).* within %1 s")
                                                 .arg(kCommandTimeoutSeconds));
    const Refresh stalled = refreshOnce(*session);
    QString problem = checkFailing(stalled, m_failing, timedOut, lastGood);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    problem = checkLive(stalled, m_live, good.source(SourceKind::Slurm)->lastSuccess);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const qint64 bound = kCommandTimeoutSeconds * 1000 + 2000;
    QVERIFY2(stalled.elapsedMs >= kCommandTimeoutSeconds * 1000 - 500 && stalled.elapsedMs < bound,
             qPrintable(QStringLiteral("bound %1 ms; %2").arg(bound).arg(describe(stalled))));

    proxy.pass();
    Refresh back;
    QVERIFY2(refreshUntilLive(*session, m_all, 15000, &back) > 0, qPrintable(describe(back)));
}

void TestFaultPrometheus::cutHalfwayThroughAnswer()
{
    FaultProxy proxy(m_prometheusPort);
    QString error;
    QVERIFY2(proxy.start(&error), qPrintable(error));
    auto session = newSession(proxy.port());
    Refresh good;
    const QDateTime lastGood = startHealthy(*session, &good);
    QVERIFY(lastGood.isValid());

    // Each answer is cut after 1 KiB: the headers pass, the body of the GPU gauges (32 GPUs x 21
    // fields in the lab, ~44 MiB at 16,000 GPUs) stops halfway.
    proxy.cutAfter(1024);
    static const QRegularExpression broke(QStringLiteral("Prometheus at http://127\\.0\\.0\\.1:\\d+ (broke off its answer|not reachable)"));
    const Refresh cut = refreshOnce(*session);
    QString problem = checkFailing(cut, m_failing, broke, lastGood);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY2(proxy.connectionsCut() >= 1, "the proxy cut nothing");
    problem = checkLive(cut, m_live, good.source(SourceKind::Slurm)->lastSuccess);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY2(cut.elapsedMs < kCommandTimeoutSeconds * 1000, qPrintable(describe(cut)));

    proxy.pass();
    Refresh back;
    QVERIFY2(refreshUntilLive(*session, m_all, 15000, &back) > 0, qPrintable(describe(back)));
}

void TestFaultPrometheus::restarted()
{
    auto session = newSession();
    Refresh good;
    const QDateTime lastGood = startHealthy(*session, &good);
    QVERIFY(lastGood.isValid());

    QString error;
    QVERIFY2(runLab({QStringLiteral("stop"), QStringLiteral("prometheus")}, &error), qPrintable(error));
    QVERIFY2(runLab({QStringLiteral("start"), QStringLiteral("prometheus")}, &error), qPrintable(error));
    // Its kept-alive connection died with the old process; the next request opens a new one.
    Refresh back;
    const int refreshes = refreshUntilLive(*session, m_all, 15000, &back);
    QVERIFY2(refreshes > 0, qPrintable(describe(back)));
    QVERIFY2(refreshes <= 2, qPrintable(QStringLiteral("%1 refreshes").arg(refreshes)));
}

QTEST_GUILESS_MAIN(TestFaultPrometheus)
#include "tst_fault_prometheus.moc"
