#pragma once

#include <QString>
#include <QStringList>

namespace strata {

// A Kubernetes API error (a `kind: Status` object), or kubectl's report of one.
struct KubeStatus
{
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
};

} // namespace strata
