#include "completion_command.h"

#include "cli/cli_output.h"
#include "cli/completion_script.h"

namespace strata {

int CompletionCommand::run(QCoreApplication &, QCommandLineParser &parser, const ConnectionOptions &)
{
    const QString shell = parser.positionalArguments().value(0);
    const QString script = CompletionScript::generate(shell);
    if (script.isEmpty()) {
        CliOutput::error(QStringLiteral("completion needs a shell: bash, zsh or fish"));
        return 2;
    }
    CliOutput::out(script);
    return 0;
}

} // namespace strata
