#pragma once

#include "model/job_submission.h"

#include <QFuture>

namespace strata {

class ClusterSession;

// Waits for a session action (submit, cancel, drain, resume) on the main thread's event loop and
// prints its result, as text or JSON (schema strata.action/1). One whose answer was lost is read
// back from the cluster (a few tries while the connection comes back), never sent again.
class ActionWaiter
{
public:
    // The exit status of an action whose outcome stays unknown: it was sent, its answer was lost,
    // and the cluster could not be read back. Distinct from 1 (failed) so that a script never
    // resends it blindly (README, "Command line").
    static constexpr int kExitOutcomeUnknown = 3;

    // The exit status: 0 done, 1 failed (2 refused before it ran), kExitOutcomeUnknown.
    static int waitAndPrint(ClusterSession &session, const QFuture<ActionResult> &future, bool json);
};

} // namespace strata
