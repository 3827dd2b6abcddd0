#include "help_command.h"

#include "cli/cli_output.h"
#include "cli/command_table.h"

#include <QJsonDocument>

namespace strata {

int HelpCommand::run(QCoreApplication &, QCommandLineParser &parser, const ConnectionOptions &)
{
    const QString word = parser.positionalArguments().join(QLatin1Char(' '));
    if (word.isEmpty()) {
        if (parser.value(QStringLiteral("format")) == QLatin1String("json"))
            CliOutput::out(QString::fromUtf8(QJsonDocument(CommandTable::overviewJson()).toJson(QJsonDocument::Indented)));
        else
            CliOutput::out(CommandTable::overviewText());
        return 0;
    }
    const CliCommand *command = CommandTable::find(word);
    if (!command) {
        CliOutput::error(CommandTable::unknownCommandMessage(word));
        return 2;
    }
    QCommandLineParser commandParser;
    CommandTable::configureParser(*command, commandParser);
    CliOutput::out(commandParser.helpText());
    return 0;
}

} // namespace strata
