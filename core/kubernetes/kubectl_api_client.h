#pragma once

#include "kube_api_client.h"
#include "kubectl_commands.h"

namespace strata {

class RemoteShell;

// The API through `kubectl get --raw` on the login node: kubectl brings the kubeconfig's
// server, TLS and credentials (any auth it knows) and passes the API's JSON through. The
// fallback when the API cannot be reached through a tunnel; watches need a StreamingShell.
class KubectlApiClient : public KubeApiClient
{
public:
    KubectlApiClient(RemoteShell &shell, KubectlCommands commands);

    QFuture<CommandResult> get(const QString &uri) override;
    QFuture<CommandResult> watch(const QString &uri, std::function<void(const QByteArray &)> onOutput,
                                 std::shared_ptr<std::atomic_bool> stop) override;
    bool canWatch() const override;
    QString describeGet(const QString &uri) const override;

private:
    RemoteShell &m_shell;
    KubectlCommands m_commands;
};

} // namespace strata
