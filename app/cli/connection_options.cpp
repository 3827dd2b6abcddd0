#include "connection_options.h"
#include "kubernetes/kubectl_commands.h"

#include "profile/profile_store.h"
#include "ssh/shell_quote.h"

#include <QRegularExpression>

namespace strata {

void ConnectionOptions::addTo(QCommandLineParser &parser)
{
    parser.addOptions(options());
}

QList<QCommandLineOption> ConnectionOptions::options() const
{
    return {m_config, m_cluster, m_ssh, m_identity, m_knownHosts, m_acceptNewHostKey, m_remoteEnv,
            m_connectTimeout, m_commandTimeout, m_prometheus, m_prometheusToken, m_prometheusCa, m_alertmanager, m_pushgateway,
            m_kubernetes, m_kubeContext, m_kubeApi, m_namespace, m_idleGpuLimit, m_agent};
}

bool ConnectionOptions::namesCluster(const QCommandLineParser &parser) const
{
    return parser.isSet(m_cluster) || parser.isSet(m_ssh);
}

QString ConnectionOptions::profileStorePath(const QCommandLineParser &parser) const
{
    return parser.isSet(m_config) ? parser.value(m_config) : ProfileStore::defaultPath();
}

bool ConnectionOptions::parseSshTarget(const QString &target, ClusterProfile *profile, QString *error)
{
    static const QRegularExpression re(QStringLiteral("^(?:([^@\\s]+)@)?(\\[[^\\]]+\\]|[^:@\\s\\[\\]]+)(?::(\\d{1,5}))?\\z"));
    const auto m = re.match(target);
    if (!m.hasMatch()) {
        *error = QStringLiteral("--ssh \"%1\" is not [user@]host[:port]").arg(target);
        return false;
    }
    if (!m.captured(1).isEmpty())
        profile->sshUser = m.captured(1);
    QString host = m.captured(2);
    if (host.startsWith(QLatin1Char('[')))
        host = host.mid(1, host.size() - 2);
    profile->sshHost = host;
    if (!m.captured(3).isEmpty()) {
        const int port = m.captured(3).toInt();
        if (port < 1 || port > 65535) {
            *error = QStringLiteral("--ssh port %1 is out of range").arg(m.captured(3));
            return false;
        }
        profile->sshPort = port;
    } else {
        profile->sshPort = 0; // ~/.ssh/config or 22
    }
    return true;
}

bool ConnectionOptions::resolve(const QCommandLineParser &parser, ClusterProfile *profile, QString *error,
                                SshRequirement ssh) const
{
    ClusterProfile p;
    if (parser.isSet(m_cluster)) {
        const ProfileStore store(profileStorePath(parser));
        QString loadError;
        const QVector<ClusterProfile> all = store.load(&loadError);
        if (!loadError.isEmpty()) {
            *error = loadError;
            return false;
        }
        const QString name = parser.value(m_cluster);
        bool found = false;
        for (const ClusterProfile &candidate : all) {
            if (candidate.name == name) {
                p = candidate;
                found = true;
            }
        }
        if (!found) {
            *error = QStringLiteral("no cluster profile named \"%1\" in %2").arg(name, store.path());
            return false;
        }
    }
    if (parser.isSet(m_ssh)) {
        if (!parseSshTarget(parser.value(m_ssh), &p, error))
            return false;
        if (p.name.isEmpty())
            p.name = parser.value(m_ssh);
    }
    if (p.sshHost.isEmpty() && ssh == SshRequired) {
        *error = QStringLiteral("no cluster given: use --cluster NAME or --ssh [user@]host[:port]");
        return false;
    }
    if (parser.isSet(m_identity))
        p.identityFile = parser.value(m_identity);
    if (parser.isSet(m_knownHosts))
        p.knownHostsFile = parser.value(m_knownHosts);
    if (parser.isSet(m_acceptNewHostKey))
        p.acceptNewHostKey = true;
    for (const QString &kv : parser.values(m_remoteEnv)) {
        const int eq = kv.indexOf(QLatin1Char('='));
        const QString key = kv.left(eq);
        if (eq <= 0 || !ShellQuote::isValidVariableName(key)) {
            *error = QStringLiteral("--remote-env \"%1\" is not KEY=VALUE with a valid variable name").arg(kv);
            return false;
        }
        for (int i = 0; i < p.remoteEnvironment.size(); ++i) {
            if (p.remoteEnvironment[i].first == key) {
                p.remoteEnvironment.removeAt(i);
                break;
            }
        }
        p.remoteEnvironment.append({key, kv.mid(eq + 1)});
    }
    auto seconds = [&](const QCommandLineOption &option, int *target) {
        if (!parser.isSet(option))
            return true;
        bool ok = false;
        const int v = parser.value(option).toInt(&ok);
        if (!ok || v < 1) {
            *error = QStringLiteral("--%1 needs a whole number of seconds").arg(option.names().first());
            return false;
        }
        *target = v;
        return true;
    };
    if (!seconds(m_connectTimeout, &p.connectTimeoutSeconds) || !seconds(m_commandTimeout, &p.commandTimeoutSeconds))
        return false;
    if (parser.isSet(m_prometheus))
        p.prometheusUrl = parser.value(m_prometheus);
    if (parser.isSet(m_prometheusToken))
        p.prometheusToken = parser.value(m_prometheusToken);
    else if (qEnvironmentVariableIsSet("STRATA_PROMETHEUS_TOKEN"))
        p.prometheusToken = qEnvironmentVariable("STRATA_PROMETHEUS_TOKEN");
    if (parser.isSet(m_prometheusCa))
        p.prometheusCaFile = parser.value(m_prometheusCa);
    if (parser.isSet(m_alertmanager))
        p.alertmanagerUrl = parser.value(m_alertmanager);
    if (parser.isSet(m_pushgateway))
        p.pushgatewayUrl = parser.value(m_pushgateway);
    if (parser.isSet(m_kubernetes))
        p.orchestrator = OrchestratorKind::Kubernetes;
    if (parser.isSet(m_kubeContext))
        p.kubeContext = parser.value(m_kubeContext);
    if (parser.isSet(m_namespace)) {
        // It becomes a segment of the API's URL path and a kubectl argument: refused here, before
        // anything runs, as the API server would refuse it.
        if (const QString problem = KubectlCommands::namespaceProblem(parser.value(m_namespace)); !problem.isEmpty()) {
            *error = QStringLiteral("--namespace: ") + problem;
            return false;
        }
        p.kubeNamespace = parser.value(m_namespace);
    }
    if (parser.isSet(m_kubeApi)) {
        const QString word = parser.value(m_kubeApi);
        const std::optional<KubeApiRoute> route = parseKubeApiRoute(word);
        if (!route) {
            *error = QStringLiteral("--kube-api \"%1\" is not auto, direct or kubectl").arg(word);
            return false;
        }
        p.kubeApi = route;
    }
    if (parser.isSet(m_idleGpuLimit)) {
        QString why;
        const std::optional<IdleGpuLimits> limits = IdleGpuLimits::parse(parser.value(m_idleGpuLimit), &why);
        if (!limits) {
            *error = QStringLiteral("--idle-gpu-limit: ") + why;
            return false;
        }
        p.idleGpuLimits = *limits;
    }
    if (parser.isSet(m_agent))
        p.burninAgentPath = parser.value(m_agent);
    *profile = p;
    return true;
}

} // namespace strata
