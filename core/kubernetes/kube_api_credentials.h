#pragma once

#include "kube_api_endpoint.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

#include <optional>

namespace strata {

// What Strata needs to talk to a Kubernetes API server itself (through an SSH tunnel from the
// login node) instead of through kubectl: the login node's kubeconfig, and the credentials an
// exec plugin prints. Pure functions: no I/O; the caller runs the commands.
namespace KubeApiCredentials {

// stdout of `kubectl config view --raw --minify --flatten -o json [--context C]`. nullopt with
// *error (what is missing or wrong, in words a person can act on) when it is not such output
// (kubectl prints nothing when there is no current context or C does not exist), has no current
// context / cluster / server, the server is not a URL, base64 is broken, or the user's token
// holds a control character (it goes into an HTTP header field).
std::optional<KubeApiEndpoint> parseConfigView(const QByteArray &json, QString *error);

// Why Strata cannot talk to this endpoint directly (then it falls back to kubectl); empty when
// it can. Refused:
//  - a scheme other than https, except http to a loopback host: that is `kubectl proxy` on the
//    login node, reached through the SSH tunnel, so the plain-text leg never leaves that node
//    (and the lab's kube stand-in); plain http anywhere else would carry the token in the clear;
//  - proxy-url (the direct client speaks to the server, not through an HTTP or SOCKS proxy);
//  - unsupportedAuth, or a certificate authority left as a file path;
//  - an exec plugin Strata cannot run: unknown apiVersion, interactiveMode Always (the remote
//    command has no terminal), a command relative to the kubeconfig's folder ("./bin/x", which
//    client-go resolves there and `config view` does not say where that is).
// Allowed: no credentials at all (anonymous, as kubectl would send; the server answers 401/403
// if it does not allow it), and insecure-skip-tls-verify (the kubeconfig's owner chose it).
QString directRefusal(const KubeApiEndpoint &endpoint);

struct ExecCredential
{
    QString token;
    QByteArray clientCertPem, clientKeyPem;
    QDateTime expiresAt; // invalid: no expiry
};

// stdout of an exec plugin: apiVersion client.authentication.k8s.io/v1 or v1beta1, kind
// ExecCredential, status.token and/or status.clientCertificateData + clientKeyData (PEM text),
// optional status.expirationTimestamp (RFC 3339). nullopt with *error otherwise, and when the
// token holds a control character.
std::optional<ExecCredential> parseExecCredential(const QByteArray &json, QString *error);

// The argv that runs the endpoint's exec plugin on the login node through RemoteShell (which
// quotes each element; no command line is ever built here):
//   {"env", "--", "KUBERNETES_EXEC_INFO=<ExecCredential JSON, spec.interactive false, plus
//    spec.cluster when provideClusterInfo>", "NAME=VALUE" for each plugin env, command, args...}
// Empty with *error when the endpoint has no exec plugin, an env name is not
// [A-Za-z_][A-Za-z0-9_]*, or the command is empty, starts with '-' or holds '=' (env would take
// it for an option or a setting): ShellQuote::environmentProblem.
QStringList execArgv(const KubeApiEndpoint &endpoint, QString *error);

} // namespace KubeApiCredentials
} // namespace strata
