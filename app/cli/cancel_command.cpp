#include "cancel_command.h"

#include "cli/action_waiter.h"
#include "cli/cli_output.h"
#include "cli/cli_profile_resolver.h"
#include "session/cluster_session.h"
#include "session/terminal_login_prompter.h"

namespace strata {

int CancelCommand::run(QCoreApplication &, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    const QStringList jobs = parser.positionalArguments();
    if (jobs.isEmpty()) {
        CliOutput::error(QStringLiteral("cancel needs at least one job id"));
        return 2;
    }
    ClusterProfile profile;
    if (!CliProfileResolver::resolve(connection, parser, &profile))
        return 2;
    ClusterSession session(profile, std::make_shared<TerminalLoginPrompter>());
    int rc = 0;
    for (const QString &job : jobs)
        rc = qMax(rc, ActionWaiter::waitAndPrint(session, session.cancel(job), parser.value(QStringLiteral("format")) == QLatin1String("json")));
    return rc;
}

} // namespace strata
