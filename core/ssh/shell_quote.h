#pragma once

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace strata {

// Quoting for POSIX sh, the one place where remote command lines are made.
namespace ShellQuote {

// One argument, single-quoted unless it is made only of safe characters: any bytes survive.
QString quote(const QString &argument);
// argv joined with spaces, each element quoted.
QString join(const QStringList &argv);
// A remote command line, or why none was made: a refusal is a value the caller reports as a
// failed command (InvalidRequest), never a line sent anyway.
struct CommandLine
{
    QString text;
    QString forLog; // text with the environment's values left out (they can hold secrets)
    QString error;
    bool ok() const { return error.isEmpty(); }
};

// Why `env -- K=V ... argv...` would not run argv with that environment, or empty: a name that
// is not a variable name (a leading '-' is an option to env: `-S sh -c ...` runs anything), no
// command, or a command env would take for an option (leading '-') or a setting ('=').
QString environmentProblem(const QList<QPair<QString, QString>> &environment, const QStringList &argv);
// `env -- K=V ... argv...` for the profile's remote environment (argv alone when it is empty),
// refused as environmentProblem says. "--" ends env's options in GNU, BSD and busybox env alike.
CommandLine withEnvironment(const QList<QPair<QString, QString>> &environment, const QStringList &argv);
// KEY=VALUE as one shell word: VALUE literal except $NAME / ${NAME}, which the remote shell
// expands (so PATH=/opt/slurm/bin:$PATH works); nothing else is ever expanded.
QString quoteAssignment(const QString &key, const QString &value);
// True if `name` is a valid environment variable name ([A-Za-z_][A-Za-z0-9_]*).
bool isValidVariableName(const QString &name);

} // namespace ShellQuote
} // namespace strata
