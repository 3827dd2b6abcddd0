// strata: with a subcommand it runs headless (CLI); without one it opens the console window.

#include "cli/cli_runner.h"
#include "gui_launcher.h"

#include <QCoreApplication>
#include <QLoggingCategory>

#include <cstdio>

int main(int argc, char **argv)
{
    const QString first = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    if (first == QLatin1String("--version") || first == QLatin1String("-v")) {
        std::printf("strata %s\n", STRATA_VERSION);
        return 0;
    }
    // `strata --help` is `strata help`: the commands, and no display needed to read them. Any
    // other first word that is not a flag is a command; an unknown one is an error with a
    // suggestion (CliRunner::run), never the window.
    const bool help = first == QLatin1String("--help") || first == QLatin1String("-h") || first == QLatin1String("help");
    const bool cli = help || (!first.isEmpty() && !first.startsWith(QLatin1Char('-')));
    // Debug chatter only when asked for (QT_LOGGING_RULES="strata.*.debug=true").
    // The CLI reports every failure once, on stderr, itself; its log lines would repeat it.
    if (!qEnvironmentVariableIsSet("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(cli ? QStringLiteral("strata.*.debug=false\nstrata.*.warning=false")
                                             : QStringLiteral("strata.*.debug=false"));
    if (cli) {
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("strata"));
        QCoreApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));
        QStringList arguments = QCoreApplication::arguments();
        if (help)
            arguments[1] = QStringLiteral("help");
        strata::CliRunner runner;
        return runner.run(app, arguments);
    }
    return strata::runGui(argc, argv);
}
