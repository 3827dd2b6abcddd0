// strata_cli_docs: writes what the package installs from the command table, so that the man page
// and the completions list exactly the commands and flags strata has. Run by the build only:
//   strata_cli_docs bash|zsh|fish OUT
//   strata_cli_docs man TEMPLATE OUT DATE    (fills @COMMANDS_SECTION@, @STRATA_VERSION@, @STRATA_RELEASE_DATE@)

#include "cli/command_table.h"
#include "cli/completion_script.h"

#include <QFile>
#include <QStringList>

#include <cstdio>

namespace {

bool writeFile(const QString &path, const QString &text)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text.toUtf8()) < 0) {
        std::fprintf(stderr, "strata_cli_docs: cannot write %s: %s\n", qPrintable(path), qPrintable(file.errorString()));
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    const QString what = args.value(0);
    if (args.size() == 2 && !strata::CompletionScript::generate(what).isEmpty())
        return writeFile(args[1], strata::CompletionScript::generate(what)) ? 0 : 1;
    if (what == QLatin1String("man") && args.size() == 4) {
        QFile in(args[1]);
        if (!in.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "strata_cli_docs: cannot read %s: %s\n", qPrintable(args[1]), qPrintable(in.errorString()));
            return 1;
        }
        QString page = QString::fromUtf8(in.readAll());
        page.replace(QLatin1String("@COMMANDS_SECTION@\n"), strata::CommandTable::manCommandsSection());
        page.replace(QLatin1String("@STRATA_VERSION@"), QStringLiteral(STRATA_VERSION));
        page.replace(QLatin1String("@STRATA_RELEASE_DATE@"), args[3]);
        return writeFile(args[2], page) ? 0 : 1;
    }
    std::fprintf(stderr, "usage: strata_cli_docs bash|zsh|fish OUT | man TEMPLATE OUT DATE\n");
    return 2;
}
