#pragma once

#include <QByteArray>
#include <QString>

struct ssl_st;
struct ssl_ctx_st;
struct bio_st;

namespace strata {

// What a TlsClient trusts and presents. From a kubeconfig: the cluster's CA, the server name
// it must prove, and the user's client certificate when it has one.
struct TlsClientConfig
{
    QByteArray caPem;          // the CAs to trust (PEM, one or more); empty: this machine's roots
    QString serverName;        // the name (or IP address) the server's certificate must carry; SNI
    bool verifyPeer = true;    // false only when the kubeconfig says insecure-skip-tls-verify
    QByteArray clientCertPem;  // with clientKeyPem: a client certificate (mutual TLS)
    QByteArray clientKeyPem;
};

// The client side of one TLS session (OpenSSL) that owns no socket: ciphertext goes in and out
// through memory buffers, so any transport can carry it (an SSH tunnel's channel). The server's
// chain is verified against the configured CAs and its name or IP checked (RFC 6125; a wildcard
// only as a whole left-most label: f*.example.com matches nothing), TLS 1.2 or newer, ALPN
// http/1.1, no renegotiation (a server asking for one ends the session). One thread at a time;
// never blocks.
class TlsClient
{
public:
    explicit TlsClient(const TlsClientConfig &config);
    ~TlsClient();
    TlsClient(const TlsClient &) = delete;
    TlsClient &operator=(const TlsClient &) = delete;

    // Ciphertext that arrived from the server.
    void feedCiphertext(const QByteArray &data);
    // Plaintext to send; held until the handshake is done.
    void writePlaintext(const QByteArray &data);
    // Drives the handshake, writes what waits and decrypts what arrived. Call after each feed
    // or write; then take what it produced.
    void advance();
    QByteArray takeCiphertext(); // to send to the server
    QByteArray takePlaintext();  // decrypted from the server

    bool handshakeDone() const { return m_handshakeDone; }
    bool failed() const { return !m_error.isEmpty(); }
    // Why the session failed: setup, handshake (with the certificate check's reason) or a record.
    QString error() const { return m_error; }
    bool closedByServer() const { return m_closedByServer; } // close_notify received
    // The connection under the session closed. Without close_notify before it, what was read
    // may have been cut short by anyone on the path: the session fails (the caller decides
    // whether that matters: an answer whose length was known and complete is not affected).
    void transportClosed();

private:
    void fail(const QString &what);

    ssl_ctx_st *m_context = nullptr;
    ssl_st *m_ssl = nullptr;
    bio_st *m_in = nullptr;  // owned by m_ssl
    bio_st *m_out = nullptr; // owned by m_ssl
    QByteArray m_pendingPlaintext;
    QByteArray m_plaintext;
    QString m_serverName;
    QString m_error;
    bool m_handshakeDone = false;
    bool m_closedByServer = false;
};

} // namespace strata
