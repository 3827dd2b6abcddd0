// A hostile Kubernetes API server (or anyone on the path of a plain-text leg) against the bytes
// Strata reads and writes on the direct route: lines that never end in every state of the
// HTTP reader, an answer larger than any list page, and request fields that would carry a CR/LF
// into the request (a token from a kubeconfig or an exec plugin).

#include "net/http_exchange.h"
#include "net/http_response_reader.h"

#include <QTest>

using namespace strata;

namespace {

// n bytes of 'x', fed in 4 KiB pieces as a tunnel hands them over.
void feedEndless(HttpResponseReader &reader, qsizetype n)
{
    const QByteArray piece(4096, 'x');
    for (qsizetype sent = 0; sent < n && !reader.hasError(); sent += piece.size())
        reader.feed(piece);
}

} // namespace

class TestAttackHttpReader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aLineThatNeverEndsIsRefused_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QString>("error");
        const QByteArray chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        QTest::newRow("header line (bounded before)")
            << QByteArray("HTTP/1.1 200 OK\r\nX-Long: ") << QStringLiteral("the server's header is larger than 64 KiB");
        QTest::newRow("chunk size") << chunked + "5;ext=" << QStringLiteral("the server sent a chunk size line longer than 1 KiB");
        QTest::newRow("chunk end") << chunked + "5\r\nhello" << QStringLiteral("the server's chunk is longer than its size says");
        QTest::newRow("trailer") << chunked + "5\r\nhello\r\n0\r\nX-Trailer: "
                                 << QStringLiteral("the server's trailer is larger than 64 KiB");
        QTest::newRow("many trailer lines") << chunked + "0\r\n" + QByteArray("X-T: 1\r\n").repeated(10000)
                                            << QStringLiteral("the server's trailer is larger than 64 KiB");
    }
    void aLineThatNeverEndsIsRefused()
    {
        QFETCH(QByteArray, head);
        QFETCH(QString, error);
        HttpResponseReader reader;
        reader.feed(head);
        feedEndless(reader, 1024 * 1024); // 16 times the largest bound
        QCOMPARE(reader.error(), error);
        QVERIFY(reader.hasError());
        QVERIFY(!reader.isComplete());
    }

    void anOverlongLineInOnePieceIsRefused_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<QString>("error");
        const QByteArray chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        // A chunk size line that ends, but past the bound (leading zeros keep it a number).
        QTest::newRow("chunk size of 2 KiB") << chunked + QByteArray(2048, '0') + "5\r\nhello\r\n0\r\n\r\n"
                                             << QStringLiteral("the server sent a chunk size line longer than 1 KiB");
        QTest::newRow("chunk size 0x") << chunked + "0x5\r\nhello\r\n0\r\n\r\n"
                                       << QStringLiteral("the server sent an invalid chunk size");
        QTest::newRow("chunk size +") << chunked + "+5\r\nhello\r\n0\r\n\r\n"
                                      << QStringLiteral("the server sent an invalid chunk size");
    }
    void anOverlongLineInOnePieceIsRefused()
    {
        QFETCH(QByteArray, answer);
        QFETCH(QString, error);
        HttpResponseReader reader;
        reader.feed(answer);
        QCOMPARE(reader.error(), error);
        QCOMPARE(reader.takeBody(), QByteArray());
    }

    void aRequestFieldWithControlCharactersIsNeverSent_data()
    {
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<QByteArray>("authorization");
        QTest::addColumn<QString>("error");
        QTest::newRow("CR/LF token") << QByteArray("/version") << QByteArray("Bearer abc\r\nX-Injected: 1")
                                     << QStringLiteral("the request was not sent: the request's Authorization header value "
                                                       "holds a control character (CR, LF or another below 0x20), which "
                                                       "would end the field and add others");
        QTest::newRow("LF token") << QByteArray("/version") << QByteArray("Bearer abc\nX-Injected: 1")
                                  << QStringLiteral("the request was not sent: the request's Authorization header value "
                                                    "holds a control character (CR, LF or another below 0x20), which "
                                                    "would end the field and add others");
        QTest::newRow("NUL token") << QByteArray("/version") << QByteArray("Bearer abc\0def", 14)
                                   << QStringLiteral("the request was not sent: the request's Authorization header value "
                                                     "holds a control character (CR, LF or another below 0x20), which "
                                                     "would end the field and add others");
        QTest::newRow("CR/LF namespace in the target")
            << QByteArray("/api/v1/namespaces/default\r\nX-Injected: 1\r\n/pods") << QByteArray("Bearer abc")
            << QStringLiteral("the request was not sent: the request's target "
                              "/api/v1/namespaces/default%0D%0AX-Injected:%201%0D%0A/pods holds a space or a control character");
        QTest::newRow("space in the target") << QByteArray("/api/v1/namespaces/a b/pods") << QByteArray("Bearer abc")
                                             << QStringLiteral("the request was not sent: the request's target "
                                                               "/api/v1/namespaces/a%20b/pods holds a space or a control "
                                                               "character");
    }
    void aRequestFieldWithControlCharactersIsNeverSent()
    {
        QFETCH(QByteArray, target);
        QFETCH(QByteArray, authorization);
        QFETCH(QString, error);
        HttpExchange::Request request;
        request.target = target;
        request.host = "127.0.0.1:8001";
        request.headers.append(qMakePair(QByteArray("Authorization"), authorization));
        request.timeoutMs = 5000;
        HttpExchange exchange(std::nullopt, request);
        const QByteArray wire = exchange.takeOutgoing();
        QCOMPARE(wire, QByteArray()); // nothing of it goes on the wire
        QVERIFY(exchange.isFinished());
        const HttpResult result = exchange.httpResult();
        QCOMPARE(result.error, HttpErrorKind::NotSent);
        QCOMPARE(result.requestSent, false);
        QCOMPARE(result.message, error);
    }

    void aPlainRequestStillGoesOut()
    {
        HttpExchange::Request request;
        request.target = "/api/v1/pods?limit=500";
        request.host = "127.0.0.1:8001";
        request.headers.append(qMakePair(QByteArray("Authorization"), QByteArray("Bearer abc.def\tghi"))); // HTAB is allowed in a value
        HttpExchange exchange(std::nullopt, request);
        QCOMPARE(exchange.takeOutgoing(), QByteArray("GET /api/v1/pods?limit=500 HTTP/1.1\r\nHost: 127.0.0.1:8001\r\n"
                                                     "Authorization: Bearer abc.def\tghi\r\nConnection: close\r\n\r\n"));
    }

    void anAnswerLargerThanTheCapIsRefusedAsItStreams()
    {
        HttpExchange::Request request;
        request.target = "/api/v1/pods?limit=500";
        request.host = "127.0.0.1:8001";
        request.timeoutMs = 5000;
        request.maxBodyBytes = 1024 * 1024;
        HttpExchange exchange(std::nullopt, request);
        exchange.takeOutgoing();
        // A Content-Length of 1.5 GiB, then data until the exchange stops taking it.
        exchange.received("HTTP/1.1 200 OK\r\nContent-Length: 1610612736\r\n\r\n");
        const QByteArray piece(64 * 1024, 'x');
        int pieces = 0;
        while (!exchange.isFinished() && pieces < 1000) {
            exchange.received(piece);
            ++pieces;
        }
        QCOMPARE(pieces, 17); // refused at the first piece past 1 MiB, not at the end of the answer
        const HttpResult result = exchange.httpResult();
        QCOMPARE(result.error, HttpErrorKind::TooLarge);
        QCOMPARE(result.statusCode, 200);
        QCOMPARE(result.body, QByteArray());
        QCOMPARE(result.message, QStringLiteral("the server's answer is larger than 1 MiB; Strata stopped reading it"));
    }

    void theDefaultCapIsWellAboveAListPage()
    {
        // 500 objects of the largest kind (nodes with long image lists, some 50 KB each): 25 MB.
        QCOMPARE(HttpExchange::Request{}.maxBodyBytes, qsizetype(256) * 1024 * 1024);
    }
};

QTEST_APPLESS_MAIN(TestAttackHttpReader)
#include "tst_attack_http_reader.moc"
