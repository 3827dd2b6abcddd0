// KubeDirectApiClient::asApiAnswer: the one place an HTTP exchange's outcome (HttpResult, its
// own kinds) becomes the shape the kubectl route shares, so the informers, the router and the
// messages read both alike. Each kind row asserts the whole answer.
#include "kubernetes/kube_direct_api_client.h"

#include <QTest>

using namespace strata;

class TestKubeApiAnswer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eachKind_data()
    {
        QTest::addColumn<int>("error");
        QTest::addColumn<int>("statusCode");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("requestSent");
        QTest::addColumn<bool>("ran");
        QTest::addColumn<int>("exitStatus");
        QTest::addColumn<QByteArray>("stdoutData");
        QTest::addColumn<QByteArray>("stderrData");
        QTest::addColumn<int>("failure");
        QTest::addColumn<bool>("mayHaveRun");
        const QByteArray forbidden = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"pods is forbidden: "
                                     "User \\\"u\\\" cannot list resource \\\"pods\\\"\",\"reason\":\"Forbidden\",\"code\":403}";
        QTest::newRow("2xx") << int(HttpErrorKind::None) << 200 << QByteArray("{\"items\":[]}") << QString() << true
                             << true << 0 << QByteArray("{\"items\":[]}") << QByteArray() << int(ErrorKind::None) << false;
        QTest::newRow("403 with a Status") << int(HttpErrorKind::Status) << 403 << forbidden << QStringLiteral("HTTP 403 Forbidden") << true
                                           << true << 1 << QByteArray()
                                           << QByteArray("HTTP 403 Forbidden: pods is forbidden: User \"u\" cannot list resource \"pods\"")
                                           << int(ErrorKind::None) << false;
        QTest::newRow("401 without a body") << int(HttpErrorKind::Unauthorized) << 401 << QByteArray() << QStringLiteral("HTTP 401 Unauthorized") << true
                                            << true << 1 << QByteArray() << QByteArray("HTTP 401 Unauthorized") << int(ErrorKind::None) << false;
        QTest::newRow("502 from a proxy, not JSON") << int(HttpErrorKind::Status) << 502 << QByteArray("<html>bad gateway</html>\n")
                                                    << QStringLiteral("HTTP 502 Bad Gateway") << true << true << 1 << QByteArray()
                                                    << QByteArray("HTTP 502 Bad Gateway: <html>bad gateway</html>") << int(ErrorKind::None) << false;
        QTest::newRow("TLS") << int(HttpErrorKind::Tls) << 0 << QByteArray() << QStringLiteral("certificate verify failed") << true
                             << true << 1 << QByteArray() << QByteArray("certificate verify failed") << int(ErrorKind::None) << false;
        QTest::newRow("too large") << int(HttpErrorKind::TooLarge) << 200 << QByteArray() << QStringLiteral("larger than 1 MiB") << true
                                   << true << 1 << QByteArray() << QByteArray("larger than 1 MiB") << int(ErrorKind::None) << false;
        QTest::newRow("not sent") << int(HttpErrorKind::NotSent) << 0 << QByteArray() << QStringLiteral("the request was not sent: CR") << false
                                  << false << -1 << QByteArray() << QByteArray() << int(ErrorKind::InvalidRequest) << false;
        QTest::newRow("timeout after sending") << int(HttpErrorKind::Timeout) << 0 << QByteArray() << QStringLiteral("no answer within 30 s") << true
                                               << false << -1 << QByteArray() << QByteArray() << int(ErrorKind::Timeout) << true;
        QTest::newRow("timeout before sending") << int(HttpErrorKind::Timeout) << 0 << QByteArray() << QStringLiteral("no answer within 30 s") << false
                                                << false << -1 << QByteArray() << QByteArray() << int(ErrorKind::Timeout) << false;
    }
    void eachKind()
    {
        QFETCH(int, error);
        QFETCH(int, statusCode);
        QFETCH(QByteArray, body);
        QFETCH(QString, message);
        QFETCH(bool, requestSent);
        QFETCH(bool, ran);
        QFETCH(int, exitStatus);
        QFETCH(QByteArray, stdoutData);
        QFETCH(QByteArray, stderrData);
        QFETCH(int, failure);
        QFETCH(bool, mayHaveRun);
        HttpResult http;
        http.error = HttpErrorKind(error);
        http.statusCode = statusCode;
        http.body = body;
        http.message = message;
        http.requestSent = requestSent;
        http.durationMs = 42;
        const CommandResult r = KubeDirectApiClient::asApiAnswer(http);
        QCOMPARE(r.ran(), ran);
        if (ran) {
            QCOMPARE(r.exitStatus, exitStatus);
            QCOMPARE(r.stdoutData, stdoutData);
            QCOMPARE(r.stderrData, stderrData);
        } else {
            QCOMPARE(int(r.failure), failure);
            QCOMPARE(r.transportError, message);
            QCOMPARE(r.mayHaveRun, mayHaveRun);
        }
        QCOMPARE(r.durationMs, qint64(42));
    }
};

QTEST_APPLESS_MAIN(TestKubeApiAnswer)
#include "tst_kube_api_answer.moc"
