// SshRemoteShell's worker thread under concurrent use, against a port where nothing listens:
// calls from several threads at once, the person's answers (trustFingerprint, setPassphrase)
// interleaved with them, and the shell destroyed with work still queued. Every future finishes
// with a typed failure and nothing is lost; run under TSan (scripts/sanitize thread) it is the
// race check of the one-worker-per-connection design.

#include "ssh/ssh_remote_shell.h"

#include <QTcpServer>
#include <QTest>
#include <QThread>

#include <thread>
#include <vector>

using namespace strata;

namespace {

// A loopback port nothing listens on (bound, then released).
int closedPort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost))
        return 9;
    return server.serverPort();
}

SshOptions unreachable()
{
    SshOptions o;
    o.host = QStringLiteral("127.0.0.1");
    o.port = closedPort();
    o.user = QStringLiteral("nobody");
    o.readSshConfig = false;
    o.connectTimeoutSeconds = 2;
    return o;
}

} // namespace

class TestSshRemoteShell : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void concurrentCallersAllGetATypedAnswer()
    {
        SshRemoteShell shell(unreachable());
        constexpr int threads = 4, callsPerThread = 50;
        std::vector<QFuture<CommandResult>> futures(threads * callsPerThread);
        std::vector<std::thread> callers;
        for (int t = 0; t < threads; ++t)
            callers.emplace_back([&, t] {
                for (int i = 0; i < callsPerThread; ++i) {
                    futures[size_t(t * callsPerThread + i)] = shell.run({QStringLiteral("echo"), QString::number(i)});
                    if (i % 10 == 0)
                        shell.setPassphrase(QStringLiteral("p%1").arg(i)); // resets the backoff
                }
            });
        for (std::thread &c : callers)
            c.join();
        for (QFuture<CommandResult> &f : futures) {
            f.waitForFinished();
            const CommandResult r = f.result();
            QVERIFY(!r.ran());
            QCOMPARE(r.failure, ErrorKind::ConnectFailed);
            QVERIFY(!r.transportError.isEmpty());
        }
    }

    void destroyedWithWorkQueued()
    {
        QVector<QFuture<CommandResult>> futures;
        {
            SshRemoteShell shell(unreachable());
            for (int i = 0; i < 100; ++i) {
                futures << shell.run({QStringLiteral("true")});
                if (i % 25 == 0)
                    shell.trustFingerprint(QStringLiteral("SHA256:x%1").arg(i));
            }
        } // joins the worker: what was queued is answered, not dropped
        for (QFuture<CommandResult> &f : futures) {
            QVERIFY(f.isFinished());
            QCOMPARE(f.result().failure, ErrorKind::ConnectFailed);
        }
    }
};

QTEST_GUILESS_MAIN(TestSshRemoteShell)
#include "tst_ssh_remote_shell.moc"
