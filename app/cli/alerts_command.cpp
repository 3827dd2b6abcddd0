#include "alerts_command.h"

#include "cli/cli_failure.h"
#include "cli/cli_output.h"
#include "cli/cli_profile_resolver.h"
#include "cli/text_table.h"
#include "model/snapshot_json.h"
#include "session/cluster_session.h"
#include "session/terminal_login_prompter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata {

int AlertsCommand::run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    ClusterProfile profile;
    if (!CliProfileResolver::resolve(connection, parser, &profile))
        return 2;
    if (profile.prometheusUrl.isEmpty()) {
        CliOutput::error(QStringLiteral("strata alerts reads Prometheus: give --prometheus URL (or a profile with one)"));
        return 2;
    }
    ClusterSession session(profile, std::make_shared<TerminalLoginPrompter>());
    SnapshotPtr result;
    QObject::connect(&session, &ClusterSession::snapshotReady, &app, [&](const SnapshotPtr &snapshot) {
        result = snapshot;
        app.quit();
    });
    session.refreshNow();
    app.exec();
    if (!result)
        return 1;
    for (const SourceStatus &s : result->sources)
        if (s.configured && !s.ok)
            return CliFailure::report(QStringLiteral("%1: %2").arg(sourceKindName(s.source), s.error), s.errorKind);
    QVector<Finding> alerts;
    for (const Finding &f : result->findings)
        if (f.code.startsWith(QLatin1String("alert:")))
            alerts << f;
    if (parser.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray list;
        for (const Finding &f : std::as_const(alerts))
            list.append(SnapshotJson::findingToJson(f));
        CliOutput::out(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("schema"), QStringLiteral("strata.alerts/1")},
                                                             {QStringLiteral("cluster"), result->clusterName},
                                                             {QStringLiteral("takenAt"), result->takenAt.toString(Qt::ISODate)},
                                                             {QStringLiteral("alerts"), list}})
                                       .toJson(QJsonDocument::Indented)));
        return 0;
    }
    if (alerts.isEmpty()) {
        CliOutput::out(QStringLiteral("no alerts firing\n"));
        return 0;
    }
    TextTable table({QStringLiteral("SEVERITY"), QStringLiteral("ALERT"), QStringLiteral("NODE"), QStringLiteral("GPU"),
                     QStringLiteral("JOB"), QStringLiteral("MESSAGE")});
    for (const Finding &f : std::as_const(alerts))
        table.addRow({Finding::severityName(f.severity), f.code.mid(6), f.node.isEmpty() ? QStringLiteral("-") : f.node,
                      f.gpu < 0 ? QStringLiteral("-") : QString::number(f.gpu), f.job.isEmpty() ? QStringLiteral("-") : f.job,
                      f.message});
    CliOutput::out(table.render());
    return 0;
}

} // namespace strata
