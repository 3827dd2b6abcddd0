#include "error_kind.h"

namespace strata {

QString errorKindName(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::None: return QStringLiteral("none");
    case ErrorKind::HostKeyUnknown: return QStringLiteral("host-key-unknown");
    case ErrorKind::HostKeyChanged: return QStringLiteral("host-key-changed");
    case ErrorKind::AuthenticationFailed: return QStringLiteral("authentication-failed");
    case ErrorKind::PassphraseNeeded: return QStringLiteral("passphrase-needed");
    case ErrorKind::LoginPromptUnavailable: return QStringLiteral("login-prompt-unavailable");
    case ErrorKind::ConnectFailed: return QStringLiteral("connect-failed");
    case ErrorKind::ConnectionLost: return QStringLiteral("connection-lost");
    case ErrorKind::Timeout: return QStringLiteral("timeout");
    case ErrorKind::CommandFailed: return QStringLiteral("command-failed");
    case ErrorKind::ParseFailed: return QStringLiteral("parse-failed");
    case ErrorKind::SourceUnsupported: return QStringLiteral("source-unsupported");
    case ErrorKind::InvalidRequest: return QStringLiteral("invalid-request");
    case ErrorKind::Cancelled: return QStringLiteral("cancelled");
    case ErrorKind::NoAccounting: return QStringLiteral("no-accounting");
    }
    return QStringLiteral("unknown");
}

bool isTransportError(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::HostKeyUnknown:
    case ErrorKind::HostKeyChanged:
    case ErrorKind::AuthenticationFailed:
    case ErrorKind::PassphraseNeeded:
    case ErrorKind::LoginPromptUnavailable:
    case ErrorKind::ConnectFailed:
    case ErrorKind::ConnectionLost:
        return true;
    default:
        return false;
    }
}

} // namespace strata
