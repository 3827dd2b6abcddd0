// TlsClient against a real OpenSSL server in the same process: both sides talk through memory
// buffers moved by the test, with certificates the openssl command makes for each run (a CA,
// a server certificate for localhost and 127.0.0.1, a client certificate, and a second CA that
// trusts none of them).

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

// The server side: OpenSSL over memory BIOs, as the stand-in's Python ssl would do it.
class MemoryTlsServer
{
public:
    MemoryTlsServer(const QString &certFile, const QString &keyFile, const QString &clientCaFile = {})
    {
        m_context = SSL_CTX_new(TLS_server_method());
        SSL_CTX_use_certificate_chain_file(m_context, qPrintable(certFile));
        SSL_CTX_use_PrivateKey_file(m_context, qPrintable(keyFile), SSL_FILETYPE_PEM);
        if (!clientCaFile.isEmpty()) {
            SSL_CTX_load_verify_locations(m_context, qPrintable(clientCaFile), nullptr);
            SSL_CTX_set_verify(m_context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
        }
        m_ssl = SSL_new(m_context);
        m_in = BIO_new(BIO_s_mem());
        m_out = BIO_new(BIO_s_mem());
        SSL_set_bio(m_ssl, m_in, m_out);
        SSL_set_accept_state(m_ssl);
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
    // Advances the handshake; reads what arrived into received, writes toSend once it is done.
    void advance()
    {
        if (!SSL_is_init_finished(m_ssl) && SSL_do_handshake(m_ssl) != 1)
            return;
        char buffer[4096];
        int n;
        while ((n = SSL_read(m_ssl, buffer, sizeof buffer)) > 0)
            received.append(buffer, n);
        if (!toSend.isEmpty() && SSL_write(m_ssl, toSend.constData(), int(toSend.size())) > 0)
            toSend.clear();
    }
    QString clientSubject() const
    {
        X509 *peer = SSL_get1_peer_certificate(m_ssl);
        if (!peer)
            return {};
        char name[256] = {};
        X509_NAME_oneline(X509_get_subject_name(peer), name, sizeof name);
        X509_free(peer);
        return QString::fromLatin1(name);
    }
    QByteArray received;
    QByteArray toSend;

private:
    SSL_CTX *m_context = nullptr;
    SSL *m_ssl = nullptr;
    BIO *m_in = nullptr;
    BIO *m_out = nullptr;
};

// Moves bytes both ways until neither side has anything more to say.
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

} // namespace

class TestTlsClient : public QObject
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
    bool makeCa(const QString &name)
    {
        return openssl({QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                        QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                        QStringLiteral("-keyout"), name + QStringLiteral(".key"), QStringLiteral("-out"),
                        name + QStringLiteral(".pem"), QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                        QStringLiteral("/CN=") + name});
    }
    bool makeSigned(const QString &name, const QString &ca, const QString &extensions)
    {
        QFile ext(path(name + QStringLiteral(".ext")));
        if (!ext.open(QIODevice::WriteOnly))
            return false;
        ext.write(extensions.toUtf8());
        ext.close();
        return openssl({QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                        QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"), QStringLiteral("-keyout"),
                        name + QStringLiteral(".key"), QStringLiteral("-out"), name + QStringLiteral(".csr"),
                        QStringLiteral("-subj"), QStringLiteral("/CN=") + name})
            && openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"), name + QStringLiteral(".csr"),
                        QStringLiteral("-CA"), ca + QStringLiteral(".pem"), QStringLiteral("-CAkey"), ca + QStringLiteral(".key"),
                        QStringLiteral("-CAcreateserial"), QStringLiteral("-out"), name + QStringLiteral(".pem"),
                        QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-extfile"), name + QStringLiteral(".ext")});
    }

    TlsClientConfig trusting(const QString &serverName) const
    {
        TlsClientConfig config;
        config.caPem = readFile(path(QStringLiteral("lab-ca.pem")));
        config.serverName = serverName;
        return config;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(makeCa(QStringLiteral("lab-ca")));
        QVERIFY(makeCa(QStringLiteral("other-ca")));
        QVERIFY(makeSigned(QStringLiteral("server"), QStringLiteral("lab-ca"),
                           QStringLiteral("subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")));
        QVERIFY(makeSigned(QStringLiteral("client"), QStringLiteral("lab-ca"),
                           QStringLiteral("extendedKeyUsage=clientAuth\n")));
    }

    void aTrustedServerIsTalkedTo_data()
    {
        QTest::addColumn<QString>("serverName");
        QTest::newRow("by name") << QStringLiteral("localhost");
        QTest::newRow("by address") << QStringLiteral("127.0.0.1");
    }
    void aTrustedServerIsTalkedTo()
    {
        QFETCH(QString, serverName);
        TlsClient client(trusting(serverName));
        MemoryTlsServer server(path(QStringLiteral("server.pem")), path(QStringLiteral("server.key")));
        client.writePlaintext("GET /version HTTP/1.1\r\n\r\n"); // held until the handshake is done
        server.toSend = "HTTP/1.1 200 OK\r\n\r\n";
        converse(client, server);
        QVERIFY2(!client.failed(), qPrintable(client.error()));
        QVERIFY(client.handshakeDone());
        QCOMPARE(server.received, QByteArray("GET /version HTTP/1.1\r\n\r\n"));
        QCOMPARE(client.takePlaintext(), QByteArray("HTTP/1.1 200 OK\r\n\r\n"));
    }

    void aServerThatCannotProveItsNameIsRefused_data()
    {
        QTest::addColumn<QString>("serverName");
        QTest::addColumn<QString>("caName");
        QTest::addColumn<bool>("verify");
        QTest::addColumn<QString>("error");
        QTest::newRow("other name") << QStringLiteral("api.example.internal") << QStringLiteral("lab-ca") << true
                                    << QStringLiteral("the TLS handshake with api.example.internal failed: the server's "
                                                      "certificate is not trusted (hostname mismatch)");
        QTest::newRow("other address") << QStringLiteral("127.0.0.2") << QStringLiteral("lab-ca") << true
                                       << QStringLiteral("the TLS handshake with 127.0.0.2 failed: the server's "
                                                         "certificate is not trusted (IP address mismatch)");
        QTest::newRow("other CA") << QStringLiteral("localhost") << QStringLiteral("other-ca") << true
                                  << QStringLiteral("the TLS handshake with localhost failed: the server's certificate "
                                                    "is not trusted (unable to get local issuer certificate)");
        QTest::newRow("other CA, not verified") << QStringLiteral("localhost") << QStringLiteral("other-ca") << false
                                                << QString();
    }
    void aServerThatCannotProveItsNameIsRefused()
    {
        QFETCH(QString, serverName);
        QFETCH(QString, caName);
        QFETCH(bool, verify);
        QFETCH(QString, error);
        TlsClientConfig config;
        config.caPem = readFile(path(caName + QStringLiteral(".pem")));
        config.serverName = serverName;
        config.verifyPeer = verify;
        TlsClient client(config);
        MemoryTlsServer server(path(QStringLiteral("server.pem")), path(QStringLiteral("server.key")));
        client.writePlaintext("secret");
        converse(client, server);
        QCOMPARE(client.error(), error);
        QCOMPARE(client.failed(), !error.isEmpty());
        QCOMPARE(server.received, error.isEmpty() ? QByteArray("secret") : QByteArray()); // nothing leaks
    }

    void aClientCertificateIsPresented()
    {
        TlsClientConfig config = trusting(QStringLiteral("localhost"));
        config.clientCertPem = readFile(path(QStringLiteral("client.pem")));
        config.clientKeyPem = readFile(path(QStringLiteral("client.key")));
        TlsClient client(config);
        MemoryTlsServer server(path(QStringLiteral("server.pem")), path(QStringLiteral("server.key")),
                               path(QStringLiteral("lab-ca.pem")));
        client.writePlaintext("hello");
        converse(client, server);
        QVERIFY2(!client.failed(), qPrintable(client.error()));
        QCOMPARE(server.received, QByteArray("hello"));
        QCOMPARE(server.clientSubject(), QStringLiteral("/CN=client"));
    }

    void unusableConfigurationIsSaidAtOnce()
    {
        TlsClientConfig config;
        config.caPem = "not a certificate";
        config.serverName = QStringLiteral("localhost");
        QCOMPARE(TlsClient(config).error(), QStringLiteral("the certificate authority data holds no PEM certificate"));

        TlsClientConfig mismatched = trusting(QStringLiteral("localhost"));
        mismatched.clientCertPem = readFile(path(QStringLiteral("client.pem")));
        mismatched.clientKeyPem = readFile(path(QStringLiteral("server.key"))); // another certificate's key
        const TlsClient client(mismatched);
        QVERIFY(client.failed());
        QVERIFY2(client.error().startsWith(QLatin1String("the client certificate or its key cannot be used: ")),
                 qPrintable(client.error()));
    }
};

QTEST_APPLESS_MAIN(TestTlsClient)
#include "tst_tls_client.moc"
