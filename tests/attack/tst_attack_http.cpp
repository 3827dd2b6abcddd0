// Issue 23, findings 2, 4 and 5: a hostile Prometheus or Alertmanager on loopback against the
// real PrometheusClient and AlertmanagerClient (and the real `strata metrics`): it redirects
// to another host to catch the token, trickles one byte a second to hold the client forever,
// and streams an endless body to exhaust its memory. HostileHttpServer below plays the server;
// a second one on 127.0.0.2 is "another host" (Linux routes all of 127/8 to loopback).
#include "../cli/strata_without_display.h"

#include "prometheus/alertmanager_client.h"
#include "prometheus/http_origin.h"
#include "prometheus/prometheus_client.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QPointer>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>
#include <optional>

using namespace strata;

namespace {

// An HTTP/1.1 server that answers each request with one Action and records every byte it was
// sent and every byte it wrote (handed to its socket: at most the 1 MiB Flood keeps queued
// more than reached the kernel, so sent() errs on the high side).
class HostileHttpServer : public QObject
{
public:
    struct Action
    {
        enum Kind { Json, Redirect, Trickle, Flood } kind = Json;
        QByteArray body;          // Json
        QByteArray location;      // Redirect
        qint64 contentLength = -1; // Flood: announced, or none (the body ends at close)
    };
    using Responder = std::function<Action(const QByteArray &target)>;

    // Flood stops here, so that a client that never stops reading still ends the test.
    static constexpr qint64 kFloodLimit = qint64(160) * 1024 * 1024;

    explicit HostileHttpServer(Responder respond) : m_respond(std::move(respond))
    {
        connect(&m_server, &QTcpServer::newConnection, this, &HostileHttpServer::onConnection);
    }
    bool listen(const QHostAddress &address = QHostAddress::LocalHost) { return m_server.listen(address, 0); }
    QString url() const
    {
        return QStringLiteral("http://%1:%2").arg(m_server.serverAddress().toString()).arg(m_server.serverPort());
    }
    const QByteArray &received() const { return m_received; }
    const QList<QByteArray> &targets() const { return m_targets; }
    qint64 sent() const { return m_sent; }
    bool clientClosed() const { return m_clientClosed; }

private:
    void onConnection()
    {
        while (QTcpSocket *socket = m_server.nextPendingConnection()) {
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QTcpSocket::disconnected, this, [this] { m_clientClosed = true; });
            auto request = std::make_shared<QByteArray>();
            connect(socket, &QTcpSocket::readyRead, this, [this, socket, request] {
                const QByteArray bytes = socket->readAll();
                m_received += bytes;
                *request += bytes;
                const qsizetype end = request->indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                const QByteArray line = request->left(request->indexOf("\r\n"));
                const QByteArray target = line.split(' ').value(1);
                m_targets << target;
                request->clear();
                answer(socket, m_respond(target));
            });
        }
    }

    void answer(QTcpSocket *socket, const Action &action)
    {
        switch (action.kind) {
        case Action::Json:
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
                          + QByteArray::number(action.body.size()) + "\r\n\r\n" + action.body);
            socket->disconnectFromHost();
            return;
        case Action::Redirect:
            socket->write("HTTP/1.1 302 Found\r\nLocation: " + action.location
                          + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            socket->disconnectFromHost();
            return;
        case Action::Trickle: {
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{");
            auto *timer = new QTimer(socket);
            connect(timer, &QTimer::timeout, socket, [socket] { socket->write(" "); });
            timer->start(1000);
            return;
        }
        case Action::Flood: {
            QByteArray head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n";
            if (action.contentLength >= 0)
                head += "Content-Length: " + QByteArray::number(action.contentLength) + "\r\n";
            m_sent += socket->write(head + "\r\n[");
            const QByteArray chunk(64 * 1024, '1');
            const auto more = [this, socket, chunk] {
                while (socket->state() == QAbstractSocket::ConnectedState && socket->bytesToWrite() < 1024 * 1024) {
                    if (m_sent >= kFloodLimit) {
                        socket->disconnectFromHost();
                        return;
                    }
                    m_sent += socket->write(chunk);
                    socket->flush();
                }
            };
            connect(socket, &QTcpSocket::bytesWritten, socket, more);
            more();
            return;
        }
        }
    }

    QTcpServer m_server;
    Responder m_respond;
    QByteArray m_received;
    QList<QByteArray> m_targets;
    qint64 m_sent = 0;
    bool m_clientClosed = false;
};

const QByteArray kEmptyVector = R"({"status":"success","data":{"resultType":"vector","result":[]}})";
const QString kToken = QStringLiteral("s3cret-token-for-the-origin-only");

// The future's result once it is in, or nothing after timeoutMs (the attack held the client).
template <typename T>
std::optional<T> waitFor(QFuture<T> future, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!future.isFinished() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    if (!future.isFinished())
        return std::nullopt;
    return future.result();
}

PrometheusClient::Config prometheusConfig(const QString &url, int timeoutMs = 10000)
{
    PrometheusClient::Config c;
    c.baseUrl = QUrl(url);
    c.timeoutMs = timeoutMs;
    return c;
}

AlertmanagerClient::Config alertmanagerConfig(const QString &url, int timeoutMs = 10000)
{
    AlertmanagerClient::Config c;
    c.baseUrl = QUrl(url);
    c.timeoutMs = timeoutMs;
    return c;
}

// What one client made of a request: its error text (empty on success) and how long it took.
struct Outcome
{
    bool finished = false;
    QString error;
    qint64 elapsedMs = 0;
};

Outcome askPrometheus(PrometheusClient::Config config, int waitMs)
{
    PrometheusClient client(std::move(config));
    QElapsedTimer timer;
    timer.start();
    const auto r = waitFor(client.query(QStringLiteral("up")), waitMs);
    return {r.has_value(), r ? r->error : QString(), timer.elapsed()};
}

Outcome askAlertmanager(AlertmanagerClient::Config config, int waitMs)
{
    AlertmanagerClient client(std::move(config));
    QElapsedTimer timer;
    timer.start();
    const auto r = waitFor(client.silences(), waitMs);
    return {r.has_value(), r ? r->error : QString(), timer.elapsed()};
}

// The real CLI, run while this thread's event loop serves the hostile server.
test::StrataRun runStrata(const QStringList &arguments, int timeoutMs)
{
    QTemporaryDir home;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("minimal"));
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path() + QStringLiteral("/.config"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(STRATA_BINARY_DIR "/app/strata"), arguments);
    QDeadlineTimer deadline(timeoutMs);
    while (p.state() != QProcess::NotRunning && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    test::StrataRun r;
    if (p.state() != QProcess::NotRunning) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class TestAttackHttp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void crossOriginRedirectKeepsTheCredentials_data();
    void crossOriginRedirectKeepsTheCredentials();
    void sameOriginRedirectKeepsWorking();
    void origins_data();
    void origins();
    void plainHttpCredentialsWarn_data();
    void plainHttpCredentialsWarn();
    void clientsSayTheyWarn();
    void cliWarnsOnce();
    void tricklingServerMeetsTheDeadline_data();
    void tricklingServerMeetsTheDeadline();
    void tricklingServerStopsTheCli();
    void endlessBodyIsCutAtTheCap_data();
    void endlessBodyIsCutAtTheCap();
    void tokenWithLineBreakIsNeverSent_data();
    void tokenWithLineBreakIsNeverSent();
    void urlPasswordIsNeverShown();
};

void TestAttackHttp::crossOriginRedirectKeepsTheCredentials_data()
{
    QTest::addColumn<bool>("alertmanager");
    QTest::addColumn<bool>("basic");
    QTest::newRow("prometheus, bearer token") << false << false;
    QTest::newRow("prometheus, user and password") << false << true;
    QTest::newRow("alertmanager, bearer token") << true << false;
}

void TestAttackHttp::crossOriginRedirectKeepsTheCredentials()
{
    QFETCH(bool, alertmanager);
    QFETCH(bool, basic);
    HostileHttpServer thief([](const QByteArray &) { return HostileHttpServer::Action{}; });
    if (!thief.listen(QHostAddress(QStringLiteral("127.0.0.2"))))
        QVERIFY(thief.listen()); // another port is another origin too
    const QByteArray stolen = thief.url().toUtf8() + "/collect?from=strata";
    HostileHttpServer origin([stolen](const QByteArray &) {
        HostileHttpServer::Action a;
        a.kind = HostileHttpServer::Action::Redirect;
        a.location = stolen;
        return a;
    });
    QVERIFY(origin.listen());

    const QString password = QStringLiteral("pa55word-for-the-origin-only");
    const QByteArray secret = basic ? QByteArray("strata:" + password.toUtf8()).toBase64() : kToken.toUtf8();
    Outcome outcome;
    if (alertmanager) {
        AlertmanagerClient::Config c = alertmanagerConfig(origin.url());
        c.bearerToken = kToken;
        outcome = askAlertmanager(c, 10000);
    } else {
        PrometheusClient::Config c = prometheusConfig(origin.url());
        if (basic) {
            c.user = QStringLiteral("strata");
            c.password = password;
        } else {
            c.bearerToken = kToken;
        }
        outcome = askPrometheus(c, 10000);
    }
    QVERIFY(outcome.finished);
    QVERIFY2(origin.received().contains(secret), "the origin itself must get the credentials");
    // Give a (wrongly) followed request time to arrive before looking at what the thief got.
    QTest::qWait(200);
    QVERIFY2(!thief.received().contains(secret), thief.received().constData());
    QVERIFY2(!thief.received().toLower().contains("authorization:"), thief.received().constData());
    QCOMPARE(thief.targets().size(), 0);
    const QString service = alertmanager ? QStringLiteral("Alertmanager") : QStringLiteral("Prometheus");
    QCOMPARE(outcome.error,
             QStringLiteral("%1 at %2 redirected the request to %3/collect, another origin (scheme, host or port): "
                            "not followed, so the profile's credentials were not sent there. Put the address %1 "
                            "answers on in the profile; a login page there means a proxy wants credentials it accepts")
                 .arg(service, origin.url(), thief.url()));
}

void TestAttackHttp::sameOriginRedirectKeepsWorking()
{
    HostileHttpServer origin([](const QByteArray &target) {
        HostileHttpServer::Action a;
        if (target.startsWith("/moved/")) {
            a.body = kEmptyVector;
        } else {
            a.kind = HostileHttpServer::Action::Redirect;
            a.location = "/moved" + target;
        }
        return a;
    });
    QVERIFY(origin.listen());
    PrometheusClient::Config c = prometheusConfig(origin.url());
    c.bearerToken = kToken;
    PrometheusClient client(c);
    const auto r = waitFor(client.query(QStringLiteral("up")), 10000);
    QVERIFY(r.has_value());
    QVERIFY2(r->ok, qPrintable(r->error));
    QCOMPARE(origin.targets().size(), 2);
    QVERIFY(origin.targets().at(1).startsWith("/moved/api/v1/query?query=up"));
    // Both requests carried the token: the redirect stayed within its origin.
    QCOMPARE(origin.received().count("Authorization: Bearer " + kToken.toUtf8()), 2);
}

void TestAttackHttp::origins_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<bool>("same");
    QTest::newRow("path only") << "http://prom:9090/a" << "http://prom:9090/b?x=1" << true;
    QTest::newRow("host case") << "https://Prom.Example/" << "https://prom.example/api" << true;
    QTest::newRow("default port spelled") << "https://prom.example/" << "https://prom.example:443/" << true;
    QTest::newRow("another host") << "http://127.0.0.1:9090/" << "http://127.0.0.2:9090/" << false;
    QTest::newRow("another port") << "http://prom:9090/" << "http://prom:9091/" << false;
    QTest::newRow("https to http downgrade") << "https://prom.example/" << "http://prom.example:443/" << false;
    QTest::newRow("https to http, default ports") << "https://prom.example/" << "http://prom.example/" << false;
    QTest::newRow("http to https") << "http://prom.example/" << "https://prom.example/" << false;
    QTest::newRow("user info does not make it another host") << "http://prom:9090/" << "http://prom@evil:9090/" << false;
}

void TestAttackHttp::origins()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(bool, same);
    QCOMPARE(HttpOrigin::same(QUrl(from), QUrl(to)), same);
}

void TestAttackHttp::plainHttpCredentialsWarn_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("credentials");
    QTest::addColumn<QString>("warning");
    const QString text = QStringLiteral("the Prometheus credentials (%1) go unencrypted over plain http to %2, where "
                                        "anyone on the network path can read and reuse them: use an https URL (or an "
                                        "SSH tunnel to 127.0.0.1)");
    QTest::newRow("token, http, a host name") << "http://prometheus.example:9090" << "token"
                                              << text.arg(QStringLiteral("token"), QStringLiteral("prometheus.example:9090"));
    QTest::newRow("password, http, default port") << "http://prometheus.example/prom" << "user and password"
                                                  << text.arg(QStringLiteral("user and password"), QStringLiteral("prometheus.example:80"));
    QTest::newRow("token, http, a private address") << "HTTP://10.0.0.5:9090" << "token"
                                                    << text.arg(QStringLiteral("token"), QStringLiteral("10.0.0.5:9090"));
    QTest::newRow("token, https") << "https://prometheus.example:9090" << "token" << QString();
    QTest::newRow("no credentials") << "http://prometheus.example:9090" << "" << QString();
    QTest::newRow("127.0.0.1") << "http://127.0.0.1:19090" << "token" << QString();
    QTest::newRow("127.0.0.2") << "http://127.0.0.2:19090" << "token" << QString();
    QTest::newRow("::1") << "http://[::1]:19090" << "token" << QString();
    QTest::newRow("localhost") << "http://localhost:19090" << "token" << QString();
    QTest::newRow("localhost, upper case") << "http://LOCALHOST:19090" << "token" << QString();
    QTest::newRow("a name that only starts like loopback") << "http://127.0.0.1.nip.io:9090" << "token"
                                                            << text.arg(QStringLiteral("token"), QStringLiteral("127.0.0.1.nip.io:9090"));
}

void TestAttackHttp::plainHttpCredentialsWarn()
{
    QFETCH(QString, url);
    QFETCH(QString, credentials);
    QFETCH(QString, warning);
    QCOMPARE(HttpOrigin::clearTextCredentialsWarning(u"Prometheus", QUrl(url), credentials), warning);
}

void TestAttackHttp::clientsSayTheyWarn()
{
    // Nothing connects: the warning is known from the configuration alone.
    PrometheusClient::Config p = prometheusConfig(QStringLiteral("http://prometheus.example:9090"));
    p.bearerToken = kToken;
    QCOMPARE(PrometheusClient(p).credentialsWarning(),
             QStringLiteral("the Prometheus credentials (token) go unencrypted over plain http to "
                            "prometheus.example:9090, where anyone on the network path can read and reuse them: use an "
                            "https URL (or an SSH tunnel to 127.0.0.1)"));
    AlertmanagerClient::Config a = alertmanagerConfig(QStringLiteral("http://alertmanager.example:9093"));
    a.user = QStringLiteral("strata");
    a.password = QStringLiteral("pw");
    QCOMPARE(AlertmanagerClient(a).credentialsWarning(),
             QStringLiteral("the Alertmanager credentials (user and password) go unencrypted over plain http to "
                            "alertmanager.example:9093, where anyone on the network path can read and reuse them: use "
                            "an https URL (or an SSH tunnel to 127.0.0.1)"));
    QCOMPARE(PrometheusClient(prometheusConfig(QStringLiteral("http://127.0.0.1:19090"))).credentialsWarning(), QString());
    p.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:19090"));
    QCOMPARE(PrometheusClient(p).credentialsWarning(), QString());
}

void TestAttackHttp::cliWarnsOnce()
{
    // prometheus.invalid never resolves (RFC 6761); the one-second limit ends the try.
    const test::StrataRun r = runStrata({QStringLiteral("metrics"), QStringLiteral("--prometheus"),
                                         QStringLiteral("http://prometheus.invalid:9090"), QStringLiteral("--prometheus-token"),
                                         kToken, QStringLiteral("--node"), QStringLiteral("gpu-node01"),
                                         QStringLiteral("--metric"), QStringLiteral("util"),
                                         QStringLiteral("--command-timeout"), QStringLiteral("1")},
                                        15000);
    QCOMPARE(r.exitCode, 1);
    const QString warning = QStringLiteral("strata: warning: the Prometheus credentials (token) go unencrypted over "
                                           "plain http to prometheus.invalid:9090");
    QVERIFY2(r.err.startsWith(warning), qPrintable(r.err));
    QCOMPARE(r.err.count(QStringLiteral("unencrypted")), 1);
    QVERIFY2(!r.err.contains(kToken), qPrintable(r.err));
}

void TestAttackHttp::tricklingServerMeetsTheDeadline_data()
{
    QTest::addColumn<bool>("alertmanager");
    QTest::newRow("prometheus") << false;
    QTest::newRow("alertmanager") << true;
}

void TestAttackHttp::tricklingServerMeetsTheDeadline()
{
    QFETCH(bool, alertmanager);
    HostileHttpServer trickler([](const QByteArray &) {
        HostileHttpServer::Action a;
        a.kind = HostileHttpServer::Action::Trickle;
        return a;
    });
    QVERIFY(trickler.listen());
    constexpr int deadlineMs = 2000;
    const Outcome outcome = alertmanager ? askAlertmanager(alertmanagerConfig(trickler.url(), deadlineMs), deadlineMs + 3000)
                                         : askPrometheus(prometheusConfig(trickler.url(), deadlineMs), deadlineMs + 3000);
    QVERIFY2(outcome.finished, "a server sending a byte a second held the client past its deadline");
    QVERIFY2(outcome.elapsedMs >= deadlineMs - 50 && outcome.elapsedMs < deadlineMs + 2000,
             qPrintable(QString::number(outcome.elapsedMs)));
    const QRegularExpression expected(
        QStringLiteral("^%1 at %2 did not answer in full within 2 s \\(HTTP 200, \\d+ bytes came\\): the limit holds "
                       "for the whole request, however slowly the answer comes$")
            .arg(alertmanager ? QStringLiteral("Alertmanager") : QStringLiteral("Prometheus"),
                 QRegularExpression::escape(trickler.url())));
    QVERIFY2(expected.match(outcome.error).hasMatch(), qPrintable(outcome.error));
}

void TestAttackHttp::tricklingServerStopsTheCli()
{
    HostileHttpServer trickler([](const QByteArray &) {
        HostileHttpServer::Action a;
        a.kind = HostileHttpServer::Action::Trickle;
        return a;
    });
    QVERIFY(trickler.listen());
    QElapsedTimer timer;
    timer.start();
    const test::StrataRun r = runStrata({QStringLiteral("metrics"), QStringLiteral("--prometheus"), trickler.url(),
                                         QStringLiteral("--node"), QStringLiteral("gpu-node01"), QStringLiteral("--metric"),
                                         QStringLiteral("util"), QStringLiteral("--command-timeout"), QStringLiteral("2")},
                                        6000);
    QVERIFY2(r.exitCode == 1, qPrintable(QStringLiteral("exit %1 after %2 ms: %3").arg(r.exitCode).arg(timer.elapsed()).arg(r.err)));
    QVERIFY2(timer.elapsed() < 2000 + 2000, qPrintable(QString::number(timer.elapsed())));
    QVERIFY2(r.err.startsWith(QStringLiteral("strata: metrics unavailable: Prometheus at %1 did not answer in full "
                                             "within 2 s (HTTP 200, ")
                                  .arg(trickler.url())),
             qPrintable(r.err));
}

void TestAttackHttp::endlessBodyIsCutAtTheCap_data()
{
    QTest::addColumn<bool>("alertmanager");
    QTest::addColumn<qint64>("announced"); // Content-Length, or -1: the body ends at close
    QTest::newRow("prometheus, no Content-Length") << false << qint64(-1);
    QTest::newRow("prometheus, Content-Length 4 GiB") << false << (qint64(4) << 30);
    QTest::newRow("alertmanager, no Content-Length") << true << qint64(-1);
}

void TestAttackHttp::endlessBodyIsCutAtTheCap()
{
    QFETCH(bool, alertmanager);
    QFETCH(qint64, announced);
    HostileHttpServer flood([announced](const QByteArray &) {
        HostileHttpServer::Action a;
        a.kind = HostileHttpServer::Action::Flood;
        a.contentLength = announced;
        return a;
    });
    QVERIFY(flood.listen());
    // The default cap (PrometheusResponseParser::maxInputBytes, 1 GiB) is the same code with a
    // larger number; 8 MiB keeps the test fast.
    constexpr qint64 cap = 8 * 1024 * 1024;
    Outcome outcome;
    if (alertmanager) {
        AlertmanagerClient::Config c = alertmanagerConfig(flood.url());
        c.maxResponseBytes = cap;
        outcome = askAlertmanager(c, 15000);
    } else {
        PrometheusClient::Config c = prometheusConfig(flood.url());
        c.maxResponseBytes = cap;
        outcome = askPrometheus(c, 15000);
    }
    QVERIFY(outcome.finished);
    QTRY_VERIFY_WITH_TIMEOUT(flood.clientClosed(), 5000);
    qInfo("the server sent %lld bytes before the client closed", flood.sent());
    // What the client could have held: the cap, plus what sat in the kernel's socket buffers
    // (up to about 10 MB on loopback) and what Qt's HTTP thread had read ahead when it stopped
    // (13-25 MB measured in all; before the fix the client read the whole 160 MiB flood).
    QVERIFY2(flood.sent() < cap + 32 * 1024 * 1024,
             qPrintable(QStringLiteral("the server sent %1 bytes before the client closed").arg(flood.sent())));
    const QString service = alertmanager ? QStringLiteral("Alertmanager") : QStringLiteral("Prometheus");
    if (announced >= 0) {
        QCOMPARE(outcome.error, QStringLiteral("%1 at %2 announced an answer of %3 bytes (HTTP 200), more than the 8 MiB "
                                               "Strata reads: not read")
                                    .arg(service, flood.url())
                                    .arg(announced));
        // Refused on the header, before any of the body was read: what the server got out is only
        // what the kernel's socket buffers took before the client closed, bounded above. (A tighter
        // "< cap" held on a quiet machine and failed under load: 9.3 MB were buffered, 2026-12-05.)
    } else {
        QCOMPARE(outcome.error, QStringLiteral("%1 at %2 sent more than the 8 MiB Strata reads (HTTP 200): the answer "
                                               "was cut off and not read")
                                    .arg(service, flood.url()));
    }
}

void TestAttackHttp::tokenWithLineBreakIsNeverSent_data()
{
    QTest::addColumn<bool>("alertmanager");
    QTest::newRow("prometheus") << false;
    QTest::newRow("alertmanager") << true;
}

// Finding 6 on this route: a token with CR/LF (a pasted file's line end, or a writer's choice)
// would add header lines; the request is never sent and the error says why.
void TestAttackHttp::tokenWithLineBreakIsNeverSent()
{
    QFETCH(bool, alertmanager);
    HostileHttpServer server([](const QByteArray &) { return HostileHttpServer::Action{}; });
    QVERIFY(server.listen());
    const QString token = QStringLiteral("abc\r\nX-Injected: yes");
    Outcome outcome;
    if (alertmanager) {
        AlertmanagerClient::Config c = alertmanagerConfig(server.url());
        c.bearerToken = token;
        outcome = askAlertmanager(c, 5000);
    } else {
        PrometheusClient::Config c = prometheusConfig(server.url());
        c.bearerToken = token;
        outcome = askPrometheus(c, 5000);
    }
    QVERIFY(outcome.finished);
    QTest::qWait(100);
    QCOMPARE(server.received(), QByteArray());
    QCOMPARE(outcome.error,
             QStringLiteral("the %1 token holds a control character or a space (character 4, code 13): not sent, "
                            "since it would change the request's headers; copy the token again")
                 .arg(alertmanager ? QStringLiteral("Alertmanager") : QStringLiteral("Prometheus")));
}

// Finding 6: a URL's password never appears in an error, from the clients or the CLI.
void TestAttackHttp::urlPasswordIsNeverShown()
{
    const QString secret = QStringLiteral("hunter2-url-secret");
    const QString url = QStringLiteral("ftp://strata:%1@prom.example:9090").arg(secret);
    const Outcome prometheus = askPrometheus(prometheusConfig(url), 5000);
    QCOMPARE(prometheus.error, QStringLiteral("Prometheus URL \"ftp://strata@prom.example:9090\" is not an http(s) URL "
                                              "with a host"));
    const Outcome alertmanager = askAlertmanager(alertmanagerConfig(url), 5000);
    QCOMPARE(alertmanager.error, QStringLiteral("Alertmanager URL \"ftp://strata@prom.example:9090\" is not an http(s) "
                                                "URL with a host"));
    const test::StrataRun r = runStrata({QStringLiteral("metrics"), QStringLiteral("--prometheus"), url,
                                         QStringLiteral("--node"), QStringLiteral("gpu-node01"), QStringLiteral("--metric"),
                                         QStringLiteral("util"), QStringLiteral("--command-timeout"), QStringLiteral("2")},
                                        10000);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("ftp://strata@prom.example:9090")), qPrintable(r.err));
    QVERIFY2(!r.err.contains(secret), qPrintable(r.err));
    QVERIFY2(!r.out.contains(secret), qPrintable(r.out));
}

QTEST_GUILESS_MAIN(TestAttackHttp)
#include "tst_attack_http.moc"
