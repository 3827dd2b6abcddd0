#pragma once

#include <QString>
#include <QStringList>

#include <functional>

namespace strata {

// The one reader of shell quoting in core/model (POSIX sh rules, no expansion): single quotes
// quote everything up to the next one, double quotes everything but a backslash-escaped
// character, a backslash outside quotes the next character. BatchScript (its statements,
// comments, here-documents and `#SBATCH` lines) and WorkloadDetector (a Slurm or Kubernetes
// command line) read words through it, so they agree on where a quote ends. Pure.
namespace ShellWords {

enum class Substitutions {
    Read,     // $( ) and ${ } are characters like any other (a command line)
    KeepWhole // $( ), $(( )) and ${ } stay whole inside their word, as written (a script's line)
};

// `text` split into words as the shell splits them, quotes and backslashes removed:
// a 'b c' "d \"e" f\ g '' -> a, b c, d "e, f g, (empty).
QStringList split(const QString &text, Substitutions substitutions = Substitutions::Read);

// The end of the group that opens at `open` (a '(' or '{'), counting nesting but not quotes;
// -1 when it is not closed.
qsizetype closingBracket(const QString &text, qsizetype open);

// The first position, outside quotes and not escaped by a backslash, where `isWanted(i)` is
// true; -1 when there is none. `isWanted` sees only such positions.
qsizetype findUnquoted(const QString &text, const std::function<bool(qsizetype)> &isWanted);

} // namespace ShellWords
} // namespace strata
