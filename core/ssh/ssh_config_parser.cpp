#include "ssh_config_parser.h"

#include <QHash>

namespace strata {

namespace {

// Splits a value as ssh's argv_split does: blanks separate, "..." and '...' keep them, a
// backslash escapes the quote it stands before.
QStringList splitArguments(QStringView text, bool *unbalanced)
{
    QStringList words;
    QString word;
    bool inWord = false;
    QChar quote;
    *unbalanced = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (!quote.isNull()) {
            if (c == QLatin1Char('\\') && i + 1 < text.size() && text[i + 1] == quote) {
                word += quote;
                ++i;
            } else if (c == quote) {
                quote = QChar();
            } else {
                word += c;
            }
            continue;
        }
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            quote = c;
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (!quote.isNull())
        *unbalanced = true;
    if (inWord)
        words << word;
    return words;
}

bool globMatch(QStringView pattern, QStringView text)
{
    if (pattern.isEmpty())
        return text.isEmpty();
    if (pattern[0] == QLatin1Char('*')) {
        for (qsizetype skip = 0; skip <= text.size(); ++skip)
            if (globMatch(pattern.mid(1), text.mid(skip)))
                return true;
        return false;
    }
    if (text.isEmpty())
        return false;
    if (pattern[0] == QLatin1Char('?') || pattern[0] == text[0])
        return globMatch(pattern.mid(1), text.mid(1));
    return false;
}

// %-tokens of ssh_config(5) "TOKENS"; an unknown one stays as written.
QString expandTokens(const QString &value, const QHash<QChar, QString> &tokens)
{
    QString out;
    for (qsizetype i = 0; i < value.size(); ++i) {
        if (value[i] == QLatin1Char('%') && i + 1 < value.size()) {
            const QChar t = value[i + 1];
            if (t == QLatin1Char('%')) {
                out += QLatin1Char('%');
                ++i;
                continue;
            }
            const auto it = tokens.constFind(t);
            if (it != tokens.constEnd()) {
                out += *it;
                ++i;
                continue;
            }
        }
        out += value[i];
    }
    return out;
}

} // namespace

bool SshConfigParser::isWildcard(const QString &pattern)
{
    return pattern.contains(QLatin1Char('*')) || pattern.contains(QLatin1Char('?')) || pattern.startsWith(QLatin1Char('!'));
}

bool SshConfigParser::matches(const QStringList &patterns, const QString &host)
{
    const QString name = host.toLower();
    bool matched = false;
    for (const QString &p : patterns) {
        if (p.startsWith(QLatin1Char('!'))) {
            if (globMatch(QStringView(p).mid(1), name))
                return false;
        } else if (globMatch(p, name)) {
            matched = true;
        }
    }
    return matched;
}

QVector<SshConfigBlock> SshConfigParser::parse(const QByteArray &text, const QString &fileName,
                                              QVector<SshConfigNote> *notes)
{
    QVector<SshConfigBlock> blocks;
    SshConfigBlock current;
    current.file = fileName;
    const auto flush = [&] {
        if (current.kind != SshConfigBlock::Kind::Global || !current.options.isEmpty())
            blocks << current;
    };
    const QList<QByteArray> lines = text.split('\n');
    for (int n = 0; n < lines.size(); ++n) {
        const QString line = QString::fromUtf8(lines[n]).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        qsizetype end = 0;
        while (end < line.size() && !line[end].isSpace() && line[end] != QLatin1Char('='))
            ++end;
        const QString keyword = line.left(end).toLower();
        QStringView rest = QStringView(line).mid(end).trimmed();
        if (rest.startsWith(QLatin1Char('=')))
            rest = rest.mid(1).trimmed();
        bool unbalanced = false;
        const QStringList words = splitArguments(rest, &unbalanced);
        if (unbalanced || words.isEmpty()) {
            notes->append({fileName, n + 1, QStringLiteral("\"%1\" ignored: %2").arg(line, unbalanced ? QStringLiteral("unbalanced quote") : QStringLiteral("no value"))});
            continue;
        }
        if (keyword == QLatin1String("host") || keyword == QLatin1String("match")) {
            flush();
            current = SshConfigBlock{};
            current.kind = keyword == QLatin1String("host") ? SshConfigBlock::Kind::Host : SshConfigBlock::Kind::Match;
            for (const QString &w : words)
                current.patterns << w;
            current.file = fileName;
            current.line = n + 1;
        } else if (keyword == QLatin1String("include")) {
            // An Include stands where it is written: its own block, and what follows it still
            // belongs to the block it interrupted.
            flush();
            SshConfigBlock include;
            include.kind = SshConfigBlock::Kind::Include;
            include.patterns = words;
            include.file = fileName;
            include.line = n + 1;
            include.within = current.kind;
            include.withinPatterns = current.patterns;
            blocks << include;
            SshConfigBlock continued = current;
            continued.options.clear();
            current = continued;
        } else if (keyword == QLatin1String("proxycommand")) {
            // The rest of the line goes to the shell as written, quotes and all (readconf.c).
            current.options.append({keyword, rest.toString()});
        } else {
            current.options.append({keyword, words.first()});
        }
    }
    flush();
    return blocks;
}

QVector<SshConfigHost> SshConfigParser::hosts(const QVector<SshConfigBlock> &blocks, const QString &homeDir,
                                              const QString &localUser, QVector<SshConfigNote> *notes)
{
    QVector<SshConfigHost> found;
    QStringList seen;
    for (const SshConfigBlock &b : blocks) {
        if (b.kind == SshConfigBlock::Kind::Match) {
            notes->append({b.file, b.line, QStringLiteral("Match %1: skipped (Strata does not evaluate Match blocks; "
                                                          "libssh applies them when it connects)")
                                                .arg(b.patterns.join(QLatin1Char(' ')))});
            continue;
        }
        if (b.kind == SshConfigBlock::Kind::Include) {
            notes->append({b.file, b.line, QStringLiteral("Include %1: not read").arg(b.patterns.join(QLatin1Char(' ')))});
            continue;
        }
        if (b.kind != SshConfigBlock::Kind::Host)
            continue;
        for (const QString &p : b.patterns) {
            if (isWildcard(p) || seen.contains(p))
                continue;
            if (p != p.toLower()) {
                // ssh looks up the name in lower case and compares patterns as written.
                notes->append({b.file, b.line, QStringLiteral("Host %1: never matches (ssh compares host names in lower case)").arg(p)});
                seen << p;
                continue;
            }
            seen << p;
            SshConfigHost h;
            h.alias = p;
            h.file = b.file;
            h.line = b.line;
            found << h;
        }
    }
    for (SshConfigHost &h : found) {
        const QString file = h.file;
        const int line = h.line;
        h = resolve(blocks, h.alias, homeDir, localUser, notes);
        h.file = file;
        h.line = line;
    }
    return found;
}

SshConfigHost SshConfigParser::resolve(const QVector<SshConfigBlock> &blocks, const QString &name,
                                       const QString &homeDir, const QString &localUser, QVector<SshConfigNote> *notes)
{
    SshConfigHost h;
    h.alias = name;
    QString hostName, user, port, identity, jump, proxyCommand, certificate, gssapi;
    bool haveProxy = false; // ProxyJump and ProxyCommand share one slot: the first one wins
    for (const SshConfigBlock &b : blocks) {
        if (b.kind == SshConfigBlock::Kind::Match || b.kind == SshConfigBlock::Kind::Include)
            continue;
        if (b.kind == SshConfigBlock::Kind::Host && !matches(b.patterns, name))
            continue;
        if (h.file.isEmpty() && b.kind == SshConfigBlock::Kind::Host) {
            h.file = b.file;
            h.line = b.line;
        }
        for (const auto &[key, value] : b.options) {
            if (key == QLatin1String("hostname") && hostName.isEmpty())
                hostName = value;
            else if (key == QLatin1String("user") && user.isEmpty())
                user = value;
            else if (key == QLatin1String("port") && port.isEmpty())
                port = value;
            else if (key == QLatin1String("identityfile") && identity.isEmpty())
                identity = value;
            else if (key == QLatin1String("certificatefile") && certificate.isEmpty())
                certificate = value;
            else if (key == QLatin1String("gssapiauthentication") && gssapi.isEmpty())
                gssapi = value;
            else if ((key == QLatin1String("proxyjump") || key == QLatin1String("proxycommand")) && !haveProxy) {
                (key == QLatin1String("proxyjump") ? jump : proxyCommand) = value;
                haveProxy = true;
            }
        }
    }
    h.hostName = expandTokens(hostName, {{QLatin1Char('h'), name}});
    h.user = user;
    if (!port.isEmpty()) {
        bool ok = false;
        const int value = port.toInt(&ok);
        if (ok && value > 0 && value < 65536)
            h.port = value;
        else
            notes->append({h.file, h.line, QStringLiteral("%1: Port %2 ignored (not a port number)").arg(name, port)});
    }
    const auto isNone = [](const QString &value) { return value.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0; };
    h.proxyJump = isNone(jump) ? QString() : jump;
    h.proxyCommand = isNone(proxyCommand) ? QString() : proxyCommand;
    h.gssapiAuthentication = gssapi.compare(QLatin1String("yes"), Qt::CaseInsensitive) == 0;
    const QString remoteUser = user.isEmpty() ? localUser : user;
    const auto expandPath = [&](QString path) {
        if (path.isEmpty() || isNone(path))
            return QString();
        if (path.startsWith(QLatin1String("~/")))
            path = homeDir + path.mid(1);
        return expandTokens(path, {{QLatin1Char('d'), homeDir},
                                   {QLatin1Char('u'), localUser},
                                   {QLatin1Char('h'), h.effectiveHostName()},
                                   {QLatin1Char('n'), name},
                                   {QLatin1Char('r'), remoteUser},
                                   {QLatin1Char('p'), QString::number(h.port > 0 ? h.port : 22)}});
    };
    h.identityFile = expandPath(identity);
    h.certificateFile = expandPath(certificate);
    return h;
}

} // namespace strata
