#include "ssh/tunnel_relay.h"

#include <QTest>

#include <thread>

using namespace strata;

// TunnelRelay, a port-forward connection's conversation: bytes both ways, the end from either
// side, and the client's side writing from another thread while the tunnel takes.
class TestTunnelRelay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void relaysBothWays()
    {
        QByteArray fromService;
        int closes = 0;
        TunnelRelay relay([&](const QByteArray &d) { fromService += d; }, [&] { ++closes; });
        QVERIFY(relay.takeOutgoing().isEmpty());
        relay.send("GET / HTTP/1.1\r\n");
        relay.send("Host: x\r\n\r\n");
        QCOMPARE(relay.takeOutgoing(), QByteArray("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        QVERIFY(relay.takeOutgoing().isEmpty());
        relay.received("HTTP/1.1 200 OK\r\n");
        relay.received("\r\nhello");
        QCOMPARE(fromService, QByteArray("HTTP/1.1 200 OK\r\n\r\nhello"));
        QCOMPARE(relay.bytesSent(), qint64(27));
        QCOMPARE(relay.bytesReceived(), qint64(24));
        QVERIFY(!relay.isFinished());
        relay.remoteClosed();
        relay.remoteClosed();
        QCOMPARE(closes, 1);
        QVERIFY(relay.isFinished());
        QVERIFY(relay.result().ok());
    }

    void clientCloseFinishesAfterItsBytesWentOut()
    {
        TunnelRelay relay({}, {});
        relay.send("last words");
        relay.closeLocal();
        QVERIFY(!relay.isFinished()); // what it sent goes out first
        QCOMPARE(relay.takeOutgoing(), QByteArray("last words"));
        QVERIFY(relay.isFinished());
        relay.send("after close");
        QVERIFY(relay.takeOutgoing().isEmpty());
    }

    void sendFromAnotherThread()
    {
        TunnelRelay relay({}, {});
        constexpr int kChunks = 20000;
        std::thread client([&relay] {
            for (int i = 0; i < kChunks; ++i)
                relay.send("0123456789");
            relay.closeLocal();
        });
        QByteArray taken;
        while (!relay.isFinished())
            taken += relay.takeOutgoing();
        client.join();
        taken += relay.takeOutgoing();
        QCOMPARE(taken.size(), qsizetype(kChunks) * 10);
        QVERIFY(taken.startsWith("0123456789") && taken.endsWith("0123456789"));
    }
};

QTEST_GUILESS_MAIN(TestTunnelRelay)
#include "tst_tunnel_relay.moc"
