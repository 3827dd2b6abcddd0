#include "cli_failure.h"

#include "cli/cli_output.h"

namespace strata {

QString CliFailure::hintFor(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::PassphraseNeeded:
        return QStringLiteral("strata asks for no passphrase: load the key into ssh-agent (ssh-add FILE) "
                              "and run without --identity");
    case ErrorKind::LoginPromptUnavailable:
        return QStringLiteral("the login needs a person's answer (a one-time code, a password): run strata on a "
                              "terminal, or log in with a key, a certificate or ssh-agent instead");
    case ErrorKind::AuthenticationFailed:
        return QStringLiteral("check --identity, --user and the keys ssh-agent holds (ssh-add -l)");
    default:
        return {};
    }
}

int CliFailure::report(const QString &text, ErrorKind kind)
{
    CliOutput::error(text);
    const QString hint = hintFor(kind);
    if (!hint.isEmpty())
        CliOutput::error(QStringLiteral("hint: ") + hint);
    return kind == ErrorKind::InvalidRequest ? 2 : 1;
}

} // namespace strata
