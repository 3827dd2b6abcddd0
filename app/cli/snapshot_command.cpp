#include "snapshot_command.h"

#include "cli/cli_failure.h"
#include "cli/cli_output.h"
#include "cli/cli_profile_resolver.h"
#include "cli/one_refresh.h"
#include "cli/snapshot_text_printer.h"
#include "model/snapshot_json.h"

namespace strata {

int SnapshotCommand::run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    ClusterProfile profile;
    if (!CliProfileResolver::resolve(connection, parser, &profile))
        return 2;
    const SourceStatus *orchestrator = nullptr;
    int rc = 0;
    const SnapshotPtr result = OneRefresh::take(app, profile, &orchestrator, &rc);
    if (!result)
        return rc;
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
