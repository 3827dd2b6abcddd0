#pragma once

#include "model/error_kind.h"

#include <QString>
#include <QStringList>

namespace strata {

// A Kubernetes API error (a `kind: Status` object), or kubectl's report of one.
struct KubeStatus
{
    // Where the failure came from, to decide on (the API's own reason string is kept as read).
    enum class Origin {
        ApiServer,      // a Status object, or kubectl's "Error from server (Reason)" / "is invalid"
        Unreachable,    // kubectl could not reach the API server
        KubectlMissing, // no kubectl on the remote host: no retry will change that
    };

    Origin origin = Origin::ApiServer;
    int code = 0;      // HTTP status (404, 409, 422, ...); 0 when only kubectl's text was seen
    QString reason;    // NotFound, AlreadyExists, Invalid, Conflict, BadRequest, Forbidden,
                       // Unauthorized, ... or, from kubectl, Unreachable / KubectlMissing
    QString message;   // the API's own words
    QString kind;      // details.kind ("jobs", "nodes", "Job")
    QString name;      // details.name
    QStringList causes; // "field: message" of a 422

    bool isNotFound() const { return reason == QLatin1String("NotFound"); }
    bool isAlreadyExists() const { return reason == QLatin1String("AlreadyExists"); }
    bool isInvalid() const { return reason == QLatin1String("Invalid"); }
    // SourceUnsupported for a host without kubectl (which no retry mends), else CommandFailed.
    ErrorKind errorKind() const
    {
        return origin == Origin::KubectlMissing ? ErrorKind::SourceUnsupported : ErrorKind::CommandFailed;
    }
};

} // namespace strata
