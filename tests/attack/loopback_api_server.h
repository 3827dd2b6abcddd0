#pragma once

#include <QByteArray>
#include <QByteArrayList>
#include <QString>

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

// TEST ONLY: the API server end of the direct Kubernetes route without a lab (the login node is
// LoopbackTunnelShell): an HTTP(S) server on 127.0.0.1 (an ephemeral port, its own thread,
// OpenSSL over the socket when given a certificate) that records every request's bytes as they
// came off the wire and answers through a handler.
namespace strata::attack {

class LoopbackApiServer
{
public:
    // Writes the answer to a request (its head as received) through send; send returns false
    // once the client is gone.
    using Handler = std::function<void(const QByteArray &head, const std::function<bool(const QByteArray &)> &send)>;

    // certFile empty: plain HTTP.
    LoopbackApiServer(Handler handler, const QString &certFile = {}, const QString &keyFile = {});
    ~LoopbackApiServer();

    int port() const { return m_port; }
    // Every request head received so far, and how many connections were accepted.
    QByteArrayList requests() const;
    int connections() const { return m_connections.load(); }

private:
    void serve();
    void serveOne(int fd);

    Handler m_handler;
    QString m_certFile, m_keyFile;
    int m_listenFd = -1;
    int m_port = 0;
    std::atomic_bool m_stop{false};
    std::atomic_int m_connections{0};
    mutable std::mutex m_mutex;
    QByteArrayList m_requests;
    std::thread m_thread;
};

} // namespace strata::attack
