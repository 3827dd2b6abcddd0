#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata burnin history`: the burn-in history per GPU from the local SQLite store (the file
// `strata burnin` and the window write), with each GPU's runs and the trend of its TFLOPS and
// memory bandwidth. Reads a local file only: connects to nothing.
class BurninHistoryCommand
{
public:
    static QList<QCommandLineOption> options();
    static int run(QCommandLineParser &parser);
    // The command table's entry (it needs no connection).
    static int runFromCommandLine(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
