#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata snapshot`: one refresh of the session, printed as the layered stack (text) or as
// JSON (strata.snapshot); a source that failed makes the exit status say so. Main thread.
class SnapshotCommand
{
public:
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
