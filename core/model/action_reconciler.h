#pragma once

#include "job_submission.h"

#include <QString>

namespace strata {

// What every orchestrator's read-back of an action whose answer was lost
// (ActionResult::outcomeUnknown) has in common: the dispatch on the action's kind and the two
// ways a read-back ends (settled, or still unknown with both reasons). An orchestrator
// supplies only how it reads back a submit, a cancel, and a drain or resume
// (SlurmActionReconciler, KubeActionReconciler). The subclasses block on the reads they run:
// the sources make one on their pools, for one call, and drop it.
class ActionReconciler
{
public:
    virtual ~ActionReconciler() = default;

    // The outcome read back from the cluster; an action Strata cannot read back stays unknown.
    ActionResult reconcile(const ActionResult &unknown) const;

    // The cluster could not be read either: the outcome stays unknown, with both reasons.
    static ActionResult stillUnknown(const ActionResult &unknown, const QString &why);
    // The outcome is known now: ok or not, and what was read back.
    static ActionResult settled(const ActionResult &unknown, bool ok, const QString &message);

protected:
    virtual ActionResult reconcileSubmit(const ActionResult &unknown) const = 0;
    virtual ActionResult reconcileCancel(const ActionResult &unknown) const = 0;
    // drain: true for a drain (Kubernetes: cordon), false for a resume (uncordon).
    virtual ActionResult reconcileNodes(const ActionResult &unknown, bool drain) const = 0;
};

} // namespace strata
