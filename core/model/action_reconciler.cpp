#include "action_reconciler.h"

namespace strata {

ActionResult ActionReconciler::reconcile(const ActionResult &unknown) const
{
    switch (unknown.action) {
    case ActionKind::Submit:
        return reconcileSubmit(unknown);
    case ActionKind::Cancel:
        return reconcileCancel(unknown);
    case ActionKind::Drain:
    case ActionKind::Resume:
        return reconcileNodes(unknown, unknown.action == ActionKind::Drain);
    case ActionKind::Silence:
    case ActionKind::ExpireSilence:
        break; // Alertmanager's, not the orchestrator's
    }
    return stillUnknown(unknown, QStringLiteral("Strata cannot read back the outcome of \"%1\"").arg(actionKindName(unknown.action)));
}

ActionResult ActionReconciler::stillUnknown(const ActionResult &unknown, const QString &why)
{
    ActionResult r = unknown;
    r.ok = false;
    r.outcomeUnknown = true;
    r.reconciled = false;
    r.message = QStringLiteral("%1; reading the cluster back failed too: %2").arg(unknown.message, why);
    return r;
}

ActionResult ActionReconciler::settled(const ActionResult &unknown, bool ok, const QString &message)
{
    ActionResult r = unknown;
    r.ok = ok;
    r.outcomeUnknown = false;
    r.reconciled = true;
    r.message = message;
    return r;
}

} // namespace strata
