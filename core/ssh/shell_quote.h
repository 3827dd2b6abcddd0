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
// `env -- K=V ... argv...`, for the profile's remote environment; keys must be valid names.
QString withEnvironment(const QList<QPair<QString, QString>> &environment, const QStringList &argv);
// KEY=VALUE as one shell word: VALUE literal except $NAME / ${NAME}, which the remote shell
// expands (so PATH=/opt/slurm/bin:$PATH works); nothing else is ever expanded.
QString quoteAssignment(const QString &key, const QString &value);
// True if `name` is a valid environment variable name ([A-Za-z_][A-Za-z0-9_]*).
bool isValidVariableName(const QString &name);

} // namespace ShellQuote
} // namespace strata
