#include "queues_command.h"

#include "cli/cli_failure.h"
#include "cli/cli_output.h"
#include "cli/cli_profile_resolver.h"
#include "cli/queue_text_printer.h"
#include "model/queue_json.h"
#include "session/cluster_session.h"
#include "session/terminal_login_prompter.h"

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
    auto session = std::make_unique<ClusterSession>(profile, std::make_shared<TerminalLoginPrompter>());
    SnapshotPtr result;
    QObject::connect(session.get(), &ClusterSession::snapshotReady, &app, [&](const SnapshotPtr &snapshot) {
        result = snapshot;
        app.quit();
    });
    session->refreshNow();
    app.exec();
    session.reset();
    if (!result)
        return 1;
    const SourceStatus *orchestrator = result->source(sourceKind(result->orchestrator));
    if (!orchestrator)
        return CliFailure::report(QStringLiteral("no answer from the cluster"), ErrorKind::None);
    if (!orchestrator->ok)
        return CliFailure::report(orchestrator->error, orchestrator->errorKind);
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
