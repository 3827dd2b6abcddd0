#pragma once

#include "cli/connection_options.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QStringList>

namespace strata {

// Runs one headless subcommand (snapshot, submit, cancel, drain, resume, profile) and returns
// the process exit status: 0 success, 1 failure (reason on stderr), 2 usage error. Owned by
// main(); lives on the main thread and spins its event loop while the session works.
class CliRunner
{
public:
    static bool isSubcommand(const QString &word);
    static QStringList subcommands();
    int run(QCoreApplication &app, const QStringList &arguments);

private:
    int snapshot(QCoreApplication &app, QCommandLineParser &parser);
    int submit(QCoreApplication &app, QCommandLineParser &parser);
    int jobAction(QCoreApplication &app, QCommandLineParser &parser, const QString &action);
    int nodeAction(QCoreApplication &app, QCommandLineParser &parser, const QString &action);
    int profile(QCommandLineParser &parser);
    bool resolveProfile(QCommandLineParser &parser, ClusterProfile *profile);

    ConnectionOptions m_connection;
};

} // namespace strata
