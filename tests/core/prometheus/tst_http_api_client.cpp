// HttpApiClient, the HTTP conversation PrometheusClient and AlertmanagerClient share (issue 24):
// its configuration checks, the requests it sends, and how it reads each way a reply ends,
// against CannedHttpServer on loopback.
#include "canned_http_server.h"

#include "prometheus/http_api_client.h"

#include <QTcpServer>
#include <QTest>

#include <memory>
#include <optional>

using namespace strata;
using strata::test::CannedHttpServer;

class TestHttpApiClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void configErrors_data();
    void configErrors();
    void endpointJoinsThePaths();
    void getSendsHeadersAndReadsTheAnswer();
    void postSendsTheBody();
    void refusedCredentials();
    void unreachable();
    void destroyedClientCancels();
};

namespace {

HttpApiClient::Config configFor(const QString &url)
{
    HttpApiClient::Config c;
    c.baseUrl = QUrl(url);
    c.timeoutMs = 5000;
    return c;
}

// A port nothing listens on: bound, then released.
int closedPort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost);
    return probe.serverPort();
}

} // namespace

void TestHttpApiClient::configErrors_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("error");
    QTest::newRow("ok") << "http://127.0.0.1:9090" << "" << "";
    QTest::newRow("ftp") << "ftp://host/x" << ""
                         << "Prometheus URL \"ftp://host/x\" is not an http(s) URL with a host";
    QTest::newRow("no host") << "http:///x" << "" << "Prometheus URL \"http:///x\" is not an http(s) URL with a host";
    QTest::newRow("token with a newline") << "http://127.0.0.1:9090" << "abc\ndef"
                                          << "the Prometheus token holds a control character or a space (character 4, "
                                             "code 10): not sent, since it would change the request's headers; copy "
                                             "the token again";
}

void TestHttpApiClient::configErrors()
{
    QFETCH(QString, url);
    QFETCH(QString, token);
    QFETCH(QString, error);
    HttpApiClient::Config config = configFor(url);
    config.bearerToken = token;
    const HttpApiClient client(QStringLiteral("Prometheus"), config);
    QCOMPARE(client.configError(), error);
}

void TestHttpApiClient::endpointJoinsThePaths()
{
    const HttpApiClient client(QStringLiteral("Alertmanager"), configFor(QStringLiteral("https://host/alertmanager//")));
    QCOMPARE(client.endpoint(QStringLiteral("/api/v2/alerts")), QUrl(QStringLiteral("https://host/alertmanager/api/v2/alerts")));
    QCOMPARE(client.displayUrl(), QStringLiteral("https://host/alertmanager"));
    const HttpApiClient bare(QStringLiteral("Prometheus"), configFor(QStringLiteral("http://127.0.0.1:9090")));
    QCOMPARE(bare.endpoint(QStringLiteral("/api/v1/query")), QUrl(QStringLiteral("http://127.0.0.1:9090/api/v1/query")));
}

void TestHttpApiClient::getSendsHeadersAndReadsTheAnswer()
{
    CannedHttpServer server([](const CannedHttpServer::Request &) {
        return CannedHttpServer::Response{422, "application/json", R"({"status":"error"})"};
    });
    QVERIFY(server.listen());
    HttpApiClient::Config config = configFor(server.url() + QStringLiteral("/prom/"));
    config.bearerToken = QStringLiteral("secret");
    HttpApiClient client(QStringLiteral("Prometheus"), config);
    std::optional<HttpApiClient::Reply> reply;
    client.get(client.endpoint(QStringLiteral("/api/v1/query")), [&reply](const HttpApiClient::Reply &r) { reply = r; });
    QCOMPARE(client.inFlight(), 1);
    QTRY_VERIFY(reply.has_value());
    QCOMPARE(client.inFlight(), 0);
    QCOMPARE(reply->failure, HttpApiClient::Failure::None);
    QCOMPARE(reply->httpStatus, 422); // an API error is an answer, for the owner to parse
    QCOMPARE(reply->body, QByteArray(R"({"status":"error"})"));
    QVERIFY(reply->error.isEmpty());
    QCOMPARE(server.requests().size(), 1);
    const CannedHttpServer::Request &sent = server.requests().first();
    QCOMPARE(sent.method, QByteArray("GET"));
    QCOMPARE(sent.target, QByteArray("/prom/api/v1/query"));
    QCOMPARE(sent.headers.value("accept"), QByteArray("application/json"));
    QCOMPARE(sent.headers.value("authorization"), QByteArray("Bearer secret"));
}

void TestHttpApiClient::postSendsTheBody()
{
    CannedHttpServer server([](const CannedHttpServer::Request &) {
        return CannedHttpServer::Response{200, "application/json", R"({"silenceID":"x"})"};
    });
    QVERIFY(server.listen());
    HttpApiClient::Config config = configFor(server.url());
    config.user = QStringLiteral("ops");
    config.password = QStringLiteral("pw");
    HttpApiClient client(QStringLiteral("Alertmanager"), config);
    std::optional<HttpApiClient::Reply> reply;
    client.post(client.endpoint(QStringLiteral("/api/v2/silences")), "application/json", R"({"comment":"c"})",
                [&reply](const HttpApiClient::Reply &r) { reply = r; });
    QTRY_VERIFY(reply.has_value());
    QCOMPARE(reply->failure, HttpApiClient::Failure::None);
    QCOMPARE(reply->httpStatus, 200);
    QCOMPARE(reply->body, QByteArray(R"({"silenceID":"x"})"));
    const CannedHttpServer::Request &sent = server.requests().first();
    QCOMPARE(sent.method, QByteArray("POST"));
    QCOMPARE(sent.target, QByteArray("/api/v2/silences"));
    QCOMPARE(sent.headers.value("content-type"), QByteArray("application/json"));
    QCOMPARE(sent.headers.value("authorization"), "Basic " + QByteArray("ops:pw").toBase64());
    QCOMPARE(sent.body, QByteArray(R"({"comment":"c"})"));
}

void TestHttpApiClient::refusedCredentials()
{
    CannedHttpServer server([](const CannedHttpServer::Request &) { return CannedHttpServer::Response{401, "text/plain", "no"}; });
    QVERIFY(server.listen());
    HttpApiClient client(QStringLiteral("Alertmanager"), configFor(server.url()));
    std::optional<HttpApiClient::Reply> reply;
    client.deleteResource(client.endpoint(QStringLiteral("/api/v2/silence/1")), [&reply](const HttpApiClient::Reply &r) { reply = r; });
    QTRY_VERIFY(reply.has_value());
    QCOMPARE(server.requests().first().method, QByteArray("DELETE"));
    QCOMPARE(reply->failure, HttpApiClient::Failure::Refused);
    QCOMPARE(reply->httpStatus, 401);
    QVERIFY(reply->body.isEmpty());
    QCOMPARE(reply->error, QStringLiteral("Alertmanager at %1 refused the request (HTTP 401): check the token or "
                                          "user/password in the profile").arg(server.url()));
}

void TestHttpApiClient::unreachable()
{
    const QString url = QStringLiteral("http://127.0.0.1:%1").arg(closedPort());
    HttpApiClient client(QStringLiteral("Prometheus"), configFor(url));
    std::optional<HttpApiClient::Reply> reply;
    client.get(client.endpoint(QStringLiteral("/api/v1/alerts")), [&reply](const HttpApiClient::Reply &r) { reply = r; });
    QTRY_VERIFY(reply.has_value());
    QCOMPARE(reply->failure, HttpApiClient::Failure::Transport);
    QCOMPARE(reply->httpStatus, 0);
    QCOMPARE(reply->error, QStringLiteral("Prometheus at %1 not reachable: Connection refused").arg(url));
}

void TestHttpApiClient::destroyedClientCancels()
{
    CannedHttpServer server([](const CannedHttpServer::Request &) { return CannedHttpServer::Response{}; });
    server.setSilent(true);
    QVERIFY(server.listen());
    auto client = std::make_unique<HttpApiClient>(QStringLiteral("Prometheus"), configFor(server.url()));
    std::optional<HttpApiClient::Reply> reply;
    client->get(client->endpoint(QStringLiteral("/api/v1/query")), [&reply](const HttpApiClient::Reply &r) { reply = r; });
    QTRY_COMPARE(server.requests().size(), 1);
    client.reset();
    QVERIFY(reply.has_value()); // at once, in the destructor
    QCOMPARE(reply->failure, HttpApiClient::Failure::Canceled);
    QCOMPARE(reply->httpStatus, 0);
    QCOMPARE(reply->error,
             QStringLiteral("request to Prometheus at %1 canceled: the client was closed").arg(server.url()));
}

QTEST_GUILESS_MAIN(TestHttpApiClient)

#include "tst_http_api_client.moc"
