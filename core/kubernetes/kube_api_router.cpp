#include "kube_api_router.h"

#include "kube_direct_api_client.h"
#include "kubectl_api_client.h"
#include "ssh/port_forwarding_shell.h"
#include "ssh/remote_shell.h"

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcKubernetes)

namespace strata {

using namespace Qt::StringLiterals;

KubeApiRouter::KubeApiRouter(RemoteShell &shell, KubectlCommands commands, int requestTimeoutSeconds,
                             KubeApiRoute route)
    : m_route(route), m_shell(shell), m_commands(std::move(commands)), m_requestTimeoutSeconds(requestTimeoutSeconds),
      m_kubectl(std::make_unique<KubectlApiClient>(shell, m_commands))
{
}

KubeApiRouter::~KubeApiRouter() = default;

KubeApiClient &KubeApiRouter::chosen() const
{
    std::lock_guard lock(m_mutex);
    if (m_decided && m_sinceFailedDirect.isValid() && m_sinceFailedDirect.elapsed() > kRetryDirectSeconds * 1000LL) {
        m_decided = false; // the API server may answer through the tunnel now
        m_sinceFailedDirect.invalidate();
    }
    if (!m_decided) {
        m_decided = true;
        auto *tunnels = dynamic_cast<PortForwardingShell *>(&m_shell);
        QString why;
        ErrorKind kind = ErrorKind::None;
        if (m_route == KubeApiRoute::Kubectl) {
            why = u"asked for"_s;
        } else if (!tunnels) {
            why = u"%1 cannot forward a connection"_s.arg(m_shell.describe());
            kind = ErrorKind::SourceUnsupported;
        } else {
            m_direct = std::make_unique<KubeDirectApiClient>(m_shell, *tunnels, m_commands, m_requestTimeoutSeconds);
            bool loginNodeUnreachable = false;
            m_useDirect = m_direct->connect(&why, &kind, &loginNodeUnreachable);
            if (loginNodeUnreachable) {
                // Neither route works while the login node cannot be reached: decide next time.
                m_decided = false;
                m_direct.reset();
                return *m_kubectl;
            }
        }
        m_routeWarning.clear();
        if (m_useDirect) {
            m_routeText = u"%1 (%2) through an SSH tunnel from %3"_s.arg(m_direct->server(), m_direct->serverVersion(),
                                                                        m_shell.describe());
            if (!m_direct->tlsVerified()) {
                // The kubeconfig's choice, honoured as kubectl does, but never silently: the token
                // and every answer are open to whoever sits between the login node and the server.
                m_routeText += u", TLS NOT VERIFIED (insecure-skip-tls-verify)"_s;
                m_routeWarning = u"the API server's certificate is not verified (the kubeconfig says "
                                 "insecure-skip-tls-verify): anyone between %1 and %2 can read the token and "
                                 "change what Strata shows"_s.arg(m_shell.describe(), m_direct->server());
            }
        } else {
            m_routeText = u"kubectl on %1 (%2)"_s.arg(m_shell.describe(), why);
            if (m_route == KubeApiRoute::Direct) {
                m_directFailure = u"the API server cannot be reached directly: %1"_s.arg(why);
                m_directFailureKind = kind == ErrorKind::None ? ErrorKind::SourceUnsupported : kind;
            } else if (m_route == KubeApiRoute::Auto && tunnels) {
                m_notice = u"the API server is read through kubectl on the login node, not directly: %1"_s.arg(why);
                if (kind != ErrorKind::SourceUnsupported && kind != ErrorKind::ParseFailed)
                    m_sinceFailedDirect.start(); // not a refusal of the kubeconfig: try again later
            }
        }
        qCDebug(lcKubernetes).noquote() << "Kubernetes API:" << m_routeText; // shown as the part's via
    }
    if (m_useDirect)
        return *m_direct;
    return *m_kubectl;
}

QFuture<CommandResult> KubeApiRouter::get(const QString &uri)
{
    KubeApiClient &client = chosen();
    if (!m_directFailure.isEmpty())
        return ready(CommandResult::transportFailure(m_directFailureKind, m_directFailure));
    return client.get(uri);
}

QFuture<CommandResult> KubeApiRouter::watch(const QString &uri, std::function<void(const QByteArray &)> onOutput,
                                            std::shared_ptr<std::atomic_bool> stop)
{
    KubeApiClient &client = chosen();
    if (!m_directFailure.isEmpty())
        return ready(CommandResult::transportFailure(m_directFailureKind, m_directFailure));
    return client.watch(uri, std::move(onOutput), std::move(stop));
}

bool KubeApiRouter::canWatch() const
{
    return chosen().canWatch();
}

QString KubeApiRouter::describeGet(const QString &uri) const
{
    KubeApiClient &client = chosen();
    if (!m_directFailure.isEmpty())
        return u"GET "_s + uri;
    return client.describeGet(uri);
}

bool KubeApiRouter::watchesHoldSessions() const
{
    (void)chosen();
    std::lock_guard lock(m_mutex);
    return !m_useDirect && dynamic_cast<PortForwardingShell *>(&m_shell) != nullptr;
}

QString KubeApiRouter::describeRoute() const
{
    std::lock_guard lock(m_mutex);
    return m_routeText;
}

QString KubeApiRouter::routeWarning() const
{
    std::lock_guard lock(m_mutex);
    return m_routeWarning;
}

QString KubeApiRouter::takeFallbackNotice()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_notice, {});
}

} // namespace strata
