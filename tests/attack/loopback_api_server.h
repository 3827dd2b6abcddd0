#pragma once

#include "ssh/port_forwarding_shell.h"
#include "ssh/remote_shell.h"

#include <QByteArray>
#include <QByteArrayList>
#include <QString>

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

// TEST ONLY: the two ends of the direct Kubernetes route without a lab. LoopbackApiServer is an
// HTTP(S) server on 127.0.0.1 (an ephemeral port, its own thread, OpenSSL over the socket when
// given a certificate) that records every request's bytes as they came off the wire and answers
// through a handler; LoopbackTunnelShell is the login node: run() answers `kubectl config view`
// and an exec plugin with what the test sets, converse() opens a real TCP connection to the
// server and drives the conversation over it, as SshRemoteShell does over a direct-tcpip channel.
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

class LoopbackTunnelShell : public RemoteShell, public PortForwardingShell
{
public:
    QByteArray configView;     // stdout of `kubectl config view ...`
    QByteArray execCredential; // stdout of the exec plugin (argv starting with env)
    std::atomic_int execRuns{0};  // how often the exec plugin was run

    QFuture<CommandResult> run(const QStringList &argv, const QByteArray &stdinData = {}) override;
    QFuture<CommandResult> upload(const QString &remotePath, const QByteArray &data, int mode) override;
    QString describe() const override { return QStringLiteral("loopback login node"); }
    QFuture<CommandResult> converse(const QString &host, int port, std::shared_ptr<TunnelConversation> conversation,
                                    std::shared_ptr<std::atomic_bool> stop) override;
};

// A kubeconfig as `kubectl config view --raw --minify --flatten -o json` prints it: cluster k at
// server (and the cluster's other fields, JSON members: "insecure-skip-tls-verify":true), user u
// with the given user object (token, exec...).
QByteArray kubeconfig(const QString &server, const QByteArray &userJson, const QByteArray &clusterFields = {});

} // namespace strata::attack
