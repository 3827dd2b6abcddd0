#pragma once

#include <QString>

namespace strata {

// The one rule for environment variable names Strata sends to a remote env(1): the profile
// loader, a lab's connect.args, the CLI, the profile dialog and ShellQuote all ask here. Pure.
namespace EnvironmentVariable {

// [A-Za-z_][A-Za-z0-9_]*: nothing env could take for an option ('-') or split ('=', blanks).
bool isValidName(const QString &name);

} // namespace EnvironmentVariable

} // namespace strata
