#pragma once

#include "profile/cluster_profile.h"

#include <QCommandLineParser>
#include <QString>

namespace strata {

// The connection flags shared by the window and every subcommand (--cluster, --ssh, ...), and
// how they combine with a saved profile: flags override the profile's fields.
class ConnectionOptions
{
public:
    void addTo(QCommandLineParser &parser);
    QList<QCommandLineOption> options() const;
    // True when any flag names a cluster (a saved profile or --ssh).
    bool namesCluster(const QCommandLineParser &parser) const;
    // The profile to use; false with *error set when the flags are inconsistent or unknown.
    enum SshRequirement { SshRequired, SshOptional };
    bool resolve(const QCommandLineParser &parser, ClusterProfile *profile, QString *error,
                 SshRequirement ssh = SshRequired) const;
    QString profileStorePath(const QCommandLineParser &parser) const;

    // "user@host:port" -> fields; false when malformed.
    static bool parseSshTarget(const QString &target, ClusterProfile *profile, QString *error);

private:
    QCommandLineOption m_config{QStringLiteral("config"), QStringLiteral("Profile file (default ~/.config/strata/clusters.json)."), QStringLiteral("file")};
    QCommandLineOption m_cluster{QStringLiteral("cluster"), QStringLiteral("Saved cluster profile to use."), QStringLiteral("name")};
    QCommandLineOption m_ssh{QStringLiteral("ssh"), QStringLiteral("Login node: [user@]host[:port]."), QStringLiteral("target")};
    QCommandLineOption m_identity{QStringLiteral("identity"), QStringLiteral("SSH private key (default: ssh-agent, ~/.ssh keys)."), QStringLiteral("file")};
    QCommandLineOption m_knownHosts{QStringLiteral("known-hosts"), QStringLiteral("known_hosts file (default ~/.ssh/known_hosts)."), QStringLiteral("file")};
    QCommandLineOption m_acceptNewHostKey{QStringLiteral("accept-new-host-key"), QStringLiteral("Trust and record an unknown host key (a changed key is always refused).")};
    QCommandLineOption m_remoteEnv{QStringLiteral("remote-env"), QStringLiteral("Remote environment for cluster commands, KEY=VALUE (repeatable; $VAR expands remotely)."), QStringLiteral("KEY=VALUE")};
    QCommandLineOption m_connectTimeout{QStringLiteral("connect-timeout"), QStringLiteral("SSH connect timeout in seconds (default 10)."), QStringLiteral("s")};
    QCommandLineOption m_commandTimeout{QStringLiteral("command-timeout"), QStringLiteral("Remote command timeout in seconds (default 60)."), QStringLiteral("s")};
    QCommandLineOption m_prometheus{QStringLiteral("prometheus"), QStringLiteral("Prometheus base URL."), QStringLiteral("url")};
    QCommandLineOption m_prometheusToken{QStringLiteral("prometheus-token"), QStringLiteral("Bearer token for Prometheus (or STRATA_PROMETHEUS_TOKEN)."), QStringLiteral("token")};
    QCommandLineOption m_prometheusCa{QStringLiteral("prometheus-ca"), QStringLiteral("CA certificate file for Prometheus over HTTPS."), QStringLiteral("file")};
    QCommandLineOption m_pushgateway{QStringLiteral("pushgateway"), QStringLiteral("Pushgateway base URL (where the repair loop publishes node health states and GPU records; Prometheus scrapes it)."), QStringLiteral("url")};
    QCommandLineOption m_alertmanager{QStringLiteral("alertmanager"), QStringLiteral("Alertmanager base URL (silences; same credentials as Prometheus)."), QStringLiteral("url")};
    QCommandLineOption m_kubernetes{QStringLiteral("kubernetes"), QStringLiteral("The cluster is Kubernetes (kubectl on the SSH host), not Slurm.")};
    QCommandLineOption m_kubeContext{QStringLiteral("kube-context"), QStringLiteral("kubectl context."), QStringLiteral("name")};
    QCommandLineOption m_kubeApi{QStringLiteral("kube-api"), QStringLiteral("How lists and watches reach the Kubernetes API server: auto (directly through an SSH tunnel with the kubeconfig's credentials when it allows, else kubectl), direct, or kubectl."), QStringLiteral("route")};
    QCommandLineOption m_namespace{QStringList{QStringLiteral("n"), QStringLiteral("namespace")}, QStringLiteral("Kubernetes namespace (default: all for reads, 'default' for jobs)."), QStringLiteral("ns")};
    QCommandLineOption m_idleGpuLimit{QStringLiteral("idle-gpu-limit"), QStringLiteral("How long a running job's GPUs may stay idle per partition before a finding names it, e.g. gpu:30m,*:2h (never acted on; saved by profile add/save)."), QStringLiteral("limits")};
    QCommandLineOption m_agent{QStringLiteral("agent"), QStringLiteral("Remote path of the strata-burn agent."), QStringLiteral("path")};
};

} // namespace strata
