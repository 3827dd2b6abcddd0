#pragma once

#include <QString>

namespace strata::CliOutput {

// Bytes to stdout as they are (UTF-8), flushed: scripts read what the CLI prints.
void out(const QString &text);
// One line to stderr, as is (progress) ...
void line(const QString &text);
// ... or as an error, prefixed "strata: ".
void error(const QString &text);

} // namespace strata::CliOutput
