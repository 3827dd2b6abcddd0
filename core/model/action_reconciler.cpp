#include "action_reconciler.h"

namespace strata {

ActionResult ActionReconciler::reconcile(const ActionResult &unknown) const
{
    if (unknown.action == QLatin1String("submit"))
        return reconcileSubmit(unknown);
    if (unknown.action == QLatin1String("cancel"))
        return reconcileCancel(unknown);
    if (unknown.action == QLatin1String("drain") || unknown.action == QLatin1String("resume"))
        return reconcileNodes(unknown, unknown.action == QLatin1String("drain"));
    return stillUnknown(unknown, QStringLiteral("Strata cannot read back the outcome of \"%1\"").arg(unknown.action));
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
