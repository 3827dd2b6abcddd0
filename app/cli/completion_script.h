#pragma once

#include <QString>

namespace strata::CompletionScript {

// The completion script for bash, zsh or fish, generated from the command table: command
// names with their one-line help, each command's options, file names after options that take a
// file, saved profile names after --cluster. Empty for any other shell.
QString generate(const QString &shell);

} // namespace strata::CompletionScript
