#include "job_state.h"

#include <array>
#include <utility>

namespace strata {

namespace {

using namespace Qt::StringLiterals;

constexpr std::array<std::pair<JobState, QLatin1StringView>, 25> kWords{{
    {JobState::Pending, "PENDING"_L1},
    {JobState::Configuring, "CONFIGURING"_L1},
    {JobState::Running, "RUNNING"_L1},
    {JobState::Completing, "COMPLETING"_L1},
    {JobState::Suspended, "SUSPENDED"_L1},
    {JobState::Completed, "COMPLETED"_L1},
    {JobState::Succeeded, "SUCCEEDED"_L1},
    {JobState::Terminating, "TERMINATING"_L1},
    {JobState::Cancelled, "CANCELLED"_L1},
    {JobState::Failed, "FAILED"_L1},
    {JobState::Timeout, "TIMEOUT"_L1},
    {JobState::NodeFail, "NODE_FAIL"_L1},
    {JobState::Preempted, "PREEMPTED"_L1},
    {JobState::OutOfMemory, "OUT_OF_MEMORY"_L1},
    {JobState::BootFail, "BOOT_FAIL"_L1},
    {JobState::Deadline, "DEADLINE"_L1},
    {JobState::Requeued, "REQUEUED"_L1},
    {JobState::RequeueHold, "REQUEUE_HOLD"_L1},
    {JobState::RequeueFederated, "REQUEUE_FED"_L1},
    {JobState::Resizing, "RESIZING"_L1},
    {JobState::Revoked, "REVOKED"_L1},
    {JobState::Signaling, "SIGNALING"_L1},
    {JobState::SpecialExit, "SPECIAL_EXIT"_L1},
    {JobState::StageOut, "STAGE_OUT"_L1},
    {JobState::Stopped, "STOPPED"_L1},
}};

} // namespace

QString jobStateName(JobState state)
{
    for (const auto &[s, word] : kWords)
        if (s == state)
            return word;
    return QString();
}

bool hasEnded(JobState state)
{
    switch (state) {
    case JobState::Completed:
    case JobState::Succeeded:
    case JobState::Cancelled:
    case JobState::Failed:
    case JobState::Timeout:
    case JobState::NodeFail:
    case JobState::Preempted:
    case JobState::OutOfMemory:
    case JobState::BootFail:
    case JobState::Deadline:
    case JobState::Revoked:
    case JobState::SpecialExit:
        return true;
    case JobState::Other:
    case JobState::Pending:
    case JobState::Configuring:
    case JobState::Running:
    case JobState::Completing:
    case JobState::Suspended:
    case JobState::Terminating:
    case JobState::Requeued:
    case JobState::RequeueHold:
    case JobState::RequeueFederated:
    case JobState::Resizing:
    case JobState::Signaling:
    case JobState::StageOut:
    case JobState::Stopped:
        break;
    }
    return false;
}

JobState parseJobState(QStringView word)
{
    for (const auto &[state, w] : kWords)
        if (word == w)
            return state;
    return JobState::Other;
}

} // namespace strata
