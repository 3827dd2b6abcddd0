#include "kube_api_credentials.h"

#include "model/input_check.h"
#include "ssh/shell_quote.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>

namespace strata::KubeApiCredentials {

using namespace Qt::StringLiterals;

namespace {

// A flattened kubeconfig is a few KB per certificate; an ExecCredential less than that.
constexpr qsizetype maxInputBytes = qsizetype(16) * 1024 * 1024;

constexpr auto execApiV1 = "client.authentication.k8s.io/v1"_L1;
constexpr auto execApiV1beta1 = "client.authentication.k8s.io/v1beta1"_L1;
// The cluster extension whose content client-go hands to exec plugins as spec.cluster.config.
constexpr auto execExtensionName = "client.authentication.k8s.io/exec"_L1;

// The entry `name` of a kubeconfig list ("clusters": [{"name": ..., "cluster": {...}}]).
std::optional<QJsonObject> namedEntry(const QJsonObject &root, QLatin1StringView list,
                                      const QString &name, QLatin1StringView field)
{
    for (const QJsonValue &entry : root.value(list).toArray()) {
        const QJsonObject object = entry.toObject();
        if (object.value("name"_L1).toString() == name)
            return object.value(field).toObject();
    }
    return std::nullopt;
}

// *out = the decoded base64 of object[key]; false when it is there and not base64.
bool decodeBase64(const QJsonObject &object, QLatin1StringView key, QByteArray *out)
{
    const QString text = object.value(key).toString();
    if (text.isEmpty())
        return true;
    const auto decoded =
        QByteArray::fromBase64Encoding(text.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return false;
    *out = *decoded;
    return true;
}

QString brokenBase64(const QString &owner, QLatin1StringView key)
{
    return u"%1's %2 is not valid base64; regenerate the kubeconfig entry (e.g. with the cloud's "
           "`update-kubeconfig` command)"_s.arg(owner, QString(key));
}

// client-go's rule (rest.DefaultServerURL) for a server written without a scheme: https when
// the cluster or user has TLS settings, else http.
QString serverUrlText(const QString &server, bool hasTlsSettings)
{
    if (server.contains("://"_L1))
        return server;
    return (hasTlsSettings ? "https://"_L1 : "http://"_L1) + server;
}

// A value that goes into an HTTP header field (a bearer token) may hold no control character:
// a CR or LF would end the field and add others of the kubeconfig writer's choosing.
bool hasControlCharacter(const QString &text)
{
    return std::any_of(text.begin(), text.end(), [](QChar c) { return c.unicode() < 0x20 || c.unicode() == 0x7f; });
}

bool isLoopbackHost(const QString &host)
{
    static const QRegularExpression ipv4Loopback(u"^127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\z"_s);
    return host.compare("localhost"_L1, Qt::CaseInsensitive) == 0 || host == "::1"_L1 ||
           ipv4Loopback.match(host).hasMatch();
}

KubeExecPlugin parseExecPlugin(const QJsonObject &exec)
{
    KubeExecPlugin plugin;
    plugin.apiVersion = exec.value("apiVersion"_L1).toString();
    plugin.command = exec.value("command"_L1).toString();
    for (const QJsonValue &arg : exec.value("args"_L1).toArray())
        plugin.args << arg.toString();
    for (const QJsonValue &entry : exec.value("env"_L1).toArray()) {
        const QJsonObject variable = entry.toObject();
        plugin.env.append(
            {variable.value("name"_L1).toString(), variable.value("value"_L1).toString()});
    }
    plugin.interactiveMode = exec.value("interactiveMode"_L1).toString();
    plugin.provideClusterInfo = exec.value("provideClusterInfo"_L1).toBool();
    plugin.installHint = exec.value("installHint"_L1).toString();
    return plugin;
}

// The ways of authenticating that Strata's direct client does not do, in words; empty if none.
QStringList unsupportedAuthOf(const QJsonObject &user)
{
    QStringList reasons;
    if (const QJsonObject provider = user.value("auth-provider"_L1).toObject(); !provider.isEmpty())
        reasons << u"an auth-provider (%1)"_s.arg(provider.value("name"_L1).toString());
    if (user.contains("username"_L1) || user.contains("password"_L1))
        reasons << u"a username and password"_s;
    if (const QString file = user.value("tokenFile"_L1).toString(); !file.isEmpty())
        reasons << u"a token read from a file on the login node (tokenFile %1)"_s.arg(file);
    for (const auto key : {"client-certificate"_L1, "client-key"_L1})
        if (const QString file = user.value(key).toString(); !file.isEmpty())
            reasons << u"a %1 file on the login node (%2) that kubectl did not inline (--flatten)"_s
                           .arg(key, file);
    const QString as = user.value("as"_L1).toString();
    if (!as.isEmpty() || user.contains("as-uid"_L1) ||
        !user.value("as-groups"_L1).toArray().isEmpty() ||
        !user.value("as-user-extra"_L1).toObject().isEmpty())
        reasons << (as.isEmpty() ? u"impersonation"_s : u"impersonation (as %1)"_s.arg(as));
    return reasons;
}

} // namespace

std::optional<KubeApiEndpoint> parseConfigView(const QByteArray &json, QString *error)
{
    if (const QString problem =
            InputCheck::problem(json, maxInputBytes, "kubectl config view's output"_L1);
        !problem.isEmpty()) {
        *error = problem;
        return std::nullopt;
    }
    if (json.trimmed().isEmpty()) {
        *error =
            u"`kubectl config view` printed nothing: the kubeconfig has no current context, or the "
            "context asked for is not in it (kubectl's stderr says which); set one with "
            "`kubectl config use-context NAME`"_s;
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error =
            u"not JSON (%1 at byte %2); expected the output of "
            "`kubectl config view --raw --minify --flatten -o json`"_s.arg(parseError.errorString())
                .arg(parseError.offset);
        return std::nullopt;
    }
    const QJsonObject root = document.object();
    if (const QString kind = root.value("kind"_L1).toString(); kind != "Config"_L1) {
        *error = u"expected a kubeconfig (kind Config) from `kubectl config view`, got %1"_s.arg(
            kind.isEmpty() ? u"JSON without a kind"_s : u"kind \"%1\""_s.arg(kind));
        return std::nullopt;
    }

    KubeApiEndpoint endpoint;
    endpoint.contextName = root.value("current-context"_L1).toString();
    if (endpoint.contextName.isEmpty()) {
        *error =
            u"the kubeconfig has no current context; set one with `kubectl config use-context NAME`"_s;
        return std::nullopt;
    }
    const std::optional<QJsonObject> context =
        namedEntry(root, "contexts"_L1, endpoint.contextName, "context"_L1);
    if (!context) {
        *error = u"the current context \"%1\" is not among the kubeconfig's contexts"_s.arg(
            endpoint.contextName);
        return std::nullopt;
    }
    endpoint.clusterName = context->value("cluster"_L1).toString();
    endpoint.userName = context->value("user"_L1).toString();
    endpoint.namespaceName = context->value("namespace"_L1).toString();
    if (endpoint.clusterName.isEmpty()) {
        *error = u"context \"%1\" names no cluster"_s.arg(endpoint.contextName);
        return std::nullopt;
    }
    const std::optional<QJsonObject> cluster =
        namedEntry(root, "clusters"_L1, endpoint.clusterName, "cluster"_L1);
    if (!cluster) {
        *error = u"context \"%1\" names cluster \"%2\", which the kubeconfig does not define"_s.arg(
            endpoint.contextName, endpoint.clusterName);
        return std::nullopt;
    }
    QJsonObject user;
    if (!endpoint.userName.isEmpty()) {
        const std::optional<QJsonObject> found =
            namedEntry(root, "users"_L1, endpoint.userName, "user"_L1);
        if (!found) {
            *error =
                u"context \"%1\" names user \"%2\", which the kubeconfig does not define"_s.arg(
                    endpoint.contextName, endpoint.userName);
            return std::nullopt;
        }
        user = *found;
    }

    const QString clusterOwner = u"cluster \"%1\""_s.arg(endpoint.clusterName);
    const QString userOwner = u"user \"%1\""_s.arg(endpoint.userName);
    endpoint.server = cluster->value("server"_L1).toString();
    if (endpoint.server.isEmpty()) {
        *error = u"%1 has no server address"_s.arg(clusterOwner);
        return std::nullopt;
    }
    if (!decodeBase64(*cluster, "certificate-authority-data"_L1, &endpoint.caPem)) {
        *error = brokenBase64(clusterOwner, "certificate-authority-data"_L1);
        return std::nullopt;
    }
    for (const auto key : {"client-certificate-data"_L1, "client-key-data"_L1}) {
        if (!decodeBase64(user, key,
                          key == "client-key-data"_L1 ? &endpoint.clientKeyPem
                                                      : &endpoint.clientCertPem)) {
            *error = brokenBase64(userOwner, key);
            return std::nullopt;
        }
    }
    const bool hasCert =
        !endpoint.clientCertPem.isEmpty() || user.contains("client-certificate"_L1);
    const bool hasKey = !endpoint.clientKeyPem.isEmpty() || user.contains("client-key"_L1);
    if (hasCert != hasKey) {
        *error = u"%1 has a client %2 without its %3"_s.arg(userOwner,
                                                            hasCert ? u"certificate"_s : u"key"_s,
                                                            hasCert ? u"key"_s : u"certificate"_s);
        return std::nullopt;
    }
    endpoint.certificateAuthorityPath = cluster->value("certificate-authority"_L1).toString();
    endpoint.tlsServerName = cluster->value("tls-server-name"_L1).toString();
    endpoint.insecureSkipTlsVerify = cluster->value("insecure-skip-tls-verify"_L1).toBool();
    endpoint.proxyUrl = cluster->value("proxy-url"_L1).toString();

    const bool hasTlsSettings = !endpoint.caPem.isEmpty() ||
                                !endpoint.certificateAuthorityPath.isEmpty() || hasCert ||
                                endpoint.insecureSkipTlsVerify || !endpoint.tlsServerName.isEmpty();
    const QUrl url(serverUrlText(endpoint.server, hasTlsSettings), QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty()) {
        *error = u"the server \"%1\" of %2 is not a URL (%3)"_s.arg(
            endpoint.server, clusterOwner, url.isValid() ? u"no host"_s : url.errorString());
        return std::nullopt;
    }
    endpoint.scheme = url.scheme().toLower();
    endpoint.host = url.host();
    endpoint.port = url.port(endpoint.scheme == "http"_L1 ? 80 : 443);
    if (endpoint.port < 1) { // ":0" parses; nothing listens there (found by fuzz_kube_credentials)
        *error = u"the server \"%1\" of %2 has port %3: no API server listens there"_s.arg(endpoint.server, clusterOwner)
                     .arg(endpoint.port);
        return std::nullopt;
    }
    endpoint.basePath = url.path(QUrl::FullyEncoded);
    while (endpoint.basePath.endsWith(u'/'))
        endpoint.basePath.chop(1);
    for (const QJsonValue &entry : cluster->value("extensions"_L1).toArray()) {
        const QJsonObject extension = entry.toObject();
        if (extension.value("name"_L1).toString() == execExtensionName)
            endpoint.execClusterConfig = extension.value("extension"_L1).toObject();
    }

    endpoint.token = user.value("token"_L1).toString();
    if (hasControlCharacter(endpoint.token)) {
        *error = u"%1's token holds a control character (CR, LF or another below 0x20), which would add "
                 "HTTP header fields to every request; nothing was sent. Set the token again (e.g. `kubectl "
                 "config set-credentials %2 --token=...`)"_s.arg(userOwner, endpoint.userName);
        return std::nullopt;
    }
    if (const QJsonObject exec = user.value("exec"_L1).toObject(); !exec.isEmpty())
        endpoint.exec = parseExecPlugin(exec);
    endpoint.unsupportedAuth = unsupportedAuthOf(user).join("; "_L1);
    return endpoint;
}

QString directRefusal(const KubeApiEndpoint &endpoint)
{
    QStringList reasons;
    if (endpoint.scheme != "https"_L1 &&
        !(endpoint.scheme == "http"_L1 && isLoopbackHost(endpoint.host)))
        reasons << u"the API server is not https (%1)"_s.arg(endpoint.server);
    if (!endpoint.proxyUrl.isEmpty())
        reasons << u"the cluster is reached through a proxy (proxy-url %1), which Strata's direct "
                   u"client does "
                   "not use"_s.arg(endpoint.proxyUrl);
    if (!endpoint.certificateAuthorityPath.isEmpty())
        reasons << u"the cluster's certificate authority is a file on the login node (%1) that "
                   u"kubectl did not "
                   "inline (--flatten)"_s.arg(endpoint.certificateAuthorityPath);
    if (!endpoint.unsupportedAuth.isEmpty())
        reasons << u"the user authenticates with %1, which Strata's direct client does not do"_s
                       .arg(endpoint.unsupportedAuth);
    if (endpoint.exec) {
        const KubeExecPlugin &plugin = *endpoint.exec;
        if (plugin.apiVersion != execApiV1 && plugin.apiVersion != execApiV1beta1)
            reasons << u"the exec plugin speaks apiVersion \"%1\"; Strata speaks %2 and %3"_s.arg(
                plugin.apiVersion, QString(execApiV1), QString(execApiV1beta1));
        if (plugin.interactiveMode == "Always"_L1)
            reasons << u"the exec plugin %1 needs a terminal (interactiveMode Always), which a "
                       u"command Strata "
                       "runs does not have"_s.arg(plugin.command);
        // client-go resolves such a command against the kubeconfig's folder, which the output of
        // `config view` does not name; run from the remote shell's folder it would be another file.
        if (plugin.command.contains(u'/') && !plugin.command.startsWith(u'/'))
            reasons
                << u"the exec plugin's command %1 is relative to the kubeconfig's folder, which "
                   "`kubectl config view` does not say"_s.arg(plugin.command);
        QString execProblem;
        if (execArgv(endpoint, &execProblem).isEmpty())
            reasons << execProblem;
    }
    return reasons.join("; "_L1);
}

std::optional<ExecCredential> parseExecCredential(const QByteArray &json, QString *error)
{
    if (const QString problem =
            InputCheck::problem(json, maxInputBytes, "the exec plugin's output"_L1);
        !problem.isEmpty()) {
        *error = problem;
        return std::nullopt;
    }
    if (json.trimmed().isEmpty()) {
        *error = u"the exec plugin printed nothing; expected an ExecCredential"_s;
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonObject root = QJsonDocument::fromJson(json, &parseError).object();
    if (parseError.error != QJsonParseError::NoError) {
        *error =
            u"the exec plugin's output is not JSON (%1 at byte %2); expected an ExecCredential"_s
                .arg(parseError.errorString())
                .arg(parseError.offset);
        return std::nullopt;
    }
    if (const QString kind = root.value("kind"_L1).toString(); kind != "ExecCredential"_L1) {
        *error = u"the exec plugin printed kind \"%1\"; expected an ExecCredential"_s.arg(kind);
        return std::nullopt;
    }
    if (const QString apiVersion = root.value("apiVersion"_L1).toString();
        apiVersion != execApiV1 && apiVersion != execApiV1beta1) {
        *error =
            u"the exec plugin's ExecCredential has apiVersion \"%1\"; Strata reads %2 and %3"_s.arg(
                apiVersion, QString(execApiV1), QString(execApiV1beta1));
        return std::nullopt;
    }
    if (!root.value("status"_L1).isObject()) {
        *error = u"the exec plugin's ExecCredential has no status: it gave no credentials"_s;
        return std::nullopt;
    }
    const QJsonObject status = root.value("status"_L1).toObject();
    ExecCredential credential;
    credential.token = status.value("token"_L1).toString();
    credential.clientCertPem = status.value("clientCertificateData"_L1).toString().toUtf8();
    credential.clientKeyPem = status.value("clientKeyData"_L1).toString().toUtf8();
    if (credential.clientCertPem.isEmpty() != credential.clientKeyPem.isEmpty()) {
        *error = u"the exec plugin's ExecCredential holds a client %1 without its %2"_s.arg(
            credential.clientCertPem.isEmpty() ? u"key"_s : u"certificate"_s,
            credential.clientCertPem.isEmpty() ? u"certificate"_s : u"key"_s);
        return std::nullopt;
    }
    if (hasControlCharacter(credential.token)) {
        *error = u"the exec plugin's ExecCredential status.token holds a control character (CR, LF or another "
                 "below 0x20), which would add HTTP header fields to every request; nothing was sent"_s;
        return std::nullopt;
    }
    if (credential.token.isEmpty() && credential.clientCertPem.isEmpty()) {
        *error =
            u"the exec plugin's ExecCredential holds neither a token nor a client certificate and key"_s;
        return std::nullopt;
    }
    if (const QString expiry = status.value("expirationTimestamp"_L1).toString();
        !expiry.isEmpty()) {
        credential.expiresAt = QDateTime::fromString(expiry, Qt::ISODateWithMs);
        if (!credential.expiresAt.isValid()) {
            *error = u"the exec plugin's expirationTimestamp \"%1\" is not an RFC 3339 time"_s.arg(
                expiry);
            return std::nullopt;
        }
        credential.expiresAt = credential.expiresAt.toUTC();
    }
    return credential;
}

QStringList execArgv(const KubeApiEndpoint &endpoint, QString *error)
{
    if (!endpoint.exec) {
        *error = u"user \"%1\" has no exec plugin"_s.arg(endpoint.userName);
        return {};
    }
    const KubeExecPlugin &plugin = *endpoint.exec;
    if (plugin.command.isEmpty()) {
        *error = u"the exec plugin of user \"%1\" names no command"_s.arg(endpoint.userName);
        return {};
    }
    // The same rule as the profile's remote environment: env reads a name or a command starting
    // with '-' as an option and a command holding '=' as one more setting.
    if (const QString problem = ShellQuote::environmentProblem(plugin.env, QStringList{plugin.command});
        !problem.isEmpty()) {
        *error = u"the exec plugin of user \"%1\": %2"_s.arg(endpoint.userName, problem);
        return {};
    }
    // client-go's ExecCredential for the plugin: never interactive (there is no terminal), with
    // the cluster's details when the plugin asks for them (omitempty fields left out, as there).
    QJsonObject spec{{u"interactive"_s, false}};
    if (plugin.provideClusterInfo) {
        QJsonObject cluster{{u"server"_s, endpoint.server}};
        if (!endpoint.tlsServerName.isEmpty())
            cluster.insert("tls-server-name"_L1, endpoint.tlsServerName);
        if (endpoint.insecureSkipTlsVerify)
            cluster.insert("insecure-skip-tls-verify"_L1, true);
        if (!endpoint.caPem.isEmpty())
            cluster.insert("certificate-authority-data"_L1,
                           QString::fromLatin1(endpoint.caPem.toBase64()));
        if (!endpoint.proxyUrl.isEmpty())
            cluster.insert("proxy-url"_L1, endpoint.proxyUrl);
        if (!endpoint.execClusterConfig.isEmpty())
            cluster.insert("config"_L1, endpoint.execClusterConfig);
        spec.insert("cluster"_L1, cluster);
    }
    const QJsonObject info{
        {u"apiVersion"_s, plugin.apiVersion}, {u"kind"_s, u"ExecCredential"_s}, {u"spec"_s, spec}};
    QStringList argv{u"env"_s, u"--"_s,
                     u"KUBERNETES_EXEC_INFO="_s +
                         QString::fromUtf8(QJsonDocument(info).toJson(QJsonDocument::Compact))};
    for (const auto &[name, value] : plugin.env)
        argv << name + u'=' + value;
    argv << plugin.command << plugin.args;
    return argv;
}

} // namespace strata::KubeApiCredentials
