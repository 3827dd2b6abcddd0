#pragma once

#include <QByteArray>
#include <QString>

namespace strata::CliOutput {

// Bytes to stdout as they are (UTF-8), flushed: scripts read what the CLI prints.
void out(const QString &text);
// UTF-8 bytes to stdout, flushed, without a detour through QString (a 50,000-job snapshot's
// JSON is tens of MB: as UTF-16 and back it would be held three times).
void outBytes(const QByteArray &utf8);
// One line to stderr, as is (progress) ...
void line(const QString &text);
// ... or as an error, prefixed "strata: ".
void error(const QString &text);
// Whether stderr is a terminal: only then is there a live progress line.
// Standard output is a terminal (not a pipe or a file).
bool stdoutIsTerminal();
bool stderrIsTerminal();
// Replaces the live progress line on a terminal (carriage return, erase line, no newline);
// an empty text erases it.
void progress(const QString &text);

} // namespace strata::CliOutput
