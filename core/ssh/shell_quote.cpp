#include "shell_quote.h"

namespace strata::ShellQuote {

namespace {

bool isSafeCharacter(QChar c)
{
    const ushort u = c.unicode();
    if (u >= 0x80)
        return false;
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_'
        || u == '-' || u == '.' || u == '/' || u == ',' || u == ':' || u == '=' || u == '+'
        || u == '@' || u == '%';
}

} // namespace

QString quoteAssignment(const QString &key, const QString &value)
{
    // Literal text is single-quoted; only $NAME and ${NAME} references stay outside quotes (in
    // double quotes) so the remote shell expands them, as in PATH=/opt/slurm/bin:$PATH. No other
    // expansion ($(...), backticks, globbing) can happen.
    QString out = quote(key + QLatin1Char('='));
    QString literal;
    auto flushLiteral = [&] {
        if (!literal.isEmpty())
            out += quote(literal);
        literal.clear();
    };
    for (int i = 0; i < value.size(); ++i) {
        if (value[i] == QLatin1Char('$') && i + 1 < value.size()) {
            const bool braced = value[i + 1] == QLatin1Char('{');
            int start = braced ? i + 2 : i + 1;
            int end = start;
            while (end < value.size() && isValidVariableName(value.mid(start, end - start + 1)))
                ++end;
            const bool closed = !braced || (end < value.size() && value[end] == QLatin1Char('}'));
            if (end > start && closed) {
                flushLiteral();
                out += QLatin1String("\"${") + value.mid(start, end - start) + QLatin1String("}\"");
                i = braced ? end : end - 1;
                continue;
            }
        }
        literal += value[i];
    }
    flushLiteral();
    return out;
}

QString quote(const QString &argument)
{
    if (argument.isEmpty())
        return QStringLiteral("''");
    bool safe = true;
    for (QChar c : argument) {
        if (!isSafeCharacter(c)) {
            safe = false;
            break;
        }
    }
    // A leading '=' or '-' is fine for sh; '~' and '#' are excluded above because sh treats
    // them specially at the start of a word.
    if (safe)
        return argument;
    // Inside single quotes nothing is special except the closing quote itself, which is written
    // as '\'' (close, escaped quote, reopen). Newlines and any other bytes pass unchanged.
    QString quoted;
    quoted.reserve(argument.size() + 2);
    quoted += QLatin1Char('\'');
    for (QChar c : argument) {
        if (c == QLatin1Char('\''))
            quoted += QLatin1String("'\\''");
        else
            quoted += c;
    }
    quoted += QLatin1Char('\'');
    return quoted;
}

QString join(const QStringList &argv)
{
    QStringList quoted;
    quoted.reserve(argv.size());
    for (const QString &a : argv)
        quoted << quote(a);
    // An unquoted first word with '=' would be a variable assignment, not the command to run.
    if (!argv.isEmpty() && quoted.first() == argv.first() && argv.first().contains(QLatin1Char('=')))
        quoted.first() = QLatin1Char('\'') + argv.first() + QLatin1Char('\'');
    return quoted.join(QLatin1Char(' '));
}

bool isValidVariableName(const QString &name)
{
    if (name.isEmpty())
        return false;
    for (int i = 0; i < name.size(); ++i) {
        const ushort u = name[i].unicode();
        const bool letter = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_';
        const bool digit = u >= '0' && u <= '9';
        if (!(letter || (i > 0 && digit)))
            return false;
    }
    return true;
}

QString withEnvironment(const QList<QPair<QString, QString>> &environment, const QStringList &argv)
{
    if (environment.isEmpty())
        return join(argv);
    QStringList parts{QStringLiteral("env")};
    for (const auto &[key, value] : environment)
        parts << quoteAssignment(key, value);
    // env(1) has no "--" before the command in POSIX; a command never starts with '-' here.
    return parts.join(QLatin1Char(' ')) + QLatin1Char(' ') + join(argv);
}

} // namespace strata::ShellQuote
