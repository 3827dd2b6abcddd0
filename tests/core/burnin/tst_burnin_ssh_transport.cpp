// The SSH transport without a lab: the "login node" is this machine (LocalRemoteShell) and the
// hop to each node a local sh that records which node it was asked for, so two nodes each run
// the real strata-burn (CPU backend) through the same code path as over SSH. Through
// BurninSession, as the CLI and the window use it: deploy, start per node, follow the files,
// judge, drain; and the transport alone for cancel and for what it refuses.

#include "burnin/burnin_session.h"
#include "burnin/burnin_ssh_transport.h"
#include "burnin/burnin_transport_factory.h"
#include "local_remote_shell.h"
#include "session/cluster_session.h"
#include "synthetic_orchestrator.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <optional>

using namespace strata;

class TestBurninSshTransport : public QObject
{
    Q_OBJECT

private:
    // The process ended (a zombie waiting for whoever adopted it counts as ended).
    static bool gone(const QString &pid)
    {
        if (::kill(pid.toInt(), 0) != 0)
            return true;
        QFile status(QStringLiteral("/proc/%1/status").arg(pid));
        return status.open(QIODevice::ReadOnly) && status.readAll().contains("State:\tZ");
    }

    QString agent() const { return QStringLiteral(STRATA_BINARY_DIR "/burnin/strata-burn"); }

    BurninRequest request(const QTemporaryDir &dir) const
    {
        BurninRequest r;
        r.transport = BurninTransportKind::Ssh;
        r.nodes = {QStringLiteral("node-a"), QStringLiteral("node-b")};
        r.tests = {QStringLiteral("gemm")};
        r.durationSeconds = 1;
        r.backend = QStringLiteral("cpu");
        r.gpusByNode = {{QStringLiteral("node-a"), 2}, {QStringLiteral("node-b"), 2}};
        r.agentLocalPath = agent();
        r.agentRemotePath = dir.filePath(QStringLiteral("bin/strata-burn"));
        r.outputDirectory = dir.filePath(QStringLiteral("out"));
        // The hop: `sh -c 'echo NODE >>hops; shift; exec sh -c "$1"' hop NODE COMMAND`.
        r.nodeShell = {QStringLiteral("sh"), QStringLiteral("-c"),
                       QStringLiteral("echo \"$1\" >>%1; shift; exec sh -c \"$1\"").arg(dir.filePath(QStringLiteral("hops"))),
                       QStringLiteral("hop")};
        return r;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(agent()), "strata-burn is not built");
    }

    void factoryMapsEveryKind()
    {
        ClusterProfile profile;
        ClusterSession cluster(profile, std::make_shared<LocalRemoteShell>(), std::make_unique<SyntheticOrchestrator>(ClusterSnapshot{}));
        for (BurninTransportKind kind : {BurninTransportKind::Slurm, BurninTransportKind::Ssh, BurninTransportKind::Kubernetes}) {
            const auto transport = BurninTransportFactory::create(kind, &cluster);
            QVERIFY(transport);
            QCOMPARE(transport->kind(), kind);
        }
    }

    void runsOnEachNodeThroughTheHopAndIsJudged()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ClusterProfile profile;
        ClusterSession cluster(profile, std::make_shared<LocalRemoteShell>(), std::make_unique<SyntheticOrchestrator>(ClusterSnapshot{}));
        BurninSession session(&cluster, dir.filePath(QStringLiteral("history.sqlite")));
        BurninRequest r = request(dir);
        r.injectByNode.insert(QStringLiteral("node-b"), QStringLiteral("bitflip:1"));
        r.drainOnFail = true;
        std::optional<BurninVerdict> verdict;
        QStringList drained;
        connect(&session, &BurninSession::completed, this, [&](const BurninVerdict &v, const QStringList &d, const QStringList &) {
            verdict = v;
            drained = d;
        });
        QSignalSpy failed(&session, &BurninSession::failed);
        QSignalSpy submitted(&session, &BurninSession::submitted);
        session.start(r);
        QVERIFY(session.transport());
        QCOMPARE(session.transport()->kind(), BurninTransportKind::Ssh);
        QTRY_VERIFY_WITH_TIMEOUT(verdict || !failed.isEmpty(), 60000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QCOMPARE(submitted.size(), 1);
        QVERIFY(submitted.first().first().toString().startsWith(QLatin1String("ssh")));

        QCOMPARE(verdict->passed, false);
        QCOMPARE(verdict->failedNodes(), QStringList{QStringLiteral("node-b")});
        QCOMPARE(verdict->gpus.size(), 4);
        for (const BurninGpuVerdict &g : verdict->gpus) {
            QCOMPARE(g.backend, QStringLiteral("cpu"));
            QCOMPARE(g.passed, !(g.node == QLatin1String("node-b") && g.gpu == 1));
        }
        QCOMPARE(drained, QStringList{QStringLiteral("node-b")});
        QCOMPARE(session.transport()->jobIds(), QStringList()); // no scheduler job to spare when draining

        // Each node was reached through the hop: started once, probed while running.
        QFile hops(dir.filePath(QStringLiteral("hops")));
        QVERIFY(hops.open(QIODevice::ReadOnly));
        const QStringList reached = QString::fromUtf8(hops.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(reached.count(QStringLiteral("node-a")) >= 1 && reached.count(QStringLiteral("node-b")) >= 1, qPrintable(reached.join(u',')));
        QCOMPARE(QSet<QString>(reached.begin(), reached.end()), QSet<QString>({QStringLiteral("node-a"), QStringLiteral("node-b")}));
    }

    void cancelStopsTheAgentOnEveryNode()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        BurninSshTransport transport(std::make_shared<LocalRemoteShell>());
        transport.setPollIntervalMs(200);
        BurninRequest r = request(dir);
        r.durationSeconds = 120;
        QSignalSpy lines(&transport, &BurninTransport::lineReceived);
        QSignalSpy finished(&transport, &BurninTransport::finished);
        QSignalSpy failed(&transport, &BurninTransport::failed);
        transport.start(r);
        // Both agents said hello (their start lines), so both run.
        QTRY_VERIFY_WITH_TIMEOUT(transport.run().offsets.value(QStringLiteral("node-a")) > 0
                                     && transport.run().offsets.value(QStringLiteral("node-b")) > 0, 30000);
        QVERIFY(failed.isEmpty());
        const QMap<QString, QString> pids = transport.run().handleByNode;
        QCOMPARE(pids.size(), 2);
        for (const QString &pid : pids)
            QCOMPARE(::kill(pid.toInt(), 0), 0);
        transport.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        QCOMPARE(finished.first().first().toString(), QStringLiteral("CANCELLED"));
        QVERIFY(!transport.isRunning());
        for (const QString &pid : pids)
            QTRY_VERIFY_WITH_TIMEOUT(gone(pid), 10000);
    }

    void refusesWhatMustNotReachTheLoginNode_data()
    {
        QTest::addColumn<QString>("node");
        QTest::newRow("option") << QStringLiteral("-oProxyCommand=touch /tmp/x");
        QTest::newRow("command") << QStringLiteral("node;reboot");
        QTest::newRow("host list") << QStringLiteral("node[01-02]");
        QTest::newRow("space") << QStringLiteral("node a");
        QTest::newRow("empty") << QString();
    }
    void refusesWhatMustNotReachTheLoginNode()
    {
        QFETCH(QString, node);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        BurninSshTransport transport(std::make_shared<LocalRemoteShell>());
        BurninRequest r = request(dir);
        r.nodes = {QStringLiteral("node-a"), node};
        QSignalSpy failed(&transport, &BurninTransport::failed);
        QSignalSpy stages(&transport, &BurninTransport::stageChanged);
        transport.start(r);
        QCOMPARE(failed.size(), 1); // at once, before anything ran
        QVERIFY2(failed.first().first().toString().contains(QLatin1String("is not a host name")), qPrintable(failed.first().first().toString()));
        QCOMPARE(stages.size(), 0);
        QVERIFY(!QFile::exists(r.agentRemotePath));
    }

    void attachIsSlurmsAlone()
    {
        BurninSshTransport transport(std::make_shared<LocalRemoteShell>());
        QSignalSpy failed(&transport, &BurninTransport::failed);
        transport.attach(QStringLiteral("ssh123"), BurninRequest{});
        QCOMPARE(failed.size(), 1);
        QVERIFY(failed.first().first().toString().contains(QLatin1String("cannot be re-attached")));
    }

    void nodeFunctionQuotesTheHop()
    {
        const QString f = BurninSshTransport::nodeFunction({QStringLiteral("ssh"), QStringLiteral("-F"), QStringLiteral("/a b/c")});
        QVERIFY2(f.contains(QLatin1String("ssh -F '/a b/c' \"$1\" \"$2\"")), qPrintable(f));
        QVERIFY(BurninSshTransport::nodeFunction({}).contains(QLatin1String("ssh -o BatchMode=yes -o ConnectTimeout=10 \"$1\"")));
    }
};

QTEST_GUILESS_MAIN(TestBurninSshTransport)
#include "tst_burnin_ssh_transport.moc"
