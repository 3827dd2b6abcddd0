#pragma once

#include "kube_pod.h"

#include <QString>

namespace strata {

// One event of a pod watch (`GET /api/v1/pods?watch=1`): one JSON object per line,
// {"type": T, "object": O}. O is the pod for ADDED/MODIFIED/DELETED, a pod with only its
// metadata.resourceVersion for BOOKMARK, and a Status for ERROR (410 Expired: the version the
// watch started from is older than the API server keeps; list again).
struct KubePodWatchEvent
{
    enum class Type { Added, Modified, Deleted, Bookmark, Error };
    Type type = Type::Error;
    KubePod pod;             // Added, Modified, Deleted
    QString resourceVersion; // the object's metadata.resourceVersion: where a new watch resumes
    int errorCode = 0;       // Error: the Status's code (410 for Expired)
    QString errorReason;     // Error: the Status's reason ("Expired")
    QString errorMessage;    // Error: the Status's message
};

} // namespace strata
