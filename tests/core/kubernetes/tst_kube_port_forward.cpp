#include "kube_port_forward.h"
#include "private_sshd.h"
#include "ssh/ssh_remote_shell.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

// KubePortForward over a real SSH connection (a private sshd on a free loopback port; root):
// each local connection a direct-tcpip channel to a "pod" listening on a 127.244.x.y address
// (as the kube stand-in's pod IPs are), bytes both ways, several connections at once, a refused
// channel said as such, and close() ending what is open.
class TestKubePortForward : public QObject
{
    Q_OBJECT

private:
    test::PrivateSshd m_sshd;
    QTemporaryDir m_dir;
    std::shared_ptr<SshRemoteShell> m_shell;
    QTcpServer m_pod; // echoes what it gets, upper-cased: proof it went through the pod
    QTcpServer m_answeringPod; // answers a request with 256 KB and closes at once, as HTTP/1.0 servers do
    static constexpr int kAnswerBytes = 256 * 1024;
    static constexpr const char *kPodIp = "127.244.77.7";

    KubeForwardTarget target(int port) const
    {
        KubeForwardTarget t;
        t.ok = true;
        t.podNamespace = QStringLiteral("serve");
        t.podName = QStringLiteral("vllm-0");
        t.podIp = QString::fromLatin1(kPodIp);
        t.port = port;
        return t;
    }

    // Connects to the forward, sends request, and reads until the service closes or `expect`
    // bytes came.
    static QByteArray exchange(quint16 port, const QByteArray &request, qsizetype expect)
    {
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, port);
        if (!client.waitForConnected(5000))
            return "not connected";
        client.write(request);
        QByteArray answer;
        QElapsedTimer clock;
        clock.start();
        while (answer.size() < expect && clock.elapsed() < 20000) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            client.waitForReadyRead(20);
            answer += client.readAll();
        }
        return answer;
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString why = m_sshd.start();
        if (!why.isEmpty())
            QSKIP(qPrintable(why));
        SshOptions o;
        o.host = QStringLiteral("127.0.0.1");
        o.port = m_sshd.port();
        o.user = QStringLiteral("root");
        o.identityFile = m_sshd.path(QStringLiteral("id_ed25519"));
        o.knownHostsFile = m_dir.filePath(QStringLiteral("known_hosts"));
        o.acceptNewHostKey = true;
        o.readSshConfig = false;
        m_shell = std::make_shared<SshRemoteShell>(o);
        QVERIFY(m_pod.listen(QHostAddress(QString::fromLatin1(kPodIp)), 0));
        connect(&m_pod, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_pod.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [s] { s->write(s->readAll().toUpper()); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
        QVERIFY(m_answeringPod.listen(QHostAddress(QString::fromLatin1(kPodIp)), 0));
        connect(&m_answeringPod, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_answeringPod.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [s] {
                    if (!s->readAll().contains("\r\n\r\n"))
                        return;
                    s->write(QByteArray(kAnswerBytes, 'a'));
                    s->disconnectFromHost();
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }

    // The service's answer reaches the client whole though the service closed right after it.
    void answerBeforeCloseArrivesWhole()
    {
        KubePortForward forward(m_shell, target(m_answeringPod.serverPort()));
        QString error;
        QVERIFY2(forward.listen(0, &error), qPrintable(error));
        for (int i = 0; i < 5; ++i) {
            QTcpSocket client;
            client.connectToHost(QHostAddress::LocalHost, forward.localPort());
            QVERIFY(client.waitForConnected(5000));
            client.write("GET / HTTP/1.0\r\n\r\n");
            QByteArray answer;
            QTRY_VERIFY_WITH_TIMEOUT((answer += client.readAll(), client.state() == QAbstractSocket::UnconnectedState), 10000);
            answer += client.readAll();
            QCOMPARE(answer.size(), qsizetype(kAnswerBytes));
        }
    }

    void relaysBytesBothWays()
    {
        KubePortForward forward(m_shell, target(m_pod.serverPort()));
        QString error;
        QVERIFY2(forward.listen(0, &error), qPrintable(error));
        QVERIFY(forward.localPort() > 0);
        QCOMPARE(forward.describe(), QStringLiteral("127.0.0.1:%1 -> %2:%3").arg(forward.localPort()).arg(kPodIp).arg(m_pod.serverPort()));
        QCOMPARE(exchange(forward.localPort(), "hello pod", 9), QByteArray("HELLO POD"));
        // A megabyte each way, in the tunnel's own chunks.
        const QByteArray big(1 << 20, 'x');
        const QByteArray back = exchange(forward.localPort(), big, big.size());
        QCOMPARE(back.size(), big.size());
        QCOMPARE(back, QByteArray(1 << 20, 'X'));
        QCOMPARE(forward.connectionsAccepted(), 2);
        QTRY_COMPARE_WITH_TIMEOUT(forward.openConnections(), 0, 10000);
    }

    void connectionsSideBySide()
    {
        KubePortForward forward(m_shell, target(m_pod.serverPort()));
        QString error;
        QVERIFY2(forward.listen(0, &error), qPrintable(error));
        QTcpSocket a, b;
        a.connectToHost(QHostAddress::LocalHost, forward.localPort());
        b.connectToHost(QHostAddress::LocalHost, forward.localPort());
        QTRY_VERIFY(a.state() == QAbstractSocket::ConnectedState && b.state() == QAbstractSocket::ConnectedState);
        a.write("first");
        b.write("second");
        QByteArray fromA, fromB;
        QTRY_VERIFY_WITH_TIMEOUT((fromA += a.readAll(), fromB += b.readAll(), fromA == "FIRST" && fromB == "SECOND"), 10000);
        QTRY_COMPARE(forward.openConnections(), 2);
        // close() ends them: the clients see their connections end.
        forward.close();
        QVERIFY(!forward.isListening());
        QCOMPARE(forward.openConnections(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(a.state(), QAbstractSocket::UnconnectedState, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(b.state(), QAbstractSocket::UnconnectedState, 5000);
    }

    void refusedChannelIsSaid()
    {
        QTcpServer closed; // a port that was free: nothing listens there once it is closed
        QVERIFY(closed.listen(QHostAddress(QString::fromLatin1(kPodIp)), 0));
        const quint16 port = closed.serverPort();
        closed.close();
        KubePortForward forward(m_shell, target(port));
        QSignalSpy failed(&forward, &KubePortForward::connectionFailed);
        QString error;
        QVERIFY2(forward.listen(0, &error), qPrintable(error));
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, forward.localPort());
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000);
        QCOMPARE(failed.first().at(1).value<ErrorKind>(), ErrorKind::ConnectFailed);
        const QString message = failed.first().at(0).toString();
        QVERIFY2(message.contains(QStringLiteral("could not connect to %1:%2 (pod serve/vllm-0)").arg(kPodIp).arg(port)),
                 qPrintable(message));
        QCOMPARE(forward.lastError(), message);
        QTRY_COMPARE_WITH_TIMEOUT(client.state(), QAbstractSocket::UnconnectedState, 5000);
    }

    void takenPortRefused()
    {
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost, 0));
        KubePortForward forward(m_shell, target(m_pod.serverPort()));
        QString error;
        QVERIFY(!forward.listen(taken.serverPort(), &error));
        QVERIFY2(error.contains(QStringLiteral("cannot listen on 127.0.0.1:%1").arg(taken.serverPort())), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestKubePortForward)
#include "tst_kube_port_forward.moc"
