#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

namespace strata {

// A client-go exec credential plugin as the kubeconfig names it (users[].user.exec): a program
// on the login node that prints an ExecCredential (`aws eks get-token`, gke-gcloud-auth-plugin).
struct KubeExecPlugin
{
    QString apiVersion; // client.authentication.k8s.io/v1 or v1beta1
    QString command;    // as written: a name looked up in PATH, or a path
    QStringList args;
    QList<QPair<QString, QString>> env; // literal values, in the kubeconfig's order
    QString interactiveMode;            // Never/IfAvailable/Always or empty
    bool provideClusterInfo = false;
    QString installHint; // the kubeconfig's words on how to get the plugin; may be empty
};

// Where and as whom Strata talks to one Kubernetes API server itself, read from the login
// node's kubeconfig (KubeApiCredentials::parseConfigView). A value: nothing here does I/O.
struct KubeApiEndpoint
{
    QString contextName, clusterName, userName, namespaceName;
    QString server; // as written, e.g. https://ABC.gr7.us-east-1.eks.amazonaws.com
    // "https" or "http"; when the server names none, client-go's rule: https if the cluster or
    // user has TLS settings, else http.
    QString scheme;
    QString host;   // from server, lower-cased (IPv6 without brackets)
    int port = 443; // the server's, else 443 for https and 80 for http
    // The server URL's path without a trailing '/', e.g. /k8s/clusters/c-x (Rancher); usually
    // empty.
    QString basePath;
    QByteArray caPem; // certificate-authority-data decoded; empty: the client's default roots
    // cluster.certificate-authority left as a path on the login node (output without --flatten):
    // the CA Strata would have to trust and cannot read. Empty when inlined or absent.
    QString certificateAuthorityPath;
    QString tlsServerName; // cluster.tls-server-name, empty if absent
    bool insecureSkipTlsVerify = false;
    QString proxyUrl; // cluster.proxy-url
    // cluster.extensions' "client.authentication.k8s.io/exec": what client-go hands an exec
    // plugin that asks for cluster info as spec.cluster.config. Usually empty.
    QJsonObject execClusterConfig;
    QString token; // user.token
    // user.client-certificate-data / client-key-data decoded
    QByteArray clientCertPem, clientKeyPem;
    std::optional<KubeExecPlugin> exec;
    // Non-empty: the user authenticates in a way Strata's direct client does not do
    // (auth-provider, username/password, tokenFile, client certificate or key as file paths that
    // --flatten did not inline, impersonation "as"...); says which, in words for a person.
    QString unsupportedAuth;
};

} // namespace strata
