#include "tls_client.h"

#include <QHostAddress>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

namespace strata {

using namespace Qt::StringLiterals;

namespace {

// The oldest queued OpenSSL error in words, and the queue cleared.
QString openSslError()
{
    QString text;
    while (const unsigned long code = ERR_get_error()) {
        char buffer[256];
        ERR_error_string_n(code, buffer, sizeof buffer);
        if (text.isEmpty())
            text = QString::fromLatin1(buffer);
    }
    return text.isEmpty() ? u"unknown TLS error"_s : text;
}

// Every certificate of a PEM bundle into the store; the number added.
int addCertificates(X509_STORE *store, const QByteArray &pem)
{
    BIO *bio = BIO_new_mem_buf(pem.constData(), int(pem.size()));
    int added = 0;
    while (X509 *certificate = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) {
        if (X509_STORE_add_cert(store, certificate) == 1)
            ++added;
        X509_free(certificate);
    }
    ERR_clear_error(); // the end of the bundle reads as an error
    BIO_free(bio);
    return added;
}

} // namespace

TlsClient::TlsClient(const TlsClientConfig &config) : m_serverName(config.serverName)
{
    m_context = SSL_CTX_new(TLS_client_method());
    if (!m_context) {
        fail(u"cannot create a TLS context: "_s + openSslError());
        return;
    }
    SSL_CTX_set_min_proto_version(m_context, TLS1_2_VERSION);
    // TLS 1.2 renegotiation has carried attacks (CVE-2009-3555, CPU exhaustion); an API server
    // never needs it. OpenSSL answers a HelloRequest with a no_renegotiation alert.
    SSL_CTX_set_options(m_context, SSL_OP_NO_RENEGOTIATION);
    if (config.verifyPeer) {
        SSL_CTX_set_verify(m_context, SSL_VERIFY_PEER, nullptr);
        if (config.caPem.isEmpty()) {
            SSL_CTX_set_default_verify_paths(m_context);
        } else if (addCertificates(SSL_CTX_get_cert_store(m_context), config.caPem) == 0) {
            fail(u"the certificate authority data holds no PEM certificate"_s);
            return;
        }
    } else {
        SSL_CTX_set_verify(m_context, SSL_VERIFY_NONE, nullptr);
    }
    if (!config.clientCertPem.isEmpty() || !config.clientKeyPem.isEmpty()) {
        BIO *certBio = BIO_new_mem_buf(config.clientCertPem.constData(), int(config.clientCertPem.size()));
        X509 *certificate = PEM_read_bio_X509(certBio, nullptr, nullptr, nullptr);
        BIO_free(certBio);
        BIO *keyBio = BIO_new_mem_buf(config.clientKeyPem.constData(), int(config.clientKeyPem.size()));
        EVP_PKEY *key = PEM_read_bio_PrivateKey(keyBio, nullptr, nullptr, nullptr);
        BIO_free(keyBio);
        const bool used = certificate && key && SSL_CTX_use_certificate(m_context, certificate) == 1
            && SSL_CTX_use_PrivateKey(m_context, key) == 1 && SSL_CTX_check_private_key(m_context) == 1;
        X509_free(certificate);
        EVP_PKEY_free(key);
        if (!used) {
            fail(u"the client certificate or its key cannot be used: "_s + openSslError());
            return;
        }
    }
    m_ssl = SSL_new(m_context);
    if (!m_ssl) {
        fail(u"cannot create a TLS session: "_s + openSslError());
        return;
    }
    m_in = BIO_new(BIO_s_mem());
    m_out = BIO_new(BIO_s_mem());
    SSL_set_bio(m_ssl, m_in, m_out);
    SSL_set_connect_state(m_ssl);
    static const unsigned char alpn[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
    SSL_set_alpn_protos(m_ssl, alpn, sizeof alpn);
    const QByteArray name = config.serverName.toUtf8();
    const bool isAddress = !QHostAddress(config.serverName).isNull();
    if (!isAddress && !name.isEmpty())
        SSL_set_tlsext_host_name(m_ssl, name.constData()); // SNI carries names, never addresses
    if (config.verifyPeer && !name.isEmpty()) {
        X509_VERIFY_PARAM *param = SSL_get0_param(m_ssl);
        // RFC 6125 6.4.3: a wildcard only as the whole left-most label (as Go, and so kubectl).
        X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        const int set = isAddress ? X509_VERIFY_PARAM_set1_ip_asc(param, name.constData())
                                  : X509_VERIFY_PARAM_set1_host(param, name.constData(), size_t(name.size()));
        if (set != 1)
            fail(u"cannot check the server's name %1: %2"_s.arg(config.serverName, openSslError()));
    }
}

TlsClient::~TlsClient()
{
    if (m_ssl)
        SSL_free(m_ssl); // frees both BIOs
    if (m_context)
        SSL_CTX_free(m_context);
}

void TlsClient::fail(const QString &what)
{
    if (m_error.isEmpty())
        m_error = what;
}

void TlsClient::feedCiphertext(const QByteArray &data)
{
    if (m_ssl && !data.isEmpty())
        BIO_write(m_in, data.constData(), int(data.size()));
}

void TlsClient::writePlaintext(const QByteArray &data)
{
    m_pendingPlaintext.append(data);
}

void TlsClient::advance()
{
    if (!m_ssl || failed())
        return;
    if (!m_handshakeDone) {
        ERR_clear_error();
        const int done = SSL_do_handshake(m_ssl);
        if (done == 1) {
            m_handshakeDone = true;
        } else {
            const int why = SSL_get_error(m_ssl, done);
            if (why == SSL_ERROR_WANT_READ || why == SSL_ERROR_WANT_WRITE)
                return;
            const long verified = SSL_get_verify_result(m_ssl);
            if (verified != X509_V_OK)
                fail(u"the TLS handshake with %1 failed: the server's certificate is not trusted (%2)"_s.arg(
                    m_serverName, QString::fromLatin1(X509_verify_cert_error_string(verified))));
            else
                fail(u"the TLS handshake with %1 failed: %2"_s.arg(m_serverName, openSslError()));
            return;
        }
    }
    while (!m_pendingPlaintext.isEmpty()) {
        ERR_clear_error();
        const int n = SSL_write(m_ssl, m_pendingPlaintext.constData(), int(m_pendingPlaintext.size()));
        if (n <= 0) {
            const int why = SSL_get_error(m_ssl, n);
            if (why != SSL_ERROR_WANT_READ && why != SSL_ERROR_WANT_WRITE)
                fail(u"writing to %1 over TLS failed: %2"_s.arg(m_serverName, openSslError()));
            break;
        }
        m_pendingPlaintext.remove(0, n);
    }
    char buffer[65536];
    for (;;) {
        ERR_clear_error();
        const int n = SSL_read(m_ssl, buffer, sizeof buffer);
        if (n > 0) {
            m_plaintext.append(buffer, n);
            continue;
        }
        const int why = SSL_get_error(m_ssl, n);
        if (why == SSL_ERROR_ZERO_RETURN)
            m_closedByServer = true;
        else if (why != SSL_ERROR_WANT_READ && why != SSL_ERROR_WANT_WRITE)
            fail(u"reading from %1 over TLS failed: %2"_s.arg(m_serverName, openSslError()));
        break;
    }
}

void TlsClient::transportClosed()
{
    if (!m_closedByServer)
        fail(u"the connection to %1 closed without TLS close_notify: the answer may have been cut short"_s.arg(m_serverName));
}

QByteArray TlsClient::takeCiphertext()
{
    QByteArray out;
    if (!m_out)
        return out;
    char buffer[16384];
    int n;
    while ((n = BIO_read(m_out, buffer, sizeof buffer)) > 0)
        out.append(buffer, n);
    return out;
}

QByteArray TlsClient::takePlaintext()
{
    return std::exchange(m_plaintext, {});
}

} // namespace strata
