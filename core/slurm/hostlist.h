#pragma once

#include <QString>
#include <QStringList>

namespace strata {

// Slurm host list expressions ("gpu-node[01-03,07],login1").
namespace Hostlist {

// Expands an expression into host names, keeping zero padding. Returns false (and sets *error)
// for a malformed expression, such as an unclosed bracket or a reversed range, and for one
// that would expand past 100,000 names or to a name of more than 255 characters.
bool expand(const QString &expression, QStringList *hosts, QString *error = nullptr);
// Several expressions (a command line's arguments) expanded in order, appended to *hosts; false
// with *error at the first malformed one.
bool expandAll(const QStringList &expressions, QStringList *hosts, QString *error);
// Convenience: the expanded list, or the expression itself as one name when malformed.
QStringList expandOrKeep(const QString &expression);
// Compresses names into the shortest usual form: "gpu-node[01-03,07]".
QString compress(const QStringList &hosts);

} // namespace Hostlist
} // namespace strata
