#pragma once

#include "kube_api_client.h"
#include "kube_api_endpoint.h"
#include "kubectl_commands.h"
#include "model/error_kind.h"
#include "net/http_result.h"
#include "net/tls_client.h"

#include <QDateTime>

#include <mutex>

namespace strata {

class PortForwardingShell;
class RemoteShell;

// The API server itself, the way k9s and Lens reach it, but through the SSH connection: each
// GET is one HTTPS request over a tunnel from the login node to the server the kubeconfig names
// (SshRemoteShell's direct-tcpip channel; TLS and HTTP here, OpenSSL), with the kubeconfig's
// CA, server name and credentials: a bearer token, a client certificate, or an exec plugin
// (EKS's `aws eks get-token`) run on the login node, again when its credential expires or the
// server answers 401. kubectl is not run for lists and watches, so the login node spends
// nothing on them. connect() decides whether this works for the context at all; what it cannot
// do (a proxy-url, an auth-provider, a token file, plain http) makes KubeApiRouter use
// kubectl instead.
class KubeDirectApiClient : public KubeApiClient
{
public:
    KubeDirectApiClient(RemoteShell &shell, PortForwardingShell &tunnels, KubectlCommands commands,
                        int requestTimeoutSeconds);

    // Reads the kubeconfig on the login node (KubectlCommands::configView), runs its exec
    // plugin if it has one, and asks the server for /version through a tunnel. Blocks. False
    // with *why (and the kind) when the API cannot be reached this way; *loginNodeUnreachable
    // when the SSH connection itself failed (nothing was learnt about this way).
    bool connect(QString *why, ErrorKind *kind, bool *loginNodeUnreachable);
    // https://host:port as the kubeconfig says, and the server's gitVersion (after connect).
    QString server() const { return m_endpoint.server; }
    QString serverVersion() const { return m_serverVersion; }
    // The kubeconfig says insecure-skip-tls-verify: the server's certificate is not checked
    // (after connect). Said wherever the route is shown.
    // Plain http (a loopback `kubectl proxy` on the login node) has no certificate to verify.
    bool tlsVerified() const { return m_endpoint.scheme == QLatin1String("http") || !m_endpoint.insecureSkipTlsVerify; }

    QFuture<CommandResult> get(const QString &uri) override;
    QFuture<CommandResult> watch(const QString &uri, std::function<void(const QByteArray &)> onOutput,
                                 std::shared_ptr<std::atomic_bool> stop) override;
    bool canWatch() const override { return true; }
    QString describeGet(const QString &uri) const override;

    // An HTTP exchange's outcome in KubeApiClient's terms, the one place HTTP meets the shape
    // the kubectl route shares (KubeInformer reads both alike): a 2xx body as output; a status
    // other than 2xx, a TLS failure, an unreadable or too large answer as a call that ran and
    // failed with the server's words (a Status's message after "HTTP 403 Forbidden"); a request
    // not sent as InvalidRequest; the time limit as Timeout (may have run once it was sent).
    static CommandResult asApiAnswer(const HttpResult &http);

private:
    struct Credentials
    {
        TlsClientConfig tls;
        QByteArray authorization; // "Bearer ..." or empty (client certificate, anonymous)
        QDateTime expiresAt;      // of an exec plugin's credential; invalid: does not expire
    };
    // The credentials to use now: the exec plugin is run again when its credential expired or
    // the server refused it. Blocks while it runs. False with *why.
    bool currentCredentials(Credentials *out, QString *why);
    bool runExecPlugin(Credentials *into, QString *why);
    QFuture<CommandResult> exchange(const QString &uri, int timeoutMs, std::function<void(const QByteArray &)> onBody,
                                    std::shared_ptr<std::atomic_bool> stop);

    RemoteShell &m_shell;
    PortForwardingShell &m_tunnels;
    KubectlCommands m_commands;
    const int m_requestTimeoutMs;
    KubeApiEndpoint m_endpoint; // set by connect(), then read only
    QString m_serverVersion;

    std::mutex m_mutex; // guards m_credentials
    Credentials m_credentials;
    // The server answered 401: run the exec plugin again. Set by a request's end (shared: a
    // watch may end after this client is gone).
    std::shared_ptr<std::atomic_bool> m_credentialsRefused = std::make_shared<std::atomic_bool>(false);
};

} // namespace strata
