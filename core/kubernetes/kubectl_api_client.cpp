#include "kubectl_api_client.h"

#include "ssh/remote_shell.h"
#include "ssh/streaming_shell.h"

namespace strata {

using namespace Qt::StringLiterals;

KubectlApiClient::KubectlApiClient(RemoteShell &shell, KubectlCommands commands)
    : m_shell(shell), m_commands(std::move(commands))
{
}

QFuture<CommandResult> KubectlApiClient::get(const QString &uri)
{
    return m_shell.run(m_commands.getRaw(uri));
}

QFuture<CommandResult> KubectlApiClient::watch(const QString &uri, std::function<void(const QByteArray &)> onOutput,
                                               std::shared_ptr<std::atomic_bool> stop)
{
    auto *streaming = dynamic_cast<StreamingShell *>(&m_shell);
    if (!streaming)
        return KubeApiClient::ready(CommandResult::transportFailure(
            ErrorKind::SourceUnsupported, u"%1 cannot stream a watch"_s.arg(m_shell.describe())));
    return streaming->stream(m_commands.watchRaw(uri), std::move(onOutput), std::move(stop));
}

bool KubectlApiClient::canWatch() const
{
    return dynamic_cast<StreamingShell *>(&m_shell) != nullptr;
}

QString KubectlApiClient::describeGet(const QString &uri) const
{
    return u"kubectl get --raw "_s + uri;
}

} // namespace strata
