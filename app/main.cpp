// strata: with a subcommand it runs headless (CLI); without one it opens the console window.

#include "cli/cli_runner.h"
#include "gui_launcher.h"

#include <QCoreApplication>
#include <QLoggingCategory>

#include <cstdio>
#include <cstring>

int main(int argc, char **argv)
{
    const bool wantsVersion = argc > 1 && (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "-v") == 0);
    if (wantsVersion) {
        std::printf("strata %s\n", STRATA_VERSION);
        return 0;
    }
    // Debug chatter only when asked for (QT_LOGGING_RULES="strata.*.debug=true").
    const bool cli = argc > 1 && strata::CliRunner::isSubcommand(QString::fromLocal8Bit(argv[1]));
    // The CLI reports every failure once, on stderr, itself; its log lines would repeat it.
    if (!qEnvironmentVariableIsSet("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(cli ? QStringLiteral("strata.*.debug=false\nstrata.*.warning=false")
                                             : QStringLiteral("strata.*.debug=false"));
    if (cli) {
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("strata"));
        QCoreApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));
        strata::CliRunner runner;
        return runner.run(app, QCoreApplication::arguments());
    }
    return strata::runGui(argc, argv);
}
