#pragma once

#include "kube_status.h"

#include <QByteArray>

#include <optional>

namespace strata {

// Kubernetes errors, as the API sends them and as kubectl prints them. Pure.
class KubeStatusParser
{
public:
    // A `kind: Status` JSON object with status Failure; empty for anything else.
    static std::optional<KubeStatus> parseJson(const QByteArray &json);
    // kubectl's stderr: "Error from server (NotFound): jobs.batch \"x\" not found",
    // "The Job \"x\" is invalid: \n* field: message", a refused connection, a missing kubectl.
    // Empty when the text is none of these.
    static std::optional<KubeStatus> parseKubectlError(const QByteArray &stderrText);
};

} // namespace strata
