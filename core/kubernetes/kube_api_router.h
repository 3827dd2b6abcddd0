#pragma once

#include "kube_api_client.h"
#include "kubectl_commands.h"
#include "model/kube_api_route.h"

#include <QElapsedTimer>
#include <QString>

#include <memory>
#include <mutex>

namespace strata {

class KubeDirectApiClient;
class KubectlApiClient;
class RemoteShell;

// The KubeApiClient a source's informers share: on first use it decides the route
// (KubeDirectApiClient::connect; with Auto, kubectl when that fails, and the reason is kept for
// the part's warnings) and then hands every call to that client. A kubeconfig the direct client
// refuses keeps kubectl for the source's life; a direct route that failed (the API server did not
// answer /version through the tunnel) is tried again after kRetryDirectSeconds. The decision
// blocks the first caller (it runs remote commands); the others wait for it.
class KubeApiRouter : public KubeApiClient
{
public:
    static constexpr int kRetryDirectSeconds = 300;

    KubeApiRouter(RemoteShell &shell, KubectlCommands commands, int requestTimeoutSeconds, KubeApiRoute route);
    ~KubeApiRouter() override;

    QFuture<CommandResult> get(const QString &uri) override;
    QFuture<CommandResult> watch(const QString &uri, std::function<void(const QByteArray &)> onOutput,
                                 std::shared_ptr<std::atomic_bool> stop) override;
    bool canWatch() const override;
    QString describeGet(const QString &uri) const override;

    // How the API is read, for a person: "https://host:6443 (v1.31.4) through an SSH tunnel"
    // (", TLS NOT VERIFIED (insecure-skip-tls-verify)" after it when so) or "kubectl on the
    // login node (why not directly)". Empty before the first call.
    QString describeRoute() const;
    // What a person must know about the route on every refresh (the part's warning): the
    // server's certificate is not verified. Empty when there is nothing to say.
    QString routeWarning() const;
    // Why the direct route failed, once (Auto: the part's warning), then empty.
    QString takeFallbackNotice();
    // Whether each watch holds a session of the login node's sshd: the kubectl route over SSH runs
    // every watch as a `kubectl get --raw` in a session of its own, and sshd allows MaxSessions
    // (10 by default) per connection. False for the direct route (its tunnels are no sessions)
    // and for a shell that is no SSH connection. Decides the route if it is not decided yet.
    bool watchesHoldSessions() const;

private:
    KubeApiClient &chosen() const;

    const KubeApiRoute m_route;
    RemoteShell &m_shell;
    KubectlCommands m_commands;
    const int m_requestTimeoutSeconds;
    std::unique_ptr<KubectlApiClient> m_kubectl;
    mutable std::unique_ptr<KubeDirectApiClient> m_direct; // made by the decision

    mutable std::mutex m_mutex; // the decision; after it the clients are read only
    mutable bool m_decided = false;
    mutable QElapsedTimer m_sinceFailedDirect; // valid: Auto fell back after a failure (not a refusal)
    mutable bool m_useDirect = false;
    mutable QString m_directFailure;   // Direct route: every call fails with it
    mutable ErrorKind m_directFailureKind = ErrorKind::None;
    mutable QString m_routeText;
    mutable QString m_routeWarning;
    mutable QString m_notice;
};

} // namespace strata
