#pragma once

#include "cli/connection_options.h"
#include "model/action_kind.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QStringList>

namespace strata {

struct CliCommand;

// Runs one headless subcommand of the command table (app/cli/command_table.cpp) and returns
// the process exit status: 0 success, 1 failure (reason on stderr), 2 usage error. Owned by
// main(); lives on the main thread and spins its event loop while the session works.
class CliRunner
{
public:
    // arguments: the whole command line, the subcommand second (strata COMMAND ...).
    int run(QCoreApplication &app, const QStringList &arguments);
    // What main() says for a first word that is no command, with a suggestion when one is close.
    static QString unknownCommandMessage(const QString &word);

    // The handlers of the command table, and the options of those that have their own.
    int snapshot(QCoreApplication &app, QCommandLineParser &parser);
    int alerts(QCoreApplication &app, QCommandLineParser &parser);
    int silence(QCoreApplication &app, QCommandLineParser &parser);
    int submit(QCoreApplication &app, QCommandLineParser &parser);
    int cancel(QCoreApplication &app, QCommandLineParser &parser);
    int drain(QCoreApplication &app, QCommandLineParser &parser);
    int resume(QCoreApplication &app, QCommandLineParser &parser);
    int metrics(QCoreApplication &app, QCommandLineParser &parser);
    int burnin(QCoreApplication &app, QCommandLineParser &parser);
    int burninHistory(QCoreApplication &app, QCommandLineParser &parser);
    int profile(QCoreApplication &app, QCommandLineParser &parser);
    int help(QCoreApplication &app, QCommandLineParser &parser);
    int completion(QCoreApplication &app, QCommandLineParser &parser);
    static QList<QCommandLineOption> submitOptions();
    static QList<QCommandLineOption> drainOptions();

private:
    int jobAction(QCoreApplication &app, QCommandLineParser &parser, const QString &action);
    int nodeAction(QCoreApplication &app, QCommandLineParser &parser, ActionKind action);
    bool resolveProfile(QCommandLineParser &parser, ClusterProfile *profile);
    void readKeyring(const QCommandLineParser &parser, ClusterProfile *profile);

    ConnectionOptions m_connection;
};

} // namespace strata
