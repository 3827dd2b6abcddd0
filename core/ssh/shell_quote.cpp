#include "shell_quote.h"

#include "model/environment_variable.h"

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
    return EnvironmentVariable::isValidName(name);
}

QString environmentProblem(const QList<QPair<QString, QString>> &environment, const QStringList &argv)
{
    for (const auto &[name, value] : environment) {
        Q_UNUSED(value);
        if (!isValidVariableName(name))
            return QStringLiteral("\"%1\" is not an environment variable name "
                                  "([A-Za-z_][A-Za-z0-9_]*)")
                .arg(name);
    }
    if (argv.isEmpty() || argv.first().isEmpty())
        return QStringLiteral("no command to run");
    if (argv.first().startsWith(QLatin1Char('-')))
        return QStringLiteral("the command \"%1\" starts with '-', which env would take for an option").arg(argv.first());
    if (argv.first().contains(QLatin1Char('=')))
        return QStringLiteral("the command \"%1\" holds '=', which env would take for a setting").arg(argv.first());
    return {};
}

CommandLine withEnvironment(const QList<QPair<QString, QString>> &environment, const QStringList &argv)
{
    CommandLine line;
    line.error = environmentProblem(environment, argv);
    if (!line.ok())
        return line;
    if (environment.isEmpty()) {
        line.text = line.forLog = join(argv);
        return line;
    }
    QStringList parts{QStringLiteral("env"), QStringLiteral("--")};
    QStringList shown = parts;
    for (const auto &[key, value] : environment) {
        parts << quoteAssignment(key, value);
        shown << key + QStringLiteral("=\u2026");
    }
    const QString command = join(argv);
    line.text = parts.join(QLatin1Char(' ')) + QLatin1Char(' ') + command;
    line.forLog = shown.join(QLatin1Char(' ')) + QLatin1Char(' ') + command;
    return line;
}

} // namespace strata::ShellQuote
