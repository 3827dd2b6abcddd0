#pragma once

#include <QJsonObject>
#include <QString>

namespace strata {

// One event of a watch (`GET /api/v1/pods?watch=1`, nodes, Jobs alike): one JSON object per
// line, {"type": T, "object": O}. O is the object for ADDED/MODIFIED/DELETED (read by its
// resource's parser, KubeResource::parseObject), an object with only its
// metadata.resourceVersion for BOOKMARK, and a Status for ERROR (410 Expired: the version the
// watch started from is older than the API server keeps; list again). KubeJson::parseWatchEvent.
struct KubeWatchEvent
{
    enum class Type { Added, Modified, Deleted, Bookmark, Error };
    Type type = Type::Error;
    QJsonObject object;      // Added, Modified, Deleted: the object as the API wrote it
    QString resourceVersion; // the object's metadata.resourceVersion: where a new watch resumes
    int errorCode = 0;       // Error: the Status's code (410 for Expired)
    QString errorReason;     // Error: the Status's reason ("Expired")
    QString errorMessage;    // Error: the Status's message
};

} // namespace strata
