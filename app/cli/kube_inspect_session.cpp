#include "kube_inspect_session.h"

#include "cli/cli_failure.h"
#include "cli/cli_profile_resolver.h"
#include "session/cluster_session.h"
#include "session/terminal_login_prompter.h"

namespace strata {

KubeInspectSession::KubeInspectSession() = default;
KubeInspectSession::~KubeInspectSession() = default;

bool KubeInspectSession::open(const ConnectionOptions &connection, QCommandLineParser &parser, const QString &command,
                              int *exitCode)
{
    if (!CliProfileResolver::resolve(connection, parser, &m_profile)) {
        *exitCode = 2;
        return false;
    }
    if (m_profile.orchestrator != OrchestratorKind::Kubernetes) {
        *exitCode = CliFailure::report(QStringLiteral("%1 reads Kubernetes objects: the cluster must be Kubernetes "
                                                      "(--kubernetes, or a Kubernetes profile)").arg(command),
                                       ErrorKind::InvalidRequest);
        return false;
    }
    m_session = std::make_unique<ClusterSession>(m_profile, std::make_shared<TerminalLoginPrompter>());
    return m_session->kubeInspector() != nullptr;
}

KubeInspector &KubeInspectSession::inspector() const
{
    return *m_session->kubeInspector();
}

QString KubeInspectSession::namespaceName() const
{
    return m_profile.kubeNamespace.isEmpty() ? QStringLiteral("default") : m_profile.kubeNamespace;
}

} // namespace strata
