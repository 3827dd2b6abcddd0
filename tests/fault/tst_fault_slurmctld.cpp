// slurmctld (the lab's real Slurm 22.05 controller) stopped, stalled (SIGSTOP: the kernel still
// accepts its connections, nothing answers), cut halfway through an answer (a FaultProxy between
// the Slurm clients on the login node and the controller), and restarted, under a live
// ClusterSession: the slurm source fails with Slurm's own reason or the command timeout over
// stale data, the login node (ssh) and Prometheus stay live, and the session recovers by itself,
// while polling within about an interval of the controller's return, not at its backoff's end.
#include "fault_lab.h"
#include "fault_proxy.h"

#include <QTemporaryDir>

using namespace strata;
using namespace strata::fault;

class TestFaultSlurmctld : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void stopped();
    void stalled();
    void cutHalfwayThroughAnswer();
    void restarted();
    void backWithinAnIntervalWhilePolling();

private:
    QDateTime startHealthy(ClusterSession &session, Refresh *good);
    ClusterProfile m_profile;
    QString m_slurmConf;
    QTemporaryDir m_dir;
    qint64 m_stoppedPid = -1;
    const QStringList m_failing{QStringLiteral("slurm")};
    const QStringList m_live{QStringLiteral("ssh"), QStringLiteral("prometheus")};
    const QStringList m_all{QStringLiteral("ssh"), QStringLiteral("slurm"), QStringLiteral("prometheus")};
};

void TestFaultSlurmctld::initTestCase()
{
    QString error;
    m_profile = labProfile(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    for (const auto &kv : std::as_const(m_profile.remoteEnvironment))
        if (kv.first == QLatin1String("SLURM_CONF"))
            m_slurmConf = kv.second;
    QVERIFY2(QFile::exists(m_slurmConf), "connect.args has no SLURM_CONF");
}

void TestFaultSlurmctld::cleanup()
{
    if (m_stoppedPid > 0)
        ::kill(pid_t(m_stoppedPid), SIGCONT);
    m_stoppedPid = -1;
    QString output;
    QVERIFY2(runLab({QStringLiteral("start"), QStringLiteral("slurmctld")}, &output), qPrintable(output));
    QVERIFY2(waitForSlurmNodes(60000), "the nodes did not answer the controller again within 60 s");
}

QDateTime TestFaultSlurmctld::startHealthy(ClusterSession &session, Refresh *good)
{
    *good = firstLiveRefresh(session, m_all);
    const QString problem = checkLive(*good, m_all);
    if (!problem.isEmpty()) {
        QTest::qFail(qPrintable(problem), __FILE__, __LINE__);
        return {};
    }
    return good->source(SourceKind::Slurm)->lastSuccess;
}

void TestFaultSlurmctld::stopped()
{
    // Slurm's clients try the controller for MessageTimeout (10 s) before they give up with
    // their reason: the command timeout here leaves room for that.
    ClusterProfile p = m_profile;
    p.commandTimeoutSeconds = 15;
    ClusterSession session(p);
    Refresh good;
    const QDateTime lastGood = startHealthy(session, &good);
    QVERIFY(lastGood.isValid());

    QString error;
    QVERIFY2(runLab({QStringLiteral("stop"), QStringLiteral("slurmctld")}, &error), qPrintable(error));
    static const QRegularExpression unreachable(QStringLiteral("Unable to contact slurm controller"));
    const Refresh down = refreshOnce(session);
    QString problem = checkFailing(down, m_failing, unreachable, lastGood);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    problem = checkLive(down, m_live, good.source(SourceKind::Ssh)->lastSuccess);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY2(down.elapsedMs < p.commandTimeoutSeconds * 1000, qPrintable(describe(down)));
    QVERIFY2(lastGood.msecsTo(down.snapshot->takenAt) >= 5000, qPrintable(describe(down)));
    QCOMPARE(down.snapshot->nodes.size(), good.snapshot->nodes.size()); // the last good data, stale

    QVERIFY2(runLab({QStringLiteral("start"), QStringLiteral("slurmctld")}, &error), qPrintable(error));
    Refresh back;
    QVERIFY2(refreshUntilLive(session, m_all, 20000, &back) > 0, qPrintable(describe(back)));
}

void TestFaultSlurmctld::stalled()
{
    ClusterSession session(m_profile);
    Refresh good;
    const QDateTime lastGood = startHealthy(session, &good);
    QVERIFY(lastGood.isValid());

    m_stoppedPid = servicePid(QStringLiteral("slurmctld"));
    QVERIFY(m_stoppedPid > 0);
    QCOMPARE(::kill(pid_t(m_stoppedPid), SIGSTOP), 0);
    static const QRegularExpression timedOut(QStringLiteral("did not finish within %1 s").arg(kCommandTimeoutSeconds));
    const Refresh stalled = refreshOnce(session);
    QString problem = checkFailing(stalled, m_failing, timedOut, lastGood);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    problem = checkLive(stalled, m_live, good.source(SourceKind::Ssh)->lastSuccess);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const qint64 bound = kCommandTimeoutSeconds * 1000 + 2000;
    QVERIFY2(stalled.elapsedMs < bound, qPrintable(QStringLiteral("bound %1 ms; %2").arg(bound).arg(describe(stalled))));

    QCOMPARE(::kill(pid_t(m_stoppedPid), SIGCONT), 0);
    m_stoppedPid = -1;
    Refresh back;
    QVERIFY2(refreshUntilLive(session, m_all, 30000, &back) > 0, qPrintable(describe(back)));
}

void TestFaultSlurmctld::cutHalfwayThroughAnswer()
{
    // The Slurm clients on the login node reach the controller through the proxy: a copy of
    // slurm.conf that differs only in SlurmctldPort. slurmd keeps the real port.
    QFile conf(m_slurmConf);
    QVERIFY(conf.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(conf.readAll());
    static const QRegularExpression portLine(QStringLiteral("^SlurmctldPort=(\\d+)$"), QRegularExpression::MultilineOption);
    const auto m = portLine.match(text);
    QVERIFY2(m.hasMatch(), "slurm.conf has no SlurmctldPort");
    FaultProxy proxy(quint16(m.captured(1).toUInt()));
    QString error;
    QVERIFY2(proxy.start(&error), qPrintable(error));
    text.replace(m.capturedStart(), m.capturedLength(), QStringLiteral("SlurmctldPort=%1").arg(proxy.port()));
    const QString proxiedConf = m_dir.filePath(QStringLiteral("slurm.conf"));
    QFile out(proxiedConf);
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write(text.toUtf8());
    out.close();

    ClusterProfile p = m_profile;
    p.commandTimeoutSeconds = 15; // room for Slurm's own retry and message
    replaceRemoteEnvironment(p, QStringLiteral("SLURM_CONF"), proxiedConf);
    ClusterSession session(p);
    Refresh good;
    const QDateTime lastGood = startHealthy(session, &good);
    QVERIFY(lastGood.isValid());
    QVERIFY2(proxy.bytesToClients() > 0, "the Slurm clients did not go through the proxy");

    // Every controller answer is cut after 200 bytes, partway through its message.
    proxy.cutAfter(200);
    static const QRegularExpression broke(QStringLiteral("(Zero Bytes were transmitted or received|Unable to contact slurm controller|Socket timed out|[Uu]nexpected|error)"));
    const Refresh cut = refreshOnce(session);
    QString problem = checkFailing(cut, m_failing, broke, lastGood);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY2(proxy.connectionsCut() >= 1, "the proxy cut nothing");
    problem = checkLive(cut, m_live, good.source(SourceKind::Ssh)->lastSuccess);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY2(cut.elapsedMs < p.commandTimeoutSeconds * 1000, qPrintable(describe(cut)));

    proxy.pass();
    Refresh back;
    QVERIFY2(refreshUntilLive(session, m_all, 20000, &back) > 0, qPrintable(describe(back)));
}

void TestFaultSlurmctld::restarted()
{
    ClusterSession session(m_profile);
    Refresh good;
    const QDateTime lastGood = startHealthy(session, &good);
    QVERIFY(lastGood.isValid());

    QString error;
    QVERIFY2(runLab({QStringLiteral("stop"), QStringLiteral("slurmctld")}, &error), qPrintable(error));
    QVERIFY2(runLab({QStringLiteral("start"), QStringLiteral("slurmctld")}, &error), qPrintable(error));
    // The controller reloads its saved state: the same nodes and partitions, and no new session.
    Refresh back;
    const int refreshes = refreshUntilLive(session, m_all, 20000, &back);
    QVERIFY2(refreshes > 0, qPrintable(describe(back)));
    QVERIFY2(refreshes <= 2, qPrintable(QStringLiteral("%1 refreshes").arg(refreshes)));
    QCOMPARE(back.snapshot->nodes.size(), good.snapshot->nodes.size());
    QCOMPARE(back.snapshot->partitions.size(), good.snapshot->partitions.size());
}

void TestFaultSlurmctld::backWithinAnIntervalWhilePolling()
{
    // Issue 33: the window showed fresh data ~85 s after slurmctld answered again, its refresh
    // backoff having grown while the controller was paused. Polling as the window does (at a
    // 3 s interval), three refreshes fail against a stalled controller, so the backoff is 24 s;
    // then the controller answers again and the next fresh snapshot must follow within about an
    // interval (the probe's, `scontrol ping`) plus a refresh.
    ClusterProfile p = m_profile;
    p.refreshIntervalSeconds = 3;
    ClusterSession session(p);
    SnapshotPtr latest;
    int failed = 0;
    connect(&session, &ClusterSession::snapshotReady, this, [&](const SnapshotPtr &snapshot) {
        latest = snapshot;
        if (const SourceStatus *slurm = snapshot->source(SourceKind::Slurm); slurm && !slurm->ok)
            ++failed;
    });
    const auto slurmLiveSince = [&](const QDateTime &since) {
        const SourceStatus *slurm = latest ? latest->source(SourceKind::Slurm) : nullptr;
        return slurm && slurm->ok && slurm->lastSuccess.isValid() && (!since.isValid() || slurm->lastSuccess >= since);
    };
    session.start();
    QTRY_VERIFY_WITH_TIMEOUT(slurmLiveSince({}), 60000);

    m_stoppedPid = servicePid(QStringLiteral("slurmctld"));
    QVERIFY(m_stoppedPid > 0);
    QCOMPARE(::kill(pid_t(m_stoppedPid), SIGSTOP), 0);
    QTRY_VERIFY_WITH_TIMEOUT(failed >= 3, 120000);

    const QDateTime resumed = QDateTime::currentDateTimeUtc();
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(::kill(pid_t(m_stoppedPid), SIGCONT), 0);
    m_stoppedPid = -1;
    QTRY_VERIFY_WITH_TIMEOUT(slurmLiveSince(resumed), 90000);
    const qint64 recoveredMs = clock.elapsed();
    // Two intervals (the probe's wait, and its own answer's slack), the command timeout (a probe
    // sent into the stall just before), and 6 s for the refresh itself on a loaded machine:
    // 16 s, below the 24 s the backoff alone would wait.
    const qint64 boundMs = (2 * p.refreshIntervalSeconds + kCommandTimeoutSeconds + 6) * 1000;
    qInfo().noquote() << QStringLiteral("fresh data %1 ms after slurmctld answered again (interval %2 s, %3 failed refreshes, bound %4 ms)")
                             .arg(recoveredMs).arg(p.refreshIntervalSeconds).arg(failed).arg(boundMs);
    QVERIFY2(recoveredMs < boundMs, qPrintable(QStringLiteral("%1 ms").arg(recoveredMs)));
}

QTEST_GUILESS_MAIN(TestFaultSlurmctld)
#include "tst_fault_slurmctld.moc"
