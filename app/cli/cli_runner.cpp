#include "cli_runner.h"

#include "cli/cli_output.h"
#include "cli/command_table.h"

#include <QCommandLineParser>

namespace strata {

QString CliRunner::unknownCommandMessage(const QString &word)
{
    return CommandTable::unknownCommandMessage(word);
}

int CliRunner::run(QCoreApplication &app, const QStringList &arguments)
{
    const QString word = arguments.value(1);
    qsizetype taken = 0;
    const CliCommand *command = CommandTable::match(arguments.mid(1), &taken);
    if (!command) {
        CliOutput::error(unknownCommandMessage(word));
        return 2;
    }
    QCommandLineParser parser;
    CommandTable::configureParser(*command, parser);
    QStringList args = arguments;
    args.remove(1, taken); // the command's words; the rest parses like any command line
    if (!parser.parse(args)) {
        CliOutput::error(parser.errorText());
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        CliOutput::out(parser.helpText());
        return 0;
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (QStringList formats = command->formats(); !formats.contains(format)) {
        const QString last = formats.takeLast();
        CliOutput::error(QStringLiteral("--format must be %1 or %2").arg(formats.join(QStringLiteral(", ")), last));
        return 2;
    }
    return command->handler(app, parser, m_connection);
}

} // namespace strata
