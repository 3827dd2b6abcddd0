// PrometheusClient against a real Debian prometheus started by the test on a free loopback
// port (temporary storage, scraping itself), and against a canned HTTP server for what a real
// Prometheus will not do on demand (never answering, checking credentials, huge bodies).
#include "canned_http_server.h"
#include "prometheus_process.h"

#include "prometheus/prometheus_client.h"

#include <QFile>
#include <QTest>
#include <QThread>

#include <memory>

using namespace strata;
using strata::test::CannedHttpServer;
using strata::test::PrometheusProcess;
using ResultType = PrometheusResponse::ResultType;

namespace {

PrometheusResponse wait(QFuture<PrometheusResponse> future, int timeoutMs = 10000)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!future.isFinished() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    if (!future.isFinished())
        qFatal("Prometheus request did not finish within %d ms", timeoutMs);
    return future.result();
}

PrometheusClient::Config configFor(const QString &url, int timeoutMs = 10000)
{
    PrometheusClient::Config c;
    c.baseUrl = QUrl(url);
    c.timeoutMs = timeoutMs;
    return c;
}

} // namespace

class TestPrometheusClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void instantQuery();
    void rangeQuery();
    void queryErrors_data();
    void queryErrors();
    void plusSignSurvivesEncoding();
    void longQueryGoesByPost();
    void connectionRefused();
    void timeout();
    void credentialsAreSent_data();
    void credentialsAreSent();
    void unauthorisedIsAnAuthError();
    void bigBodyIsParsedOffTheCallingThread();
    void destroyingTheClientFinishesFutures();
    void badConfiguration();

private:
    std::unique_ptr<PrometheusProcess> m_prometheus;
};

void TestPrometheusClient::initTestCase()
{
    m_prometheus = std::make_unique<PrometheusProcess>();
    QVERIFY2(m_prometheus->start(), qPrintable(m_prometheus->error()));
    // Wait for the first self-scrape, so `up` has a sample.
    PrometheusClient client(configFor(m_prometheus->url()));
    QTRY_VERIFY_WITH_TIMEOUT(wait(client.query(QStringLiteral("up"))).series.size() == 1, 10000);
}

void TestPrometheusClient::instantQuery()
{
    PrometheusClient client(configFor(m_prometheus->url()));
    const PrometheusResponse r = wait(client.query(QStringLiteral("up{job=\"prometheus\"}")));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.httpStatus, 200);
    QCOMPARE(r.resultType, ResultType::Vector);
    QCOMPARE(r.series.size(), 1);
    QCOMPARE(r.series[0].label(u"job"), QStringLiteral("prometheus"));
    QCOMPARE(r.series[0].label(u"instance"), QStringLiteral("127.0.0.1:%1").arg(m_prometheus->port()));
    QCOMPARE(r.series[0].samples.size(), 1);
    QCOMPARE(r.series[0].samples[0].value, 1.0);
    QCOMPARE(r.query, QStringLiteral("up{job=\"prometheus\"}"));
    QVERIFY(r.elapsedMs >= 0);
    QVERIFY(r.bytes > 50);
    QCOMPARE(client.inFlight(), 0);
}

void TestPrometheusClient::rangeQuery()
{
    PrometheusClient client(configFor(m_prometheus->url()));
    // One second ahead: the first sample may be younger than a whole second.
    const qint64 now = QDateTime::currentSecsSinceEpoch() + 1;
    const PrometheusResponse r = wait(client.queryRange(QStringLiteral("up"), now - 30, now, 1));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.resultType, ResultType::Matrix);
    QCOMPARE(r.series.size(), 1);
    const QVector<PrometheusSample> &samples = r.series[0].samples;
    QVERIFY(!samples.isEmpty());
    for (const PrometheusSample &s : samples) {
        QVERIFY(s.time >= now - 30 && s.time <= now);
        QCOMPARE(s.value, 1.0);
    }
}

void TestPrometheusClient::queryErrors_data()
{
    QTest::addColumn<QString>("promql");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("errorType");
    QTest::addColumn<QString>("contains");
    QTest::newRow("unclosed parenthesis") << "sum(up" << 400 << "bad_data"
                                          << "Prometheus rejected the query (HTTP 400, bad_data)";
    QTest::newRow("unknown function") << "no_such_function(up)" << 400 << "bad_data"
                                      << "unknown function with name \"no_such_function\"";
}

void TestPrometheusClient::queryErrors()
{
    QFETCH(QString, promql);
    QFETCH(int, status);
    QFETCH(QString, errorType);
    QFETCH(QString, contains);
    PrometheusClient client(configFor(m_prometheus->url()));
    const PrometheusResponse r = wait(client.query(promql));
    QVERIFY(!r.ok);
    QCOMPARE(r.httpStatus, status);
    QCOMPARE(r.errorType, errorType);
    QVERIFY2(r.error.contains(contains), qPrintable(r.error));
    QCOMPARE(r.query, promql);
}

void TestPrometheusClient::plusSignSurvivesEncoding()
{
    PrometheusClient client(configFor(m_prometheus->url()));
    const PrometheusResponse r = wait(client.query(QStringLiteral("1+2 * 3")));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.resultType, ResultType::Scalar);
    QVERIFY(r.scalar.has_value());
    QCOMPARE(r.scalar->value, 7.0);
}

void TestPrometheusClient::longQueryGoesByPost()
{
    // A job regex of 1,000 alternatives: far past what a GET URL should carry.
    QStringList jobs;
    for (int i = 0; i < 1000; ++i)
        jobs << QStringLiteral("job-%1").arg(i);
    jobs << QStringLiteral("prometheus");
    const QString promql = QStringLiteral("up{job=~\"%1\"}").arg(jobs.join(QLatin1Char('|')));
    QVERIFY(promql.size() > 5000);
    PrometheusClient client(configFor(m_prometheus->url()));
    const PrometheusResponse r = wait(client.query(promql));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.series.size(), 1);

    // What went over the wire: a form POST carrying the whole query.
    CannedHttpServer server([](const CannedHttpServer::Request &) {
        return CannedHttpServer::Response{200, "application/json", R"({"status":"success","data":{"resultType":"vector","result":[]}})"};
    });
    QVERIFY(server.listen());
    PrometheusClient recorded(configFor(server.url()));
    QVERIFY(wait(recorded.query(promql)).ok);
    const CannedHttpServer::Request &sent = server.requests().first();
    QCOMPARE(sent.method, QByteArray("POST"));
    QCOMPARE(sent.target, QByteArray("/api/v1/query"));
    QCOMPARE(sent.headers.value("content-type"), QByteArray("application/x-www-form-urlencoded"));
    QCOMPARE(QUrlQuery(QString::fromUtf8(sent.body)).queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded), promql);
}

void TestPrometheusClient::connectionRefused()
{
    const int port = PrometheusProcess::freePort();
    PrometheusClient client(configFor(QStringLiteral("http://127.0.0.1:%1").arg(port)));
    const PrometheusResponse r = wait(client.query(QStringLiteral("up")));
    QVERIFY(!r.ok);
    QCOMPARE(r.errorType, QStringLiteral("transport"));
    QCOMPARE(r.httpStatus, 0);
    QCOMPARE(r.error, QStringLiteral("Prometheus at http://127.0.0.1:%1 not reachable: Connection refused").arg(port));
}

void TestPrometheusClient::timeout()
{
    CannedHttpServer silent([](const CannedHttpServer::Request &) { return CannedHttpServer::Response{}; });
    silent.setSilent(true);
    QVERIFY(silent.listen());
    PrometheusClient client(configFor(silent.url(), 300));
    QElapsedTimer timer;
    timer.start();
    const PrometheusResponse r = wait(client.query(QStringLiteral("up")));
    QVERIFY(!r.ok);
    QCOMPARE(r.errorType, QStringLiteral("timeout"));
    QCOMPARE(r.error, QStringLiteral("Prometheus at %1 did not answer within 0.3 s").arg(silent.url()));
    QVERIFY2(timer.elapsed() < 3000, "the transfer timeout did not fire");
    QCOMPARE(silent.requests().size(), 1);
}

void TestPrometheusClient::credentialsAreSent_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("password");
    QTest::addColumn<QByteArray>("authorization");
    QTest::newRow("bearer") << "s3cret-token" << "" << "" << QByteArray("Bearer s3cret-token");
    QTest::newRow("basic") << "" << "alice" << "pa:ss" << QByteArray("Basic " + QByteArray("alice:pa:ss").toBase64());
    QTest::newRow("bearer wins over basic") << "tok" << "alice" << "pw" << QByteArray("Bearer tok");
    QTest::newRow("none") << "" << "" << "" << QByteArray();
}

void TestPrometheusClient::credentialsAreSent()
{
    QFETCH(QString, token);
    QFETCH(QString, user);
    QFETCH(QString, password);
    QFETCH(QByteArray, authorization);
    QFile body(QStringLiteral(STRATA_TEST_DATA "/prometheus/strata-capture/vector_up.json"));
    QVERIFY(body.open(QIODevice::ReadOnly));
    const QByteArray canned = body.readAll();
    CannedHttpServer server([canned](const CannedHttpServer::Request &) { return CannedHttpServer::Response{200, "application/json", canned}; });
    QVERIFY(server.listen());
    PrometheusClient::Config config = configFor(server.url() + QStringLiteral("/prom/"));
    config.bearerToken = token;
    config.user = user;
    config.password = password;
    PrometheusClient client(config);
    const PrometheusResponse r = wait(client.query(QStringLiteral("up")));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.series.size(), 3);
    QCOMPARE(server.requests().size(), 1);
    const CannedHttpServer::Request &sent = server.requests().first();
    QCOMPARE(sent.headers.value("authorization"), authorization);
    QCOMPARE(sent.method, QByteArray("GET"));
    QCOMPARE(sent.target, QByteArray("/prom/api/v1/query?query=up")); // a path prefix is kept
    QCOMPARE(sent.headers.value("accept"), QByteArray("application/json"));
}

void TestPrometheusClient::unauthorisedIsAnAuthError()
{
    CannedHttpServer server([](const CannedHttpServer::Request &) {
        return CannedHttpServer::Response{401, "text/plain", "Unauthorized\n"};
    });
    QVERIFY(server.listen());
    PrometheusClient client(configFor(server.url()));
    const PrometheusResponse r = wait(client.query(QStringLiteral("up")));
    QVERIFY(!r.ok);
    QCOMPARE(r.errorType, QStringLiteral("auth"));
    QCOMPARE(r.httpStatus, 401);
    QVERIFY2(r.error.contains(QStringLiteral("refused the request (HTTP 401): check the token")), qPrintable(r.error));
}

void TestPrometheusClient::bigBodyIsParsedOffTheCallingThread()
{
    // 5,000 series of the real DCGM body's first series: well past kInlineParseBytes.
    QFile file(QStringLiteral(STRATA_TEST_DATA "/prometheus/strata-capture/vector_dcgm_util.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray real = file.readAll();
    const qsizetype open = real.indexOf("[{") + 1;
    const qsizetype close = real.indexOf("]}", open) + 2; // end of the first series' value pair
    const QByteArray one = real.mid(open, close - open);
    QByteArray big = real.left(open);
    for (int i = 0; i < 5000; ++i)
        big += (i ? "," : "") + QByteArray(one).replace("\"gpu\":\"0\"", "\"gpu\":\"" + QByteArray::number(i) + "\"");
    big += "]}}";
    QVERIFY(big.size() > PrometheusClient::kInlineParseBytes * 10);
    CannedHttpServer server([big](const CannedHttpServer::Request &) { return CannedHttpServer::Response{200, "application/json", big}; });
    QVERIFY(server.listen());
    PrometheusClient client(configFor(server.url()));
    QThread *parsedOn = nullptr;
    QFuture<PrometheusResponse> future = client.query(QStringLiteral("DCGM_FI_DEV_GPU_UTIL"));
    // No context: the continuation runs where the promise was fulfilled.
    QFuture<int> count = future.then([&parsedOn](PrometheusResponse r) {
        parsedOn = QThread::currentThread();
        return int(r.series.size());
    });
    const PrometheusResponse r = wait(future);
    QTRY_VERIFY(count.isFinished());
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(count.result(), 5000);
    QCOMPARE(r.series[4999].label(u"gpu"), QStringLiteral("4999"));
    QVERIFY(parsedOn != nullptr);
    QVERIFY(parsedOn != QThread::currentThread());
}

void TestPrometheusClient::destroyingTheClientFinishesFutures()
{
    CannedHttpServer silent([](const CannedHttpServer::Request &) { return CannedHttpServer::Response{}; });
    silent.setSilent(true);
    QVERIFY(silent.listen());
    auto client = std::make_unique<PrometheusClient>(configFor(silent.url()));
    QFuture<PrometheusResponse> future = client->query(QStringLiteral("up"));
    QTRY_COMPARE(silent.requests().size(), 1);
    client.reset();
    QVERIFY(future.isFinished());
    QCOMPARE(future.resultCount(), 1);
    QCOMPARE(future.result().errorType, QStringLiteral("canceled"));
}

void TestPrometheusClient::badConfiguration()
{
    PrometheusClient::Config config = configFor(m_prometheus->url());
    config.caFile = QStringLiteral("/nonexistent/ca.pem");
    PrometheusClient client(config);
    QVERIFY(client.configError().contains(QStringLiteral("/nonexistent/ca.pem")));
    const PrometheusResponse r = wait(client.query(QStringLiteral("up")));
    QVERIFY(!r.ok);
    QCOMPARE(r.errorType, QStringLiteral("config"));

    PrometheusClient noHost(configFor(QStringLiteral("prometheus:9090")));
    QVERIFY(noHost.configError().contains(QStringLiteral("not an http(s) URL")));
}

QTEST_GUILESS_MAIN(TestPrometheusClient)
#include "tst_prometheus_client.moc"
