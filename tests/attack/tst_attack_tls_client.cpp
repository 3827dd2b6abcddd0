// A hostile API server, or someone on the path between the login node and it, against TlsClient
// and HttpExchange over TLS: a certificate with a partial wildcard (f*.example.com), a server
// that asks to renegotiate, and an answer cut short by a TCP close without close_notify. The
// server is OpenSSL itself in this process, over memory buffers the test moves (as in
// tests/core/net/tst_tls_client.cpp), with certificates the openssl command makes for each run.

#include "net/http_exchange.h"
#include "net/tls_client.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <openssl/err.h>
#include <openssl/ssl.h>

using namespace strata;

namespace {

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The server side: OpenSSL over memory BIOs; TLS 1.2 at most when it must renegotiate (1.3 has
// no renegotiation). Records the client's ClientHellos and alerts.
class MemoryTlsServer
{
public:
    MemoryTlsServer(const QString &certFile, const QString &keyFile, bool tls12Only = false)
    {
        m_context = SSL_CTX_new(TLS_server_method());
        SSL_CTX_use_certificate_chain_file(m_context, qPrintable(certFile));
        SSL_CTX_use_PrivateKey_file(m_context, qPrintable(keyFile), SSL_FILETYPE_PEM);
        if (tls12Only)
            SSL_CTX_set_max_proto_version(m_context, TLS1_2_VERSION);
        m_ssl = SSL_new(m_context);
        m_in = BIO_new(BIO_s_mem());
        m_out = BIO_new(BIO_s_mem());
        SSL_set_bio(m_ssl, m_in, m_out);
        SSL_set_accept_state(m_ssl);
        // What the client sent, as OpenSSL parsed it: its ClientHellos and its alerts.
        SSL_set_msg_callback_arg(m_ssl, this);
        SSL_set_msg_callback(m_ssl, [](int written, int, int contentType, const void *buffer, size_t length, SSL *, void *self) {
            const auto *bytes = static_cast<const unsigned char *>(buffer);
            auto *server = static_cast<MemoryTlsServer *>(self);
            if (written || length < 1)
                return;
            if (contentType == SSL3_RT_HANDSHAKE && bytes[0] == SSL3_MT_CLIENT_HELLO)
                ++server->clientHellos;
            else if (contentType == SSL3_RT_ALERT && length >= 2)
                server->alerts << int(bytes[1]);
        });
    }
    ~MemoryTlsServer()
    {
        SSL_free(m_ssl);
        SSL_CTX_free(m_context);
    }
    void feed(const QByteArray &data) { BIO_write(m_in, data.constData(), int(data.size())); }
    QByteArray take()
    {
        QByteArray out;
        char buffer[16384];
        int n;
        while ((n = BIO_read(m_out, buffer, sizeof buffer)) > 0)
            out.append(buffer, n);
        return out;
    }
    void advance()
    {
        if (m_failed)
            return;
        if (SSL_renegotiate_pending(m_ssl) || !SSL_is_init_finished(m_ssl)) {
            const int done = SSL_do_handshake(m_ssl);
            if (done != 1) {
                const int why = SSL_get_error(m_ssl, done);
                m_failed = why != SSL_ERROR_WANT_READ && why != SSL_ERROR_WANT_WRITE;
                if (!SSL_is_init_finished(m_ssl) || m_failed)
                    return;
            }
        }
        char buffer[4096];
        int n;
        while ((n = SSL_read(m_ssl, buffer, sizeof buffer)) > 0)
            received.append(buffer, n);
        if (n <= 0) {
            const int why = SSL_get_error(m_ssl, n);
            if (why != SSL_ERROR_WANT_READ && why != SSL_ERROR_WANT_WRITE && why != SSL_ERROR_ZERO_RETURN)
                m_failed = true;
        }
        if (!m_failed && !toSend.isEmpty() && SSL_write(m_ssl, toSend.constData(), int(toSend.size())) > 0)
            toSend.clear();
        ERR_clear_error();
    }
    void askToRenegotiate()
    {
        SSL_renegotiate(m_ssl);
        SSL_do_handshake(m_ssl); // sends the HelloRequest
    }
    void closeNotify() { SSL_shutdown(m_ssl); }
    QByteArray received;
    QByteArray toSend;
    int clientHellos = 0;
    QList<int> alerts; // descriptions of the alerts the client sent

private:
    SSL_CTX *m_context = nullptr;
    SSL *m_ssl = nullptr;
    BIO *m_in = nullptr;
    BIO *m_out = nullptr;
    bool m_failed = false;
};

void converse(TlsClient &client, MemoryTlsServer &server)
{
    for (int round = 0; round < 50; ++round) {
        client.advance();
        const QByteArray up = client.takeCiphertext();
        server.feed(up);
        server.advance();
        const QByteArray down = server.take();
        client.feedCiphertext(down);
        client.advance();
        if (up.isEmpty() && down.isEmpty() && round > 2)
            return;
    }
}

// Moves an HttpExchange's bytes to the server and back, as a tunnel would, until quiet.
void converse(HttpExchange &exchange, MemoryTlsServer &server)
{
    for (int round = 0; round < 50 && !exchange.isFinished(); ++round) {
        const QByteArray up = exchange.takeOutgoing();
        server.feed(up);
        server.advance();
        const QByteArray down = server.take();
        if (!down.isEmpty())
            exchange.received(down);
        if (up.isEmpty() && down.isEmpty() && round > 2)
            return;
    }
}

} // namespace

class TestAttackTlsClient : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString path(const QString &name) const { return m_dir.filePath(name); }

    bool openssl(const QStringList &args)
    {
        QProcess process;
        process.setWorkingDirectory(m_dir.path());
        process.start(QStringLiteral("openssl"), args);
        if (!process.waitForFinished(30000) || process.exitCode() != 0) {
            qWarning() << "openssl" << args << process.readAllStandardError();
            return false;
        }
        return true;
    }
    bool makeSigned(const QString &name, const QString &altNames)
    {
        QFile ext(path(name + QStringLiteral(".ext")));
        if (!ext.open(QIODevice::WriteOnly))
            return false;
        ext.write("subjectAltName=" + altNames.toUtf8() + "\nextendedKeyUsage=serverAuth\n");
        ext.close();
        const QString ec = QStringLiteral("ec_paramgen_curve:prime256v1");
        return openssl({QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"), ec,
                        QStringLiteral("-nodes"), QStringLiteral("-keyout"), name + QStringLiteral(".key"),
                        QStringLiteral("-out"), name + QStringLiteral(".csr"), QStringLiteral("-subj"),
                        QStringLiteral("/CN=") + name})
            && openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"), name + QStringLiteral(".csr"),
                        QStringLiteral("-CA"), QStringLiteral("ca.pem"), QStringLiteral("-CAkey"), QStringLiteral("ca.key"),
                        QStringLiteral("-CAcreateserial"), QStringLiteral("-out"), name + QStringLiteral(".pem"),
                        QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-extfile"), name + QStringLiteral(".ext")});
    }
    TlsClientConfig trusting(const QString &serverName) const
    {
        TlsClientConfig config;
        config.caPem = readFile(path(QStringLiteral("ca.pem")));
        config.serverName = serverName;
        return config;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(openssl({QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                         QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                         QStringLiteral("-keyout"), QStringLiteral("ca.key"), QStringLiteral("-out"), QStringLiteral("ca.pem"),
                         QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=ca")}));
        QVERIFY(makeSigned(QStringLiteral("partial"), QStringLiteral("DNS:f*.example.com")));
        QVERIFY(makeSigned(QStringLiteral("wildcard"), QStringLiteral("DNS:*.example.com")));
        QVERIFY(makeSigned(QStringLiteral("server"), QStringLiteral("DNS:localhost")));
    }

    void aPartialWildcardProvesNoName_data()
    {
        QTest::addColumn<QString>("certificate");
        QTest::addColumn<QString>("serverName");
        QTest::addColumn<QString>("error");
        QTest::newRow("f*.example.com for foo.example.com")
            << QStringLiteral("partial") << QStringLiteral("foo.example.com")
            << QStringLiteral("the TLS handshake with foo.example.com failed: the server's certificate is not trusted "
                              "(hostname mismatch)");
        QTest::newRow("*.example.com for foo.example.com (allowed)")
            << QStringLiteral("wildcard") << QStringLiteral("foo.example.com") << QString();
    }
    void aPartialWildcardProvesNoName()
    {
        QFETCH(QString, certificate);
        QFETCH(QString, serverName);
        QFETCH(QString, error);
        TlsClient client(trusting(serverName));
        MemoryTlsServer server(path(certificate + QStringLiteral(".pem")), path(certificate + QStringLiteral(".key")));
        client.writePlaintext("GET /version HTTP/1.1\r\nAuthorization: Bearer secret\r\n\r\n");
        converse(client, server);
        QCOMPARE(client.error(), error);
        // The token never reaches a server that could not prove the name.
        QCOMPARE(server.received.contains("secret"), error.isEmpty());
    }

    void aServerAskingToRenegotiateIsRefused()
    {
        TlsClient client(trusting(QStringLiteral("localhost")));
        MemoryTlsServer server(path(QStringLiteral("server.pem")), path(QStringLiteral("server.key")), true);
        client.writePlaintext("GET /version HTTP/1.1\r\n\r\n");
        converse(client, server);
        QVERIFY2(!client.failed(), qPrintable(client.error()));
        QCOMPARE(server.clientHellos, 1);
        server.askToRenegotiate();
        server.toSend = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}";
        converse(client, server);
        QCOMPARE(server.clientHellos, 1); // no second handshake
        QCOMPARE(server.alerts, QList<int>{SSL_AD_NO_RENEGOTIATION});
        // OpenSSL's server takes the refusal as the end of the session and says so: the client's
        // session fails with its words (what arrived before may still be read).
        QCOMPARE(client.error(), QStringLiteral("reading from localhost over TLS failed: "
                                                "error:0A000410:SSL routines::sslv3 alert handshake failure"));
    }

    void anAnswerCutWithoutCloseNotifyIsAnError_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<bool>("closeNotify");
        QTest::addColumn<HttpErrorKind>("error");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("message");
        const QByteArray untilClose = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"items\":[{\"a\":1}";
        QTest::newRow("until close, cut") << untilClose << false << HttpErrorKind::Tls << QByteArray()
                                          << QStringLiteral("the connection to localhost closed without TLS close_notify: the "
                                                        "answer may have been cut short");
        QTest::newRow("until close, close_notify") << untilClose << true << HttpErrorKind::None
                                                   << QByteArray("{\"items\":[{\"a\":1}") << QString();
        // Its length is known and all of it came: how the connection ended does not matter.
        QTest::newRow("content-length, complete") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}") << false
                                                  << HttpErrorKind::None << QByteArray("{}") << QString();
    }
    void anAnswerCutWithoutCloseNotifyIsAnError()
    {
        QFETCH(QByteArray, answer);
        QFETCH(bool, closeNotify);
        QFETCH(HttpErrorKind, error);
        QFETCH(QByteArray, body);
        QFETCH(QString, message);
        HttpExchange::Request request;
        request.target = "/api/v1/pods?limit=500";
        request.host = "localhost";
        request.timeoutMs = 5000;
        HttpExchange exchange(trusting(QStringLiteral("localhost")), request);
        MemoryTlsServer server(path(QStringLiteral("server.pem")), path(QStringLiteral("server.key")));
        server.toSend = answer;
        converse(exchange, server);
        QVERIFY(server.received.startsWith("GET /api/v1/pods?limit=500 HTTP/1.1\r\n"));
        if (closeNotify) {
            server.closeNotify();
            exchange.received(server.take());
        }
        if (!exchange.isFinished())
            exchange.remoteClosed(); // the TCP connection ends
        QVERIFY(exchange.isFinished());
        const HttpResult result = exchange.httpResult();
        QCOMPARE(result.error, error);
        QCOMPARE(result.body, body);
        QCOMPARE(result.message, message);
        QCOMPARE(result.statusCode, 200);
        QVERIFY(exchange.result().ok()); // the tunnel's part: it carried the exchange
    }
};

QTEST_APPLESS_MAIN(TestAttackTlsClient)
#include "tst_attack_tls_client.moc"
