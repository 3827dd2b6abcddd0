#include "action_waiter.h"

#include "cli/cli_failure.h"
#include "cli/cli_output.h"
#include "model/when_finished.h"
#include "session/cluster_session.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

namespace strata {

namespace {

ActionResult awaitAction(const QFuture<ActionResult> &future)
{
    ActionResult result;
    result.message = QStringLiteral("the session ended before the action finished");
    QEventLoop loop;
    QObject context;
    whenFinished(future, &context, [&](const ActionResult &r) {
        result = r;
        loop.quit();
    });
    if (!future.isFinished())
        loop.exec();
    else
        QCoreApplication::processEvents();
    return result;
}

} // namespace

int ActionWaiter::waitAndPrint(ClusterSession &session, const QFuture<ActionResult> &future, bool json)
{
    ActionResult r = awaitAction(future);
    const ActionResult sent = r;
    const QString what = actionKindName(r.action) + (r.target.isEmpty() ? QString() : QLatin1Char(' ') + r.target);
    if (r.outcomeUnknown)
        CliOutput::error(QStringLiteral("%1: %2; reading the cluster back to learn whether it took effect").arg(what, r.message));
    for (int attempt = 0; r.outcomeUnknown && attempt < 3; ++attempt) {
        if (attempt > 0) {
            QEventLoop pause;
            QTimer::singleShot(2000, &pause, &QEventLoop::quit);
            pause.exec();
        }
        r = awaitAction(session.reconcile(sent));
    }
    if (json) {
        QJsonObject o{{QLatin1String("schema"), QStringLiteral("strata.action/1")},
                      {QLatin1String("ok"), r.ok},
                      {QLatin1String("outcome"), r.outcome() == ActionOutcome::Done     ? QStringLiteral("done")
                                                 : r.outcome() == ActionOutcome::Failed ? QStringLiteral("failed")
                                                                                        : QStringLiteral("unknown")},
                      {QLatin1String("reconciled"), r.reconciled},
                      {QLatin1String("action"), actionKindName(r.action)},
                      {QLatin1String("target"), r.target},
                      {QLatin1String("jobId"), r.jobId},
                      {QLatin1String("message"), r.message},
                      {QLatin1String("errorKind"), errorKindName(r.errorKind)}};
        if (!r.tag.isEmpty())
            o.insert(QLatin1String("tag"), r.tag);
        CliOutput::out(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) + QLatin1Char('\n'));
    } else if (r.ok) {
        CliOutput::out(r.message + QLatin1Char('\n'));
    }
    if (r.outcomeUnknown) {
        CliOutput::error(QStringLiteral("%1: outcome unknown: %2%3").arg(what, r.message,
                 r.tag.isEmpty() ? QString() : QStringLiteral(" (the submission's tag: %1)").arg(r.tag)));
        return kExitOutcomeUnknown;
    }
    return r.ok ? 0 : CliFailure::report(QStringLiteral("%1 failed: %2").arg(what, r.message), r.errorKind);
}

} // namespace strata
