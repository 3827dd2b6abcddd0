#include "source_health.h"

#include <QCoreApplication>

namespace strata {

SourceHealth SourceHealth::assess(const QVector<SourceStatus> &sources)
{
    SourceHealth health;
    for (const SourceStatus &s : sources) {
        if (!s.configured)
            continue;
        if (!s.ok)
            health.failing.push_back({s.source, s.error, s.errorKind, s.lastSuccess, s.stale});
        if (s.lastSuccess.isValid() && (!health.oldestData.isValid() || s.lastSuccess < health.oldestData)) {
            health.oldestData = s.lastSuccess;
            health.oldestSource = s.source;
        }
    }
    return health;
}

QString SourceHealth::kindText(ErrorKind kind)
{
    const auto t = [](const char *text) { return QCoreApplication::translate("SourceHealth", text); };
    switch (kind) {
    case ErrorKind::None: return {};
    case ErrorKind::HostKeyUnknown: return t("host key not trusted yet");
    case ErrorKind::HostKeyChanged: return t("host key changed, refused");
    case ErrorKind::AuthenticationFailed: return t("login refused");
    case ErrorKind::PassphraseNeeded: return t("the key needs its passphrase");
    case ErrorKind::LoginPromptUnavailable: return t("the login asks a question nobody can answer");
    case ErrorKind::ConnectFailed: return t("cannot reach the host");
    case ErrorKind::ConnectionLost: return t("connection lost");
    case ErrorKind::Timeout: return t("timed out");
    case ErrorKind::CommandFailed: return t("command failed");
    case ErrorKind::ParseFailed: return t("answer not readable");
    case ErrorKind::SourceUnsupported: return t("unsupported version");
    case ErrorKind::InvalidRequest: return t("request refused");
    case ErrorKind::Cancelled: return t("cancelled");
    case ErrorKind::NoAccounting: return t("no job accounting");
    }
    return {};
}

QString SourceHealth::displayName(SourceKind source)
{
    switch (source) {
    case SourceKind::Ssh: return QCoreApplication::translate("SourceHealth", "SSH (login node)");
    case SourceKind::Slurm: return QStringLiteral("Slurm");
    case SourceKind::Kubernetes: return QStringLiteral("Kubernetes");
    case SourceKind::Prometheus: return QStringLiteral("Prometheus");
    }
    return sourceKindName(source);
}

} // namespace strata
