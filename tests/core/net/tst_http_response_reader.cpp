// HttpResponseReader on answers cut into every possible pair of pieces, and on broken ones.
// The watch answer is the kube stand-in's own bytes (tests/data/kubernetes/capture.sh).

#include "net/http_response_reader.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

struct Read
{
    HttpResponseReader reader;
    QByteArray body;
};

// Feeds the answer in two pieces cut at `cut` (then closes the connection when asked).
void feedCut(Read &read, const QByteArray &answer, qsizetype cut, bool close)
{
    read.reader.feed(answer.left(cut));
    read.body += read.reader.takeBody();
    read.reader.feed(answer.mid(cut));
    read.body += read.reader.takeBody();
    if (close) {
        read.reader.endOfInput();
        read.body += read.reader.takeBody();
    }
}

QByteArray capturedWatch()
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/kubernetes/standin_http_watch_answer.bin"));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestHttpResponseReader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void answersReadInAnyPieces_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<bool>("closeAfter");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("content-length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                                      "Content-Length: 11\r\n\r\n{\"a\":\"b c\"}")
                                        << false << 200 << QByteArray("{\"a\":\"b c\"}");
        QTest::newRow("chunked with extension and trailer")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n"
                          "7\r\n, world\r\n0\r\nX-Trailer: 1\r\n\r\n")
            << false << 200 << QByteArray("hello, world");
        QTest::newRow("until close") << QByteArray("HTTP/1.0 200 OK\r\n\r\nall of it") << true << 200
                                     << QByteArray("all of it");
        QTest::newRow("bare LF lines") << QByteArray("HTTP/1.1 404 Not Found\nContent-Length: 2\n\nno") << false << 404
                                       << QByteArray("no");
        QTest::newRow("100 continue first") << QByteArray("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\n"
                                                          "Content-Length: 2\r\n\r\nok")
                                            << false << 201 << QByteArray("ok");
        QTest::newRow("no content") << QByteArray("HTTP/1.1 204 No Content\r\n\r\n") << false << 204 << QByteArray();
    }
    void answersReadInAnyPieces()
    {
        QFETCH(QByteArray, answer);
        QFETCH(bool, closeAfter);
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        for (qsizetype cut = 0; cut <= answer.size(); ++cut) {
            Read read;
            feedCut(read, answer, cut, closeAfter);
            QVERIFY2(read.reader.isComplete(), qPrintable(QStringLiteral("cut at %1: %2").arg(cut).arg(read.reader.error())));
            QCOMPARE(read.reader.statusCode(), status);
            QCOMPARE(read.body, body);
        }
    }

    void headersAreFoundWhateverTheirCase()
    {
        HttpResponseReader reader;
        reader.feed("HTTP/1.1 401 Unauthorized\r\ncontent-type:  application/json \r\nContent-Length: 0\r\n\r\n");
        QVERIFY(reader.isComplete());
        QCOMPARE(reader.reasonPhrase(), QByteArray("Unauthorized"));
        QCOMPARE(reader.header("Content-Type"), QByteArray("application/json"));
        QCOMPARE(reader.header("X-Absent"), QByteArray());
    }

    void theStandInsWatchAnswerStreamsItsEvents()
    {
        const QByteArray answer = capturedWatch();
        QVERIFY2(!answer.isEmpty(), "tests/data/kubernetes/standin_http_watch_answer.bin is missing");
        // Fed as a slow network would hand it over: 7 bytes at a time; events come out as they end.
        HttpResponseReader reader;
        QByteArray body;
        for (qsizetype at = 0; at < answer.size(); at += 7) {
            reader.feed(answer.mid(at, 7));
            body += reader.takeBody();
        }
        QVERIFY2(reader.isComplete(), qPrintable(reader.error()));
        QCOMPARE(reader.statusCode(), 200);
        QCOMPARE(reader.header("Transfer-Encoding"), QByteArray("chunked"));
        const QList<QByteArray> lines = body.trimmed().split('\n');
        QVERIFY(lines.size() >= 2);
        for (const QByteArray &line : lines)
            QVERIFY2(line.startsWith("{\"type\""), line.left(80).constData());
    }

    void brokenAnswersAreErrors_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<bool>("closeAfter");
        QTest::addColumn<QString>("error");
        QTest::newRow("not http") << QByteArray("SSH-2.0-OpenSSH_9.2\r\n") << false
                                  << QStringLiteral("the server did not answer with HTTP/1.x");
        QTest::newRow("no status code") << QByteArray("HTTP/1.1 OK\r\n") << false
                                        << QStringLiteral("the server's status line has no status code");
        QTest::newRow("folded header") << QByteArray("HTTP/1.1 200 OK\r\n folded\r\n") << false
                                       << QStringLiteral("the server sent a header line that is not a field");
        QTest::newRow("bad chunk size") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
                                        << false << QStringLiteral("the server sent an invalid chunk size");
        QTest::newRow("chunk overrun") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n")
                                       << false << QStringLiteral("the server's chunk is longer than its size says");
        QTest::newRow("truncated body") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc") << true
                                        << QStringLiteral("the server closed the connection before its answer was complete");
        QTest::newRow("nothing") << QByteArray() << true
                                 << QStringLiteral("the server closed the connection without answering");
        QTest::newRow("gzip") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n") << false
                              << QStringLiteral("the server sent a body in a transfer coding Strata does not read (gzip)");
        QTest::newRow("bad length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n") << false
                                    << QStringLiteral("the server sent an invalid Content-Length");
    }
    void brokenAnswersAreErrors()
    {
        QFETCH(QByteArray, answer);
        QFETCH(bool, closeAfter);
        QFETCH(QString, error);
        HttpResponseReader reader;
        reader.feed(answer);
        if (closeAfter)
            reader.endOfInput();
        QVERIFY(reader.hasError());
        QVERIFY(!reader.isComplete());
        QVERIFY2(reader.error().startsWith(error), qPrintable(reader.error()));
        reader.feed("HTTP/1.1 200 OK\r\n\r\n"); // nothing more is read after an error
        QVERIFY(reader.hasError());
    }

    void aHugeHeaderIsRefused()
    {
        HttpResponseReader reader;
        reader.feed("HTTP/1.1 200 OK\r\n");
        const QByteArray field = "X-Filler: " + QByteArray(1000, 'x') + "\r\n";
        for (int i = 0; i < 70 && !reader.hasError(); ++i)
            reader.feed(field);
        QVERIFY(reader.hasError());
        QCOMPARE(reader.error(), QStringLiteral("the server's header is larger than 64 KiB"));
    }
};

QTEST_APPLESS_MAIN(TestHttpResponseReader)
#include "tst_http_response_reader.moc"
