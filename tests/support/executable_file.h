#pragma once

#include <QByteArray>
#include <QString>

namespace strata {

// Writes `text` to `path` and makes it executable by its owner: a stand-in command (a script
// first in PATH) for tests that run real programs through a shell. False when it could not.
bool writeExecutable(const QString &path, const QByteArray &text);

} // namespace strata
