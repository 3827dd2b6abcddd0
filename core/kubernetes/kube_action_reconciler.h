#pragma once

#include "model/job_submission.h"

namespace strata {

class GpuCatalog;
class KubectlCommands;
class RemoteShell;

// Reads the Kubernetes API back (through kubectl) for an action whose answer was lost
// (ActionResult::outcomeUnknown), instead of sending it again: a submit is looked up by its
// label strata.io/submission=TAG, a cancel by whether the Job (or bare pod) is gone or being
// deleted, a drain or resume by the nodes' spec.unschedulable. Blocking: KubernetesSource calls
// it on its pool. The dispatch on the action's kind and the shape of the results are
// ActionReconciler's.
namespace KubeActionReconciler {

ActionResult reconcile(RemoteShell &shell, const KubectlCommands &commands, const GpuCatalog &catalog,
                       const ActionResult &unknown, bool barePod);

} // namespace KubeActionReconciler
} // namespace strata
