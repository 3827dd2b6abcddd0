#pragma once

#include "ssh/port_forwarding_shell.h"
#include "ssh/remote_shell.h"

#include <QByteArray>
#include <QString>
#include <QThreadPool>

#include <atomic>

// TEST ONLY: the login node of the direct Kubernetes route without a lab: run() answers
// `kubectl config view` and an exec plugin with what the test sets; converse() opens a real TCP
// connection to 127.0.0.1:port (LoopbackApiServer) and drives the conversation over it on a thread
// of its own, as SshRemoteShell does over a direct-tcpip channel on its session thread. Like that
// thread, its threads end with the shell: OpenSSL frees a thread's random generators when the
// thread ends, and a thread of Qt's global pool ends only after OpenSSL's own exit handler ran,
// so its generators were lost at exit (LeakSanitizer, in CI's ASan stage).
namespace strata::attack {

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

private:
    QThreadPool m_conversations; // waits for and joins its threads when the shell goes
};

// A kubeconfig as `kubectl config view --raw --minify --flatten -o json` prints it: cluster k at
// server (and the cluster's other fields, JSON members: "insecure-skip-tls-verify":true), user u
// with the given user object (token, exec...).
QByteArray kubeconfig(const QString &server, const QByteArray &userJson, const QByteArray &clusterFields = {});

} // namespace strata::attack
