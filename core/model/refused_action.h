#pragma once

#include "error_kind.h"
#include "job_submission.h"

namespace strata {

// An action refused before anything ran: a value failed validation (InvalidRequest).
inline ActionResult refusedAction(ActionKind action, const QString &target, const QString &why)
{
    ActionResult result;
    result.action = action;
    result.target = target;
    result.message = why;
    result.errorKind = ErrorKind::InvalidRequest;
    return result;
}

} // namespace strata
