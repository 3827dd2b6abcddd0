#include "drain_command.h"

#include "cli/action_waiter.h"
#include "cli/cli_output.h"
#include "cli/cli_profile_resolver.h"
#include "session/cluster_session.h"
#include "session/terminal_login_prompter.h"
#include "slurm/hostlist.h"

namespace strata {

namespace {

const QCommandLineOption kReason{QStringLiteral("reason"), QStringLiteral("Why the node is drained."), QStringLiteral("text")};

} // namespace

QList<QCommandLineOption> DrainCommand::options()
{
    return {kReason};
}

int DrainCommand::run(QCoreApplication &, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    QStringList nodes;
    if (QString error; !Hostlist::expandAll(parser.positionalArguments(), &nodes, &error)) {
        CliOutput::error(error);
        return 2;
    }
    if (nodes.isEmpty()) {
        CliOutput::error(QStringLiteral("drain needs at least one node"));
        return 2;
    }
    if (parser.value(kReason).trimmed().isEmpty()) {
        CliOutput::error(QStringLiteral("drain needs --reason TEXT"));
        return 2;
    }
    ClusterProfile profile;
    if (!CliProfileResolver::resolve(connection, parser, &profile))
        return 2;
    ClusterSession session(profile, std::make_shared<TerminalLoginPrompter>());
    const bool json = parser.value(QStringLiteral("format")) == QLatin1String("json");
    return ActionWaiter::waitAndPrint(session, session.drain(nodes, parser.value(kReason)), json);
}

} // namespace strata
