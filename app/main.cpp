// strata: with a subcommand it runs headless (CLI); without one it opens the console window.

#include "cli/cli_runner.h"
#include "gui_launcher.h"
#include "model/heap_memory.h"

#include <QCoreApplication>
#include <QLoggingCategory>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char **argv)
{
    // Two malloc arenas, not glibc's eight per core: a large refresh parsed on a pool thread
    // otherwise leaves its peak resident (docs/PERF.md, Scale). MALLOC_ARENA_MAX still wins.
    if (!std::getenv("MALLOC_ARENA_MAX"))
        strata::HeapMemory::limitArenas(2);
    const QString first = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    if (first == QLatin1String("--version") || first == QLatin1String("-v")) {
        std::printf("strata %s\n", STRATA_VERSION);
        return 0;
    }
    // `strata --help` is `strata help`: the commands, and no display needed to read them. Any
    // other first word that is not a flag is a command; an unknown one is an error with a
    // suggestion (CliRunner::run), never the window.
    const bool command = !first.isEmpty() && !first.startsWith(QLatin1Char('-'));
    bool help = false;
    for (int i = 1; i < argc && !command; ++i) // `strata --cluster x --help` too: no display needed
        help = help || std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0;
    const bool cli = help || command;
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
        if (help && !command)
            arguments = QStringList{arguments.constFirst(), QStringLiteral("help")};
        strata::CliRunner runner;
        return runner.run(app, arguments);
    }
    return strata::runGui(argc, argv);
}
