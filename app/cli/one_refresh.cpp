#include "one_refresh.h"

#include "cli/cli_failure.h"
#include "session/cluster_session.h"
#include "session/terminal_login_prompter.h"

#include <QCoreApplication>

namespace strata {

SnapshotPtr OneRefresh::take(QCoreApplication &app, const ClusterProfile &profile, const SourceStatus **orchestrator,
                             int *exitCode)
{
    auto session = std::make_unique<ClusterSession>(profile, std::make_shared<TerminalLoginPrompter>());
    SnapshotPtr result;
    QObject::connect(session.get(), &ClusterSession::snapshotReady, &app, [&](const SnapshotPtr &snapshot) {
        result = snapshot;
        app.quit();
    });
    session->refreshNow();
    app.exec();
    session.reset();
    if (!result) {
        *exitCode = 1;
        return nullptr;
    }
    const SourceStatus *status = result->source(sourceKind(result->orchestrator));
    if (!status) {
        *exitCode = CliFailure::report(QStringLiteral("no answer from the cluster"), ErrorKind::None);
        return nullptr;
    }
    if (!status->ok) {
        *exitCode = CliFailure::report(status->error, status->errorKind);
        return nullptr;
    }
    *orchestrator = status;
    return result;
}

} // namespace strata
