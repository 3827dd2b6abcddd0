#include "proxy_command_line.h"

#include "shell_quote.h"

#include <QRegularExpression>
#include <QStringList>

namespace strata {

QString ProxyCommandLine::expand(const QString &command, const Tokens &tokens, QString *error)
{
    QString out;
    for (qsizetype i = 0; i < command.size(); ++i) {
        if (command[i] != QLatin1Char('%')) {
            out += command[i];
            continue;
        }
        if (i + 1 >= command.size()) {
            *error = QStringLiteral("ProxyCommand \"%1\" ends with a lone %").arg(command);
            return {};
        }
        const QChar t = command[++i];
        if (t == QLatin1Char('%'))
            out += QLatin1Char('%');
        else if (t == QLatin1Char('h'))
            out += tokens.host;
        else if (t == QLatin1Char('p'))
            out += QString::number(tokens.port);
        else if (t == QLatin1Char('r'))
            out += tokens.user;
        else if (t == QLatin1Char('n'))
            out += tokens.alias;
        else {
            *error = QStringLiteral("ProxyCommand \"%1\": unknown token %%2 (ssh knows %h %p %r %n %%)").arg(command, t);
            return {};
        }
    }
    return out;
}

namespace {

struct Hop
{
    QString user;
    QString host;
    int port = 0;
};

// ssh's parse_ssh_uri / parse_user_host_port: [user@]host[:port], host may be [v6]; the user is
// everything before the last '@'.
bool parseHop(QString text, Hop *hop)
{
    if (text.startsWith(QLatin1String("ssh://")))
        text = text.mid(6);
    const qsizetype at = text.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        hop->user = text.left(at);
        text = text.mid(at + 1);
        if (hop->user.isEmpty())
            return false;
    }
    QString portText;
    if (text.startsWith(QLatin1Char('['))) {
        const qsizetype close = text.indexOf(QLatin1Char(']'));
        if (close < 0)
            return false;
        hop->host = text.mid(1, close - 1);
        const QString rest = text.mid(close + 1);
        if (!rest.isEmpty()) {
            if (!rest.startsWith(QLatin1Char(':')))
                return false;
            portText = rest.mid(1);
        }
    } else {
        const qsizetype colon = text.indexOf(QLatin1Char(':'));
        hop->host = colon < 0 ? text : text.left(colon);
        if (colon >= 0)
            portText = text.mid(colon + 1);
    }
    if (!portText.isEmpty()) {
        bool ok = false;
        hop->port = portText.toInt(&ok);
        if (!ok || hop->port <= 0 || hop->port > 65535)
            return false;
    }
    // ssh's valid_hostname(): no blanks, quotes or shell metacharacters, no leading '-'.
    static const QRegularExpression hostName(QStringLiteral("^[A-Za-z0-9_.:%-]+$"));
    static const QRegularExpression userName(QStringLiteral("^[A-Za-z0-9_.+-]+$"));
    if (!hostName.match(hop->host).hasMatch() || hop->host.startsWith(QLatin1Char('-')))
        return false;
    return hop->user.isEmpty() || (userName.match(hop->user).hasMatch() && !hop->user.startsWith(QLatin1Char('-')));
}

QString hopText(const Hop &hop)
{
    QString text = hop.user.isEmpty() ? QString() : hop.user + QLatin1Char('@');
    text += hop.host.contains(QLatin1Char(':')) ? QLatin1Char('[') + hop.host + QLatin1Char(']') : hop.host;
    if (hop.port > 0)
        text += QLatin1Char(':') + QString::number(hop.port);
    return text;
}

} // namespace

QString ProxyCommandLine::fromProxyJump(const QString &jump, const QString &configFile, QString *error)
{
    QList<Hop> hops;
    for (const QString &part : jump.split(QLatin1Char(','))) {
        Hop hop;
        if (!parseHop(part.trimmed(), &hop)) {
            *error = QStringLiteral("ProxyJump \"%1\": \"%2\" is not [user@]host[:port]").arg(jump, part.trimmed());
            return {};
        }
        hops << hop;
    }
    const Hop last = hops.takeLast();
    QStringList argv{QStringLiteral("ssh")};
    if (!last.user.isEmpty())
        argv << QStringLiteral("-l") << last.user;
    if (last.port > 0)
        argv << QStringLiteral("-p") << QString::number(last.port);
    if (!hops.isEmpty()) {
        QStringList before;
        for (const Hop &hop : hops)
            before << hopText(hop);
        argv << QStringLiteral("-J") << before.join(QLatin1Char(','));
    }
    if (!configFile.isEmpty())
        argv << QStringLiteral("-F") << configFile;
    // Every value above is checked or quoted; a '%' in them is doubled, so that only the
    // tokens written here are left for expand().
    const auto literal = [](QString text) { return text.replace(QLatin1Char('%'), QLatin1String("%%")); };
    return literal(ShellQuote::join(argv)) + QStringLiteral(" -W '[%h]:%p' ") + literal(ShellQuote::quote(last.host));
}

} // namespace strata
