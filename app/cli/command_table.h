#pragma once

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <span>

namespace strata {

class ConnectionOptions;

// One subcommand of `strata`, in the shape of git's `struct cmd_struct commands[]`: the one
// table drives dispatch, `strata --help`, each command's `--help`, the window's --help, the
// shell completions and the COMMANDS section of strata(1). A subcommand is listed nowhere else.
struct CliCommand
{
    enum Flag : unsigned {
        NoFlags = 0,
        Connects = 1u << 0,  // takes the connection flags (--cluster, --ssh, ...)
        Hidden = 1u << 1,    // not listed (still dispatched and completed)
        CsvFormat = 1u << 2, // --format csv too (strata report), besides text and json
        YamlFormat = 1u << 3, // --format yaml too (strata describe)
    };
    // The --format words this command takes: text, json, and csv / yaml where its flags say.
    QStringList formats() const;
    // A command's function (XCommand::run): the connection flags resolve to a profile there.
    using Handler = int (*)(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection);

    const char *name;                       // the command's own word ("history" of "burnin history")
    Handler handler;
    QList<QCommandLineOption> (*options)(); // the command's own options; nullptr: none
    const char *arguments;                  // positional arguments, e.g. "JOB..."; "": none
    const char *argumentsHelp;              // what they are
    const char *synopsis;                   // what follows the name in a usage line
    const char *help;                       // one sentence
    unsigned flags;
    // A subcommand's command ("burnin"), as git's `git remote add`; nullptr for a command.
    const char *parent = nullptr;

    // The words that name it on the command line: "snapshot", "burnin history".
    QString nameString() const;
    QString word() const { return QString::fromLatin1(name); }
    QString usageLine() const; // "strata cancel JOB..."
};

namespace CommandTable {

std::span<const CliCommand> commands();
// nullptr when no command has that name ("burnin history" for a subcommand).
const CliCommand *find(QStringView name);
// The command the first words of a command line name, the longest match ("burnin history" over
// "burnin"); *words says how many words it took. nullptr when none.
const CliCommand *match(const QStringList &words, qsizetype *taken);
// The subcommands of a command, in table order.
QList<const CliCommand *> subcommands(const CliCommand &command);
// The closest command name within a small edit distance of a mistyped word; empty when none is.
QString suggest(QStringView typo);
// What `strata WORD` says for a WORD that is no command, with a suggestion when one is close.
QString unknownCommandMessage(const QString &word);
// Levenshtein distance (insert, delete, substitute; a transposition counts 1, as git's
// help.autocorrect does).
int editDistance(QStringView a, QStringView b);

// Adds everything `command` accepts (connection flags, --format, its own options) to a parser.
void configureParser(const CliCommand &command, QCommandLineParser &parser);
// `strata --help`: how to open the window, every listed command, where to read more.
QString overviewText();
// The same as JSON (schema strata.commands/1) for `strata help --format json`.
QJsonObject overviewJson();
// The commands as a roff section for strata(1).
QString manCommandsSection();
// Every option a command accepts: connection flags (when it connects), --format, its own.
QList<QCommandLineOption> options(const CliCommand &command);
// The long option names (without dashes) a command accepts, for the shell completions.
QStringList optionNames(const CliCommand &command);

} // namespace CommandTable

} // namespace strata
