#pragma once

#include "batch_script.h"

#include <QString>

namespace strata {

// A job's batch script as read once from the scheduler (SlurmSource: `scontrol write
// batch_script`), or built from a pod's spec (KubePodLaunchReader), shared by every snapshot
// that holds the job (Job::script).
struct JobScript
{
    enum class Status {
        Read,        // read whole
        TooBig,      // longer than BatchScript::kMaxBytes: its first part was read
        NotReadable, // the scheduler would not give it (another user's job, no script): `problem` says
    };
    // Where it comes from: a Slurm batch script (its path and arguments are the job's command
    // line, which a wrapper script may say more in), or a pod spec (KubePodLaunchReader: the
    // command line is one of its own lines, read there with the container's env).
    enum class Origin { BatchScript, PodSpec };
    Status status = Status::NotReadable;
    Origin origin = Origin::BatchScript;
    QString problem;            // NotReadable: the scheduler's words
    qint64 bytesRead = 0;
    BatchScriptContent content; // empty unless read

    bool isRead() const { return status != Status::NotReadable; }
    static QString statusName(Status status); // "read", "too-big", "not-readable"
};

} // namespace strata
