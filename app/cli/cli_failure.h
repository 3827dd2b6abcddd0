#pragma once

#include "model/error_kind.h"

#include <QString>

namespace strata {

// How every command reports a failure: the text on stderr, then what a person can do about it
// (decided on its kind), and the exit status.
class CliFailure
{
public:
    // The exit status: 2 when the request itself was refused before anything ran (as for a usage
    // error), else 1.
    static int report(const QString &text, ErrorKind kind);
    // What a person can do about a failure of this kind; empty when nothing general applies.
    static QString hintFor(ErrorKind kind);
};

} // namespace strata
