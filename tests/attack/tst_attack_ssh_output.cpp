// A login node that writes without end against SshRemoteShell: a command's output is bounded
// (SshOptions::maxCommandOutputBytes, 1 GiB in use; 1 MiB here so the test takes a second), the
// command fails with words a person can act on, and the connection goes on serving the others.
// The login node is a private OpenSSH sshd on a free loopback port, with keys made for the run.

#include "ssh/ssh_remote_shell.h"

#include <QDir>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

class TestAttackSshOutput : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QProcess m_sshd;
    int m_port = 0;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    bool keygen(const QString &name)
    {
        QProcess process;
        process.start(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                      QStringLiteral("-N"), QString(), QStringLiteral("-f"), path(name)});
        return process.waitForFinished(30000) && process.exitCode() == 0;
    }

    SshOptions options() const
    {
        SshOptions o;
        o.host = QStringLiteral("127.0.0.1");
        o.port = m_port;
        o.user = qEnvironmentVariable("USER", QStringLiteral("root"));
        o.identityFile = path(QStringLiteral("user_key"));
        o.knownHostsFile = path(QStringLiteral("known_hosts"));
        o.acceptNewHostKey = true;
        o.readSshConfig = false;
        o.commandTimeoutSeconds = 20;
        o.maxCommandOutputBytes = 1024 * 1024;
        return o;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFile::exists(QStringLiteral("/usr/sbin/sshd")))
            QSKIP("needs OpenSSH's sshd (/usr/sbin/sshd)");
        QVERIFY(m_dir.isValid());
        QDir().mkpath(QStringLiteral("/run/sshd")); // sshd's privilege separation folder
        QVERIFY(keygen(QStringLiteral("host_key")));
        QVERIFY(keygen(QStringLiteral("user_key")));
        QVERIFY(QFile::copy(path(QStringLiteral("user_key.pub")), path(QStringLiteral("authorized_keys"))));
        {
            QTcpServer probe; // a free port, released for sshd
            QVERIFY(probe.listen(QHostAddress::LocalHost));
            m_port = probe.serverPort();
        }
        QFile config(path(QStringLiteral("sshd_config")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral("Port %1\nListenAddress 127.0.0.1\nHostKey %2\nPidFile %3\nAuthorizedKeysFile %4\n"
                                    "StrictModes no\nUsePAM no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                                    "PermitRootLogin prohibit-password\nPrintMotd no\nPrintLastLog no\nUseDNS no\n")
                         .arg(m_port)
                         .arg(path(QStringLiteral("host_key")), path(QStringLiteral("sshd.pid")),
                              path(QStringLiteral("authorized_keys")))
                         .toUtf8());
        config.close();
        m_sshd.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_sshd.start(QStringLiteral("/usr/sbin/sshd"), {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"),
                                                        path(QStringLiteral("sshd_config"))});
        QVERIFY(m_sshd.waitForStarted(10000));
        QTRY_VERIFY_WITH_TIMEOUT(
            [this] {
                QTcpSocket socket;
                socket.connectToHost(QHostAddress::LocalHost, quint16(m_port));
                return socket.waitForConnected(200);
            }(),
            10000);
    }

    void cleanupTestCase()
    {
        if (m_sshd.state() != QProcess::NotRunning) {
            m_sshd.terminate();
            m_sshd.waitForFinished(5000);
        }
    }

    void endlessOutputEndsTheCommandNotTheConnection()
    {
        SshRemoteShell shell(options());
        // Past it: refused while it streams (the command would write 64 MiB).
        const CommandResult large = shell.run({QStringLiteral("head"), QStringLiteral("-c"), QStringLiteral("67108864"),
                                               QStringLiteral("/dev/zero")})
                                        .result();
        QCOMPARE(large.failure, ErrorKind::ParseFailed);
        QCOMPARE(large.mayHaveRun, true);
        QCOMPARE(large.stdoutData, QByteArray());
        QCOMPARE(large.transportError, QStringLiteral("the command on %1 wrote more than 1 MiB; Strata stopped reading it "
                                                      "(no real answer is that large)")
                                           .arg(options().describe()));
        // The connection serves the next command, whose output is read whole. (Each command here
        // costs sshd about 2 s to start on a loaded machine: two are enough.)
        const CommandResult after = shell.run({QStringLiteral("echo"), QStringLiteral("still here")}).result();
        QVERIFY2(after.ok(), qPrintable(after.errorText()));
        QCOMPARE(after.stdoutData, QByteArray("still here\n"));
    }

    void theBoundInUseIsWellAboveTheLargestRealOutput()
    {
        QCOMPARE(SshOptions{}.maxCommandOutputBytes, qint64(1024) * 1024 * 1024);
    }
};

QTEST_GUILESS_MAIN(TestAttackSshOutput)
#include "tst_attack_ssh_output.moc"
