#pragma once

#include "batch_script.h"

#include <QString>

namespace strata {

// A job's batch script as read once from the scheduler (SlurmSource: `scontrol write
// batch_script`), shared by every snapshot that holds the job (Job::script).
struct JobScript
{
    enum class Status {
        Read,        // read whole
        TooBig,      // longer than BatchScript::kMaxBytes: its first part was read
        NotReadable, // the scheduler would not give it (another user's job, no script): `problem` says
    };
    Status status = Status::NotReadable;
    QString problem;            // NotReadable: the scheduler's words
    qint64 bytesRead = 0;
    BatchScriptContent content; // empty unless read

    bool isRead() const { return status != Status::NotReadable; }
    static QString statusName(Status status); // "read", "too-big", "not-readable"
};

} // namespace strata
