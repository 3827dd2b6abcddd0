#include "kube_direct_api_client.h"

#include "kube_api_credentials.h"
#include "kube_status_parser.h"
#include "net/http_exchange.h"
#include "ssh/port_forwarding_shell.h"
#include "ssh/remote_shell.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata {

using namespace Qt::StringLiterals;

namespace {

// An exec credential is renewed this long before it expires (client-go renews at expiry).
constexpr qint64 kRenewBeforeExpirySeconds = 60;

// What a failed command or GET said, bounded for a message.
QString commandWords(const CommandResult &r)
{
    return r.errorText().left(400);
}

} // namespace

KubeDirectApiClient::KubeDirectApiClient(RemoteShell &shell, PortForwardingShell &tunnels, KubectlCommands commands,
                                         int requestTimeoutSeconds)
    : m_shell(shell), m_tunnels(tunnels), m_commands(std::move(commands)),
      m_requestTimeoutMs(qMax(1, requestTimeoutSeconds) * 1000)
{
}

bool KubeDirectApiClient::connect(QString *why, ErrorKind *kind, bool *loginNodeUnreachable)
{
    const CommandResult view = m_shell.run(m_commands.configView()).result();
    *loginNodeUnreachable = !view.hostAnswered();
    if (!view.ok()) {
        *why = u"kubectl config view failed: %1"_s.arg(commandWords(view));
        *kind = view.errorKind();
        return false;
    }
    QString error;
    const std::optional<KubeApiEndpoint> endpoint = KubeApiCredentials::parseConfigView(view.stdoutData, &error);
    if (!endpoint) {
        *why = u"the kubeconfig cannot be read: %1"_s.arg(error);
        *kind = ErrorKind::ParseFailed;
        return false;
    }
    if (const QString refusal = KubeApiCredentials::directRefusal(*endpoint); !refusal.isEmpty()) {
        *why = refusal;
        *kind = ErrorKind::SourceUnsupported;
        return false;
    }
    m_endpoint = *endpoint;
    Credentials credentials;
    credentials.tls.caPem = m_endpoint.caPem;
    credentials.tls.serverName = m_endpoint.tlsServerName.isEmpty() ? m_endpoint.host : m_endpoint.tlsServerName;
    credentials.tls.verifyPeer = !m_endpoint.insecureSkipTlsVerify;
    credentials.tls.clientCertPem = m_endpoint.clientCertPem;
    credentials.tls.clientKeyPem = m_endpoint.clientKeyPem;
    if (!m_endpoint.token.isEmpty())
        credentials.authorization = "Bearer " + m_endpoint.token.toUtf8();
    if (m_endpoint.exec && !runExecPlugin(&credentials, why)) {
        *kind = ErrorKind::AuthenticationFailed;
        return false;
    }
    {
        std::lock_guard lock(m_mutex);
        m_credentials = credentials;
        m_credentialsRefused->store(false);
    }
    const CommandResult version = get(u"/version"_s).result();
    if (!version.ok()) {
        *why = u"%1 failed: %2"_s.arg(describeGet(u"/version"_s), commandWords(version));
        *kind = version.errorKind();
        return false;
    }
    m_serverVersion = QJsonDocument::fromJson(version.stdoutData).object().value("gitVersion"_L1).toString();
    return true;
}

bool KubeDirectApiClient::runExecPlugin(Credentials *into, QString *why)
{
    QString error;
    const QStringList argv = KubeApiCredentials::execArgv(m_endpoint, &error);
    if (argv.isEmpty()) {
        *why = u"the kubeconfig's exec plugin cannot be run: %1"_s.arg(error);
        return false;
    }
    const CommandResult ran = m_shell.run(argv).result();
    if (!ran.ok()) {
        *why = u"the kubeconfig's exec plugin %1 failed: %2"_s.arg(m_endpoint.exec->command, commandWords(ran));
        return false;
    }
    const std::optional<KubeApiCredentials::ExecCredential> credential =
        KubeApiCredentials::parseExecCredential(ran.stdoutData, &error);
    if (!credential) {
        *why = u"the kubeconfig's exec plugin %1 answered what Strata cannot read: %2"_s.arg(m_endpoint.exec->command, error);
        return false;
    }
    into->authorization = credential->token.isEmpty() ? QByteArray() : "Bearer " + credential->token.toUtf8();
    if (!credential->clientCertPem.isEmpty()) {
        into->tls.clientCertPem = credential->clientCertPem;
        into->tls.clientKeyPem = credential->clientKeyPem;
    }
    into->expiresAt = credential->expiresAt;
    return true;
}

bool KubeDirectApiClient::currentCredentials(Credentials *out, QString *why)
{
    std::lock_guard lock(m_mutex);
    const bool expired = m_credentials.expiresAt.isValid()
        && QDateTime::currentDateTimeUtc().secsTo(m_credentials.expiresAt) < kRenewBeforeExpirySeconds;
    if (m_endpoint.exec && (expired || m_credentialsRefused->load())) {
        Credentials renewed = m_credentials;
        if (!runExecPlugin(&renewed, why))
            return false;
        m_credentials = renewed;
        m_credentialsRefused->store(false);
    }
    *out = m_credentials;
    return true;
}

QString KubeDirectApiClient::describeGet(const QString &uri) const
{
    return u"GET %1%2"_s.arg(m_endpoint.server, uri);
}

QFuture<CommandResult> KubeDirectApiClient::get(const QString &uri)
{
    return exchange(uri, m_requestTimeoutMs, {}, nullptr);
}

QFuture<CommandResult> KubeDirectApiClient::watch(const QString &uri, std::function<void(const QByteArray &)> onOutput,
                                                  std::shared_ptr<std::atomic_bool> stop)
{
    return exchange(uri, 0, std::move(onOutput), std::move(stop));
}

QFuture<CommandResult> KubeDirectApiClient::exchange(const QString &uri, int timeoutMs,
                                                     std::function<void(const QByteArray &)> onBody,
                                                     std::shared_ptr<std::atomic_bool> stop)
{
    Credentials credentials;
    QString why;
    if (!currentCredentials(&credentials, &why))
        return ready(CommandResult::transportFailure(ErrorKind::AuthenticationFailed, why));
    HttpExchange::Request request;
    request.target = (m_endpoint.basePath + uri).toUtf8();
    const bool ipv6 = QHostAddress(m_endpoint.host).protocol() == QAbstractSocket::IPv6Protocol;
    request.host = (ipv6 ? u"[%1]"_s.arg(m_endpoint.host) : m_endpoint.host).toUtf8();
    if (m_endpoint.port != (m_endpoint.scheme == QLatin1String("http") ? 80 : 443))
        request.host += ':' + QByteArray::number(m_endpoint.port);
    const auto field = [&request](const char *name, const QByteArray &value) {
        request.headers.append(qMakePair(QByteArray(name), value));
    };
    if (!credentials.authorization.isEmpty())
        field("Authorization", credentials.authorization);
    field("Accept", "application/json");
    field("User-Agent", "strata/" + QCoreApplication::applicationVersion().toUtf8());
    request.timeoutMs = timeoutMs;
    // Checked here too (HttpExchange refuses such a request itself) so that no tunnel is opened.
    if (const QString problem = HttpExchange::requestProblem(request); !problem.isEmpty())
        return ready(CommandResult::transportFailure(ErrorKind::InvalidRequest,
                                                     u"GET %1 was not sent: %2"_s.arg(m_endpoint.server, problem)));
    // Plain http only to a loopback server (`kubectl proxy` on the login node; directRefusal).
    const std::optional<TlsClientConfig> tls =
        m_endpoint.scheme == QLatin1String("http") ? std::nullopt : std::optional<TlsClientConfig>(credentials.tls);
    auto conversation = std::make_shared<HttpExchange>(tls, std::move(request), std::move(onBody));
    std::shared_ptr<std::atomic_bool> refused = m_endpoint.exec ? m_credentialsRefused : nullptr;
    return m_tunnels.converse(m_endpoint.host, m_endpoint.port, conversation, std::move(stop))
        .then([conversation, refused](const CommandResult &tunnel) { // on the SSH thread, as it finishes
            // The tunnel failed (the SSH connection, or the host could not connect there), or its
            // owner stopped a watch: that is the answer. Else the exchange's own outcome.
            if (!tunnel.ok() || !conversation->isFinished())
                return tunnel;
            const HttpResult answer = conversation->httpResult();
            if (refused && answer.error == HttpErrorKind::Unauthorized)
                refused->store(true); // the credential expired early or was revoked: renew it
            return asApiAnswer(answer);
        });
}

CommandResult KubeDirectApiClient::asApiAnswer(const HttpResult &http)
{
    CommandResult out;
    switch (http.error) {
    case HttpErrorKind::None:
        out.exitStatus = 0;
        out.stdoutData = http.body;
        break;
    case HttpErrorKind::NotSent:
        out = CommandResult::transportFailure(ErrorKind::InvalidRequest, http.message);
        break;
    case HttpErrorKind::Timeout:
        out = CommandResult::transportFailure(ErrorKind::Timeout, http.message);
        out.mayHaveRun = http.requestSent;
        break;
    case HttpErrorKind::Status:
    case HttpErrorKind::Unauthorized: {
        // The API's own words (a Status), as kubectl shows them, after the HTTP status.
        out.exitStatus = 1;
        out.stderrData = http.message.toUtf8();
        const std::optional<KubeStatus> status = KubeStatusParser::parseJson(http.body);
        const QByteArray words = status ? status->message.toUtf8() : http.body.left(300).trimmed();
        if (!words.isEmpty())
            out.stderrData += ": " + words;
        break;
    }
    case HttpErrorKind::Tls:
    case HttpErrorKind::Malformed:
    case HttpErrorKind::TooLarge:
        // The tunnel worked and the service failed: as kubectl failing with these words.
        out.exitStatus = 1;
        out.stderrData = http.message.toUtf8();
        break;
    }
    out.durationMs = http.durationMs;
    return out;
}

} // namespace strata
