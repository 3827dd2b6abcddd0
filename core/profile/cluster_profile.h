#pragma once

#include "idle_gpu_limits.h"
#include "model/kube_api_route.h"
#include "model/orchestrator_kind.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>

#include <optional>

namespace strata {

// Everything needed to reach one cluster. Stored (without secrets) by ProfileStore; every field
// can also come from a command-line flag. Secrets (passphrases, Prometheus token) live in the
// desktop keyring or come from flags/environment, never from this struct's stored form.
struct ClusterProfile
{
    QString name;
    OrchestratorKind orchestrator = OrchestratorKind::Slurm; // stored as "slurm" or "kubernetes"

    // SSH to the login / bastion host
    QString sshHost;
    int sshPort = 22;
    QString sshUser;
    QString identityFile;     // empty: ssh-agent and ~/.ssh defaults
    QString knownHostsFile;   // empty: ~/.ssh/known_hosts
    bool acceptNewHostKey = false; // CLI --accept-new-host-key; the UI asks instead
    int connectTimeoutSeconds = 10;
    int commandTimeoutSeconds = 60;
    QList<QPair<QString, QString>> remoteEnvironment; // e.g. SLURM_CONF, PATH, KUBECONFIG

    // Prometheus
    QString prometheusUrl;
    QString prometheusToken;  // secret: never saved by ProfileStore
    QString prometheusUser;
    QString prometheusPassword; // secret
    QString prometheusCaFile;
    // Whether a token or password was given for this profile and so handed to the keyring: only
    // then is the keyring read at connect (and a keyring that cannot be read worth a note).
    // Profiles saved before this field read as true: their secrets may be there.
    bool prometheusSecretsInKeyring = false;
    QString hostLabel;        // "" = accept both Hostname and hostname
    QMap<QString, QString> hostRelabel; // exporter host name -> node name
    // Alertmanager (optional): its alerts say which are silenced; silences are made there.
    // Reached with the Prometheus credentials and CA file (often the same proxy).
    QString alertmanagerUrl;
    // The Pushgateway the repair loop publishes to (same credentials and CA as Prometheus);
    // empty: the loop publishes nothing and `strata watch` refuses to act.
    QString pushgatewayUrl;
    // The repair loop's policy as the file has it (`"repair": {...}`), read and checked by
    // RepairPolicy::fromJson where it is used (the profile does not know the repair part).
    QJsonObject repairPolicy;
    // Grafana (optional): dashboard URL templates for "Open in Grafana" (GrafanaLink: {node},
    // {gpu}, {job}, {cluster}, {from}, {to}).
    QString grafanaNodeUrl;
    QString grafanaJobUrl;

    // Kubernetes
    QString kubeContext;
    QString kubeNamespace;
    // How lists and watches reach the API server; nullopt (not given) reads as Auto. Stored as
    // "auto", "direct" or "kubectl", and only when given.
    std::optional<KubeApiRoute> kubeApi;

    // Burn-in
    QString burninAgentPath;  // remote path of strata-burn
    QString burninImage;      // container image with strata-burn (Kubernetes)

    int refreshIntervalSeconds = 10;
    // How long a running job's GPUs may stay idle per partition before the "idle-gpu-limit"
    // finding names it (IdleGpuLimits); empty: no limit, no finding.
    IdleGpuLimits idleGpuLimits;

    bool hasPrometheus() const { return !prometheusUrl.isEmpty(); }
    QString sshTarget() const; // user@host:port
};

} // namespace strata
