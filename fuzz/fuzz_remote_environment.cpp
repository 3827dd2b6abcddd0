// ShellQuote::withEnvironment (the command line sent to the login node) on arbitrary names,
// values and argv. Invariant: it refuses exactly when environmentProblem says so, and otherwise
// the line, split into words as POSIX sh splits it (below, for the quoting ShellQuote emits;
// anything else in the line is itself a finding), is `env -- NAME=VALUE... argv...` or argv:
// no word before the command starts with '-' but "--", the names are the given ones, the
// command and its arguments arrive unchanged.
//
// Input: fields separated by 0x01; the first byte's low two bits say how many (name, value)
// pairs come first, the remaining fields are argv.
#include "fuzz_input.h"
#include "model/environment_variable.h"
#include "ssh/shell_quote.h"

#include <QList>
#include <QPair>
#include <QStringList>

namespace {

bool isUnquotedSafe(QChar c)
{
    const ushort u = c.unicode();
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' || u == '-'
        || u == '.' || u == '/' || u == ',' || u == ':' || u == '=' || u == '+' || u == '@' || u == '%';
}

// sh's word splitting of a simple command for what ShellQuote writes: blanks between words,
// '...' literal, \' a quote, "${NAME}" kept as written (the remote shell expands it; it is never an option
// nor a separator), unquoted characters only from the safe set. False on anything else: an
// unquoted metacharacter, a backslash, another form in double quotes, an open quote.
bool splitWords(const QString &line, QStringList *words)
{
    QString word;
    bool inWord = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (c == QLatin1Char(' ')) {
            if (inWord)
                *words << word;
            word.clear();
            inWord = false;
            continue;
        }
        inWord = true;
        if (c == QLatin1Char('\'')) {
            const qsizetype end = line.indexOf(QLatin1Char('\''), i + 1);
            if (end < 0)
                return false;
            word += line.mid(i + 1, end - i - 1);
            i = end;
        } else if (c == QLatin1Char('"')) {
            const qsizetype end = line.indexOf(QLatin1Char('"'), i + 1);
            if (end < 0)
                return false;
            const QString inside = line.mid(i + 1, end - i - 1);
            if (!inside.startsWith(QLatin1String("${")) || !inside.endsWith(QLatin1Char('}'))
                || !strata::EnvironmentVariable::isValidName(inside.mid(2, inside.size() - 3)))
                return false;
            word += inside;
            i = end;
        } else if (c == QLatin1Char('\\') && i + 1 < line.size() && line[i + 1] == QLatin1Char('\'')) {
            word += QLatin1Char('\''); // the '\'' that writes a quote inside a single-quoted word
            ++i;
        } else if (isUnquotedSafe(c)) {
            word += c;
        } else {
            return false;
        }
    }
    if (inWord)
        *words << word;
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace strata;
    if (size == 0)
        return 0;
    const int pairs = data[0] & 3;
    const QList<QByteArray> fields = fuzz::bytes(data + 1, size - 1).split('\x01');
    QList<QPair<QString, QString>> environment;
    QStringList argv;
    qsizetype f = 0;
    for (int p = 0; p < pairs && f + 1 < fields.size(); ++p, f += 2)
        environment.append({QString::fromUtf8(fields[f]), QString::fromUtf8(fields[f + 1])});
    for (; f < fields.size(); ++f)
        argv << QString::fromUtf8(fields[f]);

    bool shouldRefuse = argv.isEmpty() || argv.first().isEmpty() || argv.first().startsWith(QLatin1Char('-'))
        || argv.first().contains(QLatin1Char('='));
    for (const auto &[name, value] : environment)
        shouldRefuse = shouldRefuse || !EnvironmentVariable::isValidName(name);

    const ShellQuote::CommandLine line = ShellQuote::withEnvironment(environment, argv);
    STRATA_FUZZ_CHECK(line.ok() == !shouldRefuse);
    STRATA_FUZZ_CHECK(line.error == ShellQuote::environmentProblem(environment, argv));
    if (!line.ok()) {
        STRATA_FUZZ_CHECK(line.text.isEmpty());
        return 0;
    }
    QStringList words;
    STRATA_FUZZ_CHECK(splitWords(line.text, &words));
    qsizetype w = 0;
    if (!environment.isEmpty()) {
        STRATA_FUZZ_CHECK(words.size() == 2 + environment.size() + argv.size());
        STRATA_FUZZ_CHECK(words[0] == QLatin1String("env") && words[1] == QLatin1String("--"));
        w = 2;
        for (const auto &[name, value] : environment) {
            // env takes each word with '=' as a setting until the first without: the name is
            // what stands before the first '=', exactly the given one.
            STRATA_FUZZ_CHECK(words[w].section(QLatin1Char('='), 0, 0) == name);
            if (!value.contains(QLatin1Char('$')))
                STRATA_FUZZ_CHECK(words[w] == name + QLatin1Char('=') + value);
            ++w;
        }
    } else {
        STRATA_FUZZ_CHECK(words.size() == argv.size());
    }
    for (qsizetype i = 0; i < w; ++i)
        STRATA_FUZZ_CHECK(!words[i].startsWith(QLatin1Char('-')) || (i == 1 && words[i] == QLatin1String("--")));
    STRATA_FUZZ_CHECK(!words[w].startsWith(QLatin1Char('-')) && !words[w].contains(QLatin1Char('=')));
    STRATA_FUZZ_CHECK(words.mid(w) == argv);
    return 0;
}
