#include "snapshot_command.h"

#include "cli/cli_failure.h"
#include "cli/cli_output.h"
#include "cli/cli_profile_resolver.h"
#include "cli/snapshot_text_printer.h"
#include "model/snapshot_json.h"
#include "session/cluster_session.h"
#include "session/terminal_login_prompter.h"

namespace strata {

int SnapshotCommand::run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    ClusterProfile profile;
    if (!CliProfileResolver::resolve(connection, parser, &profile))
        return 2;
    auto session = std::make_unique<ClusterSession>(profile, std::make_shared<TerminalLoginPrompter>());
    SnapshotPtr result;
    QObject::connect(session.get(), &ClusterSession::snapshotReady, &app, [&](const SnapshotPtr &snapshot) {
        result = snapshot;
        app.quit();
    });
    session->refreshNow();
    app.exec();
    // What the session keeps for its next refresh (the last good part's jobs, the placements)
    // is not needed to print: free it before the output is built (at 50,000 jobs, tens of MB).
    session.reset();
    if (!result)
        return 1;
    const SourceStatus *orchestrator = result->source(sourceKind(result->orchestrator));
    if (!orchestrator || !orchestrator->ok) {
        if (!orchestrator)
            return CliFailure::report(QStringLiteral("no answer from the cluster"), ErrorKind::None);
        return CliFailure::report(orchestrator->error, orchestrator->errorKind);
    }
    if (parser.value(QStringLiteral("format")) == QLatin1String("json"))
        SnapshotJson::writeIndented(*result, [](const QByteArray &piece) { CliOutput::outBytes(piece); });
    else
        CliOutput::out(SnapshotTextPrinter::print(*result));
    // Partial data is still printed, but a source that failed makes the exit status say so.
    for (const SourceStatus &s : result->sources) {
        if (s.configured && !s.ok)
            return CliFailure::report(QStringLiteral("%1: %2").arg(sourceKindName(s.source), s.error), s.errorKind);
    }
    return 0;
}

} // namespace strata
