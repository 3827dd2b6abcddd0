#include "queues_command.h"

#include "cli/cli_failure.h"
#include "cli/cli_output.h"
#include "cli/cli_profile_resolver.h"
#include "cli/one_refresh.h"
#include "cli/queue_text_printer.h"
#include "model/queue_json.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace strata {

int QueuesCommand::run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    ClusterProfile profile;
    if (!CliProfileResolver::resolve(connection, parser, &profile))
        return 2;
    if (profile.orchestrator != OrchestratorKind::Kubernetes)
        return CliFailure::report(QStringLiteral("queues are Kueue's, on Kubernetes (--kubernetes); a Slurm cluster's "
                                                 "counterpart is its partitions (strata snapshot)"),
                                  ErrorKind::InvalidRequest);
    const SourceStatus *orchestrator = nullptr;
    int rc = 0;
    const SnapshotPtr result = OneRefresh::take(app, profile, &orchestrator, &rc);
    if (!result)
        return rc;
    if (parser.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray queues;
        for (const Queue &q : result->queues)
            queues.append(QueueJson::toJson(q));
        const QJsonObject doc{{QLatin1String("schema"), QStringLiteral("strata.queues/1")},
                              {QLatin1String("cluster"), result->clusterName},
                              {QLatin1String("takenAt"), result->takenAt.toString(Qt::ISODate)},
                              // An orchestrator that answered keeps its warnings (what could not be read) here.
                              {QLatin1String("warning"), orchestrator->error.isEmpty() ? QJsonValue(QJsonValue::Null)
                                                                                       : QJsonValue(orchestrator->error)},
                              {QLatin1String("queues"), queues}};
        CliOutput::outBytes(QJsonDocument(doc).toJson(QJsonDocument::Indented));
    } else {
        CliOutput::out(QueueTextPrinter::print(result->queues));
        if (!orchestrator->error.isEmpty())
            CliOutput::line(QStringLiteral("warning: %1").arg(orchestrator->error));
    }
    return 0;
}

} // namespace strata
