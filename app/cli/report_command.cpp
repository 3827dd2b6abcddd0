#include "report_command.h"

#include "cli/cli_failure.h"
#include "cli/cli_output.h"
#include "cli/cli_profile_resolver.h"
#include "cli/report_request.h"
#include "cli/report_text_printer.h"
#include "model/usage_report_csv.h"
#include "model/usage_report_json.h"
#include "model/when_finished.h"
#include "session/cluster_session.h"
#include "session/terminal_login_prompter.h"

#include <QFutureWatcher>

#include <optional>

namespace strata {

QList<QCommandLineOption> ReportCommand::options()
{
    return ReportRequest::options();
}

int ReportCommand::run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    ReportRequest request = ReportRequest::parse(parser, QDateTime::currentDateTimeUtc());
    if (!request.error.isEmpty())
        return CliFailure::report(request.error, ErrorKind::InvalidRequest);
    ClusterProfile profile;
    if (!CliProfileResolver::resolve(connection, parser, &profile))
        return 2;
    // Kubernetes records no submitter (a workload's account is its namespace): by user every
    // workload would be one "(unknown)" group.
    if (!request.groupingGiven && profile.orchestrator == OrchestratorKind::Kubernetes)
        request.grouping = UsageReport::Grouping::Account;
    auto session = std::make_unique<ClusterSession>(profile, std::make_shared<TerminalLoginPrompter>());
    // One refresh first: readHistory adds the running jobs of the latest snapshot and takes the
    // nodes' instance types from it. A refresh that fails is not the report failing: accounting
    // may still answer, and says so when it does not.
    CliOutput::progress(QStringLiteral("reading the cluster…"));
    SnapshotPtr snapshot;
    QObject::connect(session.get(), &ClusterSession::snapshotReady, &app, [&](const SnapshotPtr &s) {
        snapshot = s;
        app.quit();
    });
    session->refreshNow();
    app.exec();
    QObject::disconnect(session.get(), &ClusterSession::snapshotReady, &app, nullptr);
    CliOutput::progress(QStringLiteral("reading accounting and GPU usage…"));
    std::optional<HistoryAnswer> answer;
    QString failure;
    const QFuture<HistoryAnswer> reading = session->readHistory(request.period);
    QFutureWatcher<HistoryAnswer> steps; // the session's steps on the live line: "reading GPU usage"
    QObject::connect(&steps, &QFutureWatcher<HistoryAnswer>::progressTextChanged, &app,
                     [&steps](const QString &step) {
                         if (steps.progressValue() < steps.progressMaximum()) // the last step is the end
                             CliOutput::progress(step + QStringLiteral("…"));
                     });
    steps.setFuture(reading);
    whenFinished(
        reading, &app,
        [&](const HistoryAnswer &a) {
            answer = a;
            app.quit();
        },
        [&](const QString &why) {
            failure = why;
            app.quit();
        });
    app.exec();
    CliOutput::progress(QString());
    session.reset();
    if (!answer)
        return CliFailure::report(QStringLiteral("reading history failed: %1").arg(failure), ErrorKind::None);
    if (!answer->accountingError.isEmpty())
        return CliFailure::report(answer->accountingError, answer->accountingErrorKind);
    const UsageReport report = UsageReport::build(answer->records, request.period, request.grouping, request.top);
    switch (request.format) {
    case ReportRequest::Format::Json:
        UsageReportJson::write(report, request.jobs ? &answer->records : nullptr,
                               [](const QByteArray &piece) { CliOutput::outBytes(piece); });
        break;
    case ReportRequest::Format::Csv:
        CliOutput::outBytes(request.jobs ? UsageReportCsv::jobs(answer->records, request.period)
                                         : UsageReportCsv::groups(report));
        break;
    case ReportRequest::Format::Text:
        CliOutput::out(ReportTextPrinter::print(report));
        break;
    }
    if (answer->skippedRows > 0)
        CliOutput::line(QStringLiteral("warning: %1 accounting row(s) could not be read and are not counted")
                            .arg(answer->skippedRows));
    for (const QString &w : std::as_const(answer->warnings))
        CliOutput::line(QStringLiteral("warning: %1").arg(w));
    if (!answer->metricsError.isEmpty())
        CliOutput::line(QStringLiteral("warning: GPU usage not measured (allocated hours only): %1").arg(answer->metricsError));
    return 0;
}

} // namespace strata
