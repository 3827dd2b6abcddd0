#pragma once

#include <QString>
#include <QStringView>

namespace strata {

// Where a job stands, read once from the orchestrator's word (Job::state keeps the word for
// display): Slurm's JOB_STATE names, and the words KubernetesPartBuilder gives Jobs and pods
// (SUCCEEDED, TERMINATING). Code decides on this value, never on the word.
enum class JobState {
    Other, // a word not listed here; the word itself is in Job::state
    Pending,
    Configuring,
    Running,
    Completing,
    Suspended,
    Completed,
    Succeeded,   // Kubernetes
    Terminating, // Kubernetes
    Cancelled,
    Failed,
    Timeout,
    NodeFail,
    Preempted,
    OutOfMemory,
    BootFail,
    Deadline,
    Requeued,
    RequeueHold,
    RequeueFederated,
    Resizing,
    Revoked,
    Signaling,
    SpecialExit,
    StageOut,
    Stopped,
};

// The upper-case word: "RUNNING", "NODE_FAIL", ...; empty for Other.
QString jobStateName(JobState state);
// The state an upper-case word names ("RUNNING"); Other for any other word.
JobState parseJobState(QStringView word);
// Whether a job in this state has ended for good: it holds nothing and runs no more (Slurm
// lists it a while after, for MinJobAge). Requeued states come back as pending; Other is not
// known to have ended.
bool hasEnded(JobState state);

} // namespace strata
