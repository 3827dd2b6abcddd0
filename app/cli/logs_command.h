#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata logs POD [-n NS] [-c CONTAINER] [--previous] [--tail N]`: one container's log (init
// containers too), or that of its instance before the last restart, as the API serves it.
// Main thread.
class LogsCommand
{
public:
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
    static QList<QCommandLineOption> options();
};

} // namespace strata
