#pragma once

#include "cli/connection_options.h"

#include <QCoreApplication>
#include <QStringList>

namespace strata {

// Runs one headless subcommand of the command table (app/cli/command_table.cpp) and returns
// the process exit status: 0 success, 1 failure (reason on stderr), 2 usage error. Owned by
// main(); lives on the main thread and spins its event loop while the session works. The
// commands themselves live in app/cli/*_command.cpp, one file each; the table points to them.
class CliRunner
{
public:
    // arguments: the whole command line, the subcommand second (strata COMMAND ...).
    int run(QCoreApplication &app, const QStringList &arguments);
    // What main() says for a first word that is no command, with a suggestion when one is close.
    static QString unknownCommandMessage(const QString &word);

private:
    ConnectionOptions m_connection;
};

} // namespace strata
