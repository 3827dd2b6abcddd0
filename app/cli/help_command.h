#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace strata {

class ConnectionOptions;

// `strata help [COMMAND]`: the overview of the command table (text, or JSON strata.commands/1),
// or one command's options.
class HelpCommand
{
public:
    static int run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);
};

} // namespace strata
